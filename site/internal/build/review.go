package build

import (
	"fmt"
	"path"
	"strings"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// ReviewDefault is the scenario /review/ itself shows: the flagship story.
const ReviewDefault = "flagship-retry-charges-twice"

// reviewExtras are built-in scenarios without a ledger that also get a
// review page, so the picker shows a task, a buffer, a proxy and HTTP.
var reviewExtras = []string{"d-cancel-on-streamable-http", "buffer-reference-coalesce", "proxy-buffering-burst", "task-cancel-ack-not-final"}

// Reviewed lists the built-in scenarios that get a review page: every one
// with a ledger and a call (a call step or a race's call: the idempotency
// lessons), then
// reviewExtras, each once, in examples.All order.
func Reviewed() []examples.Example {
	extra := map[string]bool{}
	for _, n := range reviewExtras {
		extra[n] = true
	}
	var out []examples.Example
	for _, ex := range examples.All() {
		s, err := scenario.Decode(ex.JSON)
		if err != nil {
			continue // the build's scenario pages report it
		}
		if len(review.Calls(s)) > 0 && (s.Ledger != nil || extra[ex.Name]) {
			out = append(out, ex)
		}
	}
	return out
}

// ReviewPath is the review page of built-in scenario name: review/ for
// ReviewDefault, else review/<name>/.
func ReviewPath(name string) string {
	if name == ReviewDefault {
		return "review/index.html"
	}
	return "review/" + name + "/index.html"
}

// ReviewLinkBase is where a review page's run links point, relative to the
// site root: the playground, on the SQLite build (?ledger=1) when the
// scenario has a ledger, as every run derived from it then has.
func ReviewLinkBase(ex examples.Example) string {
	if s, err := scenario.Decode(ex.JSON); err == nil && s.Ledger != nil {
		return "playground/?ledger=1"
	}
	return "playground/"
}

// buildReviews writes the review pages (templates.ReviewPage) of the
// reviewed scenarios and /review.schema.json. Each review's links open its
// derived runs in the playground (relative to the page, so the site works
// under any subpath). With the build's baseURL ("" for none, else absolute
// and ending in "/", ParseBaseURL) the Markdown to copy links every run
// absolutely (baseURL + "playground/#s=..."), as `review -link-base` does:
// a relative link is dead in a pull request, so without one the Markdown
// names the runs in plain text. That reviews each scenario twice. It
// returns the number of review pages written.
func buildReviews(write func(rel string, data []byte) error, baseURL string) (int, error) {
	exs := Reviewed()
	var picker []templates.ReviewLink
	for _, ex := range exs {
		picker = append(picker, templates.ReviewLink{Name: ex.Name, Title: ex.Title, Href: path.Dir(ReviewPath(ex.Name)) + "/"})
	}
	for _, ex := range exs {
		rel := ReviewPath(ex.Name)
		root := strings.Repeat("../", strings.Count(rel, "/"))
		rep, err := review.Review(ex.JSON, review.Options{Engine: runOptions, LinkBase: root + ReviewLinkBase(ex)})
		if err != nil {
			return 0, fmt.Errorf("build: review of example %s: %w", ex.Name, err)
		}
		links := make([]templates.ReviewLink, len(picker))
		for i, l := range picker {
			l.Current = l.Name == ex.Name
			l.Href = root + l.Href
			links[i] = l
		}
		md := review.Markdown(rep)
		if baseURL != "" {
			abs, err := review.Review(ex.JSON, review.Options{Engine: runOptions, LinkBase: baseURL + ReviewLinkBase(ex)})
			if err != nil {
				return 0, fmt.Errorf("build: review of example %s: %w", ex.Name, err)
			}
			md = review.Markdown(abs)
		}
		v := templates.NewReviewView(root, ex.Name, ex.Title, root+path.Dir(ScenarioPath(ex.Name))+"/", rep, md, links)
		v.Scenario = string(ex.JSON)
		if s, err := scenario.Decode(ex.JSON); err == nil {
			for _, id := range review.Calls(s) {
				v.Ops = append(v.Ops, id.Raw())
			}
		}
		html, err := render(templates.ReviewPage(v))
		if err != nil {
			return 0, fmt.Errorf("build: review page of example %s: %w", ex.Name, err)
		}
		if err := write(rel, html); err != nil {
			return 0, err
		}
	}
	return len(exs), write("review.schema.json", review.Schema)
}
