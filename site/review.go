package site

import (
	"flag"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/templates"
)

// cmdReview is `site review [-json] [-op ID] [-link-base URL] FILE|-|LINK`
// (the `mcplab review` verb): it prints the reliability review of
// one call of a scenario (package engine/review), as Markdown, or as JSON
// with -json (the contract of /review.schema.json).
//
// The input is what `run` takes for a scenario: a file, "-" for standard
// input, or a share link ("#s=..." or "#example=NAME"), or a review page's
// link, which also names the call ("#s=...&op=ID"). -op names the call by
// its JSON-RPC id (41, job-1 or "job-1"), over the link's; the default is
// the first call (a race's call counts).
// Every derived run gets a share link: a bare "#s=..." fragment (which
// `run` and `review` accept), or -link-base prefixed
// (https://lab.example/playground/, or .../playground/?ledger=1 for the
// SQLite build). A -link-base whose path does not end in "playground/" is
// a usageError suggesting the address meant (playgroundBase): its links
// would open another page.
//
// Bad input is a usageError with the located cause, exactly as `run` says
// it ("steps[3].at: must be >= 0"); a scenario with no call says so
// ("steps: no call to review: ..."); a derived run past the engine's bounds
// fails the review with the run's name. The process exits 2 for all of them.
func cmdReview(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the review as JSON (schema: /review.schema.json) instead of Markdown")
	op := fs.String("op", "", "the JSON-RPC `id` of the call to review (default: the first call)")
	base := fs.String("link-base", "", "prefix of every derived run's share link: the playground's address, e.g. https://lab.example/playground/ (?ledger=1 after it for the SQLite build; default: a bare #s=... fragment)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: mcplab review [-json] [-op ID] [-link-base URL] FILE|-|LINK

Prints the reliability review of one call of a scenario file (- for standard
input) or share link ('#s=...' or '#example=NAME'): the cancellation races,
the retry class, the idempotency boundary, flow control, recovery and one
failure card per failure id, each backed by a derived run and its link.`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if b := *base; b != "" && !*asJSON && !strings.HasPrefix(b, "https://") && !strings.HasPrefix(b, "http://") {
		// The Markdown links a run only to an absolute URL: a relative
		// -link-base would be dropped without a word.
		return &usageError{fmt.Errorf("-link-base %q: want an absolute http:// or https:// URL (the Markdown links its runs only to one: a relative link is dead in a pull request)", b)}
	}
	if b := *base; b != "" {
		// A link is the base and "#s=...": only the playground's address
		// opens the run (https://lab.example/#s=... is the index).
		if want, ok := playgroundBase(b); !ok {
			return &usageError{fmt.Errorf("-link-base %q: want the playground's address, such as %s", b, want)}
		}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &usageError{fmt.Errorf("review takes one scenario file, - for stdin, or a share link; got %d arguments", fs.NArg())}
	}
	name := fs.Arg(0)
	var data []byte
	var err error
	if isLink(name) {
		share, linkOp := review.SplitLink(name)
		if *op == "" {
			*op = linkOp // the review page's link names its call: #s=...&op=ID
		}
		if data, err = linkScenario(share); err != nil {
			return &usageError{err}
		}
	} else if data, err = readInput(name, false); err != nil {
		return err
	}
	if f := transcript.Sniff(data); f != transcript.FormatScenario && f != transcript.FormatUnknown {
		return &usageError{fmt.Errorf("%s is a transcript of real traffic, and review takes a scenario: `mcplab run %s` judges a transcript, and the import page turns one into a scenario", name, name)}
	}
	rep, err := review.Review(data, review.Options{Op: *op, Engine: runOptions, LinkBase: *base})
	if err != nil {
		return &usageError{mcplabMemberError(err)}
	}
	if *asJSON {
		out, err := review.Encode(rep)
		if err != nil {
			return err
		}
		_, err = stdout.Write(out)
		return err
	}
	_, err = io.WriteString(stdout, review.Markdown(rep))
	return err
}

// playgroundBase reports whether a -link-base is the playground's address:
// its path ends in "playground/" (a query such as the SQLite build's
// ?ledger=1 may follow; no fragment, since the link adds one). If not, want
// is the address meant, the same URL with the path corrected
// (https://lab.example/ gives https://lab.example/playground/).
func playgroundBase(base string) (want string, ok bool) {
	u, err := url.Parse(base)
	if err != nil {
		return "https://lab.example/playground/", false
	}
	p := u.Path
	isPlayground := func(p string) bool { return p == "playground/" || strings.HasSuffix(p, "/playground/") }
	if isPlayground(p) && u.Fragment == "" && !u.ForceQuery {
		return base, true
	}
	switch i := strings.LastIndexByte(p, '/'); {
	case isPlayground(p):
	case p == "playground" || strings.HasSuffix(p, "/playground"):
		p += "/"
	case strings.Contains(p[i+1:], "."): // a file: the playground beside it, or its own
		if p = p[:i+1]; !isPlayground(p) {
			p += "playground/"
		}
	case p == "" && u.Host != "":
		p = "/playground/"
	case p == "" || strings.HasSuffix(p, "/"):
		p += "playground/"
	default:
		p += "/playground/"
	}
	u.Path, u.RawPath, u.Fragment, u.RawFragment, u.ForceQuery = p, "", "", "", false
	return u.String(), false
}

// reviewDefault is the scenario /review/ itself shows: the flagship story.
const reviewDefault = "flagship-retry-charges-twice"

// reviewExtras are built-in scenarios without a ledger that also get a
// review page, so the picker shows a task, a buffer, a proxy and HTTP.
var reviewExtras = []string{"d-cancel-on-streamable-http", "buffer-reference-coalesce", "proxy-buffering-burst", "task-cancel-ack-not-final"}

// reviewed lists the built-in scenarios that get a review page: every one
// with a ledger and a call (a call step or a race's call: the idempotency
// lessons), then
// reviewExtras, each once, in examples.All order.
func reviewed() []examples.Example {
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

// reviewPath is the review page of built-in scenario name: review/ for
// reviewDefault, else review/<name>/.
func reviewPath(name string) string {
	if name == reviewDefault {
		return "review/index.html"
	}
	return "review/" + name + "/index.html"
}

// reviewLinkBase is where a review page's run links point, relative to the
// site root: the playground, on the SQLite build (?ledger=1) when the
// scenario has a ledger, as every run derived from it then has.
func reviewLinkBase(ex examples.Example) string {
	if s, err := scenario.Decode(ex.JSON); err == nil && s.Ledger != nil {
		return "playground/?ledger=1"
	}
	return "playground/"
}

// buildReviews writes the review pages (templates.ReviewPage) of the
// reviewed scenarios and /review.schema.json. Each review's links open its
// derived runs in the playground (relative to the page, so the site works
// under any subpath). With the build's baseURL ("" for none, else absolute
// and ending in "/", parseBaseURL) the Markdown to copy links every run
// absolutely (baseURL + "playground/#s=..."), as `review -link-base` does:
// a relative link is dead in a pull request, so without one the Markdown
// names the runs in plain text. That reviews each scenario twice. It
// returns the number of review pages written.
func buildReviews(write func(rel string, data []byte) error, baseURL string) (int, error) {
	exs := reviewed()
	var picker []templates.ReviewLink
	for _, ex := range exs {
		picker = append(picker, templates.ReviewLink{Name: ex.Name, Title: ex.Title, Href: path.Dir(reviewPath(ex.Name)) + "/"})
	}
	for _, ex := range exs {
		rel := reviewPath(ex.Name)
		root := strings.Repeat("../", strings.Count(rel, "/"))
		rep, err := review.Review(ex.JSON, review.Options{Engine: runOptions, LinkBase: root + reviewLinkBase(ex)})
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
			abs, err := review.Review(ex.JSON, review.Options{Engine: runOptions, LinkBase: baseURL + reviewLinkBase(ex)})
			if err != nil {
				return 0, fmt.Errorf("build: review of example %s: %w", ex.Name, err)
			}
			md = review.Markdown(abs)
		}
		v := templates.NewReviewView(root, ex.Name, ex.Title, root+path.Dir(scenarioPath(ex.Name))+"/", rep, md, links)
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
