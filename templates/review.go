package templates

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/review"
)

// ReviewView is what ReviewPage draws: the reliability review of one call
// of a built-in scenario (package engine/review), prerendered, with a
// picker of the other reviewed scenarios. Build it with NewReviewView.
type ReviewView struct {
	// Root is the relative path from the page to the site root, ending in "/".
	Root string
	// Name and Title are the reviewed scenario's slug and title; Scenario
	// is the href of its scenario page.
	Name, Title, ScenarioHref string
	Report                    *review.Report
	// Markdown is the same review as Markdown (review.Markdown), for copying.
	Markdown string
	Picker   []ReviewLink
	// Scenario is the text the live panel starts from (the reviewed
	// scenario's file) and Ops the ids of its calls (review.Calls, raw
	// JSON text: 41 or "job-1"), the first selected.
	Scenario string
	Ops      []string
	// Sections are the evidence lists of the retry, idempotency, flow
	// control and recovery parts, in that order.
	Sections []ReviewSection
	// Cards counts the failure cards by status.
	AtRisk, Mitigated, NotApplicable, NotEvaluated int
}

// ReviewLink is one entry of the picker.
type ReviewLink struct {
	Name, Title, Href string
	Current           bool
}

// ReviewSection is one part of the review drawn as a list of evidence.
type ReviewSection struct {
	ID, Title, Intro string
	// Status is the part's review.Evaluated, NotApplicable or NotEvaluated
	// when the part as a whole has one (the idempotency boundary), else "".
	Status        string
	Items         []ReviewItem
	NotApplicable []string
	NotEvaluated  []string
}

// ReviewItem is one derived run as evidence: what it shows, its checks and
// the link that opens it in the playground.
type ReviewItem struct {
	Title, Finding, Link string
	Checks               []review.Verdict
}

// NewReviewView builds the view of rep for the page of scenario name.
// markdown is review.Markdown(rep) (the page offers it for copying).
func NewReviewView(root, name, title, scenarioHref string, rep *review.Report, markdown string, picker []ReviewLink) ReviewView {
	v := ReviewView{Root: root, Name: name, Title: title, ScenarioHref: scenarioHref, Report: rep, Markdown: markdown, Picker: picker}
	for _, c := range rep.FailureCards {
		switch c.Status {
		case review.AtRisk:
			v.AtRisk++
		case review.Mitigated:
			v.Mitigated++
		case review.NotEvaluated:
			v.NotEvaluated++
		default:
			v.NotApplicable++
		}
	}
	item := func(title string, ev review.Evidence) ReviewItem {
		return ReviewItem{Title: title, Finding: ev.Finding, Link: ev.Link, Checks: ev.Checks}
	}
	retry := ReviewSection{ID: "retry", Title: "Retry class: " + rep.RetryClass, Intro: capitalize(rep.Retry.Rule) + ". " + rep.Retry.HintsNote}
	sameKey := "Retry with the same idempotency key"
	if rep.Retry.KeyAdded {
		sameKey += " (added by the review)"
	}
	retry.Items = []ReviewItem{item("Retry under a new JSON-RPC id, no key", rep.Retry.NewID), item(sameKey, rep.Retry.SameKey)}

	i := rep.Idempotency
	idem := ReviewSection{ID: "idempotency", Title: "Idempotency boundary", Intro: i.Why, Status: i.Status}
	if i.Applicable {
		if len(i.Binds) > 0 {
			idem.Intro += " The key binds " + strings.Join(i.Binds, ", ") + "."
		}
		if i.Record != nil {
			idem.Intro += " Stored record: key " + i.Record.Key + ", fingerprint " + i.Record.Fingerprint + ", result " + string(i.Record.Result) + "."
		}
		for _, e := range []struct {
			t  string
			ev *review.Evidence
		}{{"The stored record", i.Stored}, {"Mismatch fixture: " + string(i.ChangedArguments), i.Mismatch}, {"Concurrent same-key race", i.Race}, {"Reopen check", i.Reopen}, {"Mutation-alias check", i.MutationAlias}} {
			if e.ev != nil {
				idem.Items = append(idem.Items, item(e.t, *e.ev))
			}
		}
	}

	f := rep.FlowControl
	flow := ReviewSection{ID: "flow", Title: "Flow control", NotApplicable: f.NotApplicable, NotEvaluated: f.NotEvaluated,
		Intro: "The bounded buffer under overload, the SSE headers and keep-alive against the proxy's idle close, progress against the client's idle timeout, and the two deadlines."}
	if f.Buffer != nil {
		flow.Items = append(flow.Items, item("Buffer under overload", f.Buffer.Stated()))
	}
	if f.SSE != nil {
		flow.Items = append(flow.Items, item("SSE headers and keep-alive", f.SSE.Evidence))
	}
	if f.Progress != nil {
		flow.Items = append(flow.Items, item("Progress through the proxy", f.Progress.Evidence))
	}
	if f.Deadlines != nil {
		flow.Items = append(flow.Items, item("Deadlines under steady progress", *f.Deadlines))
	}

	rc := rep.Recovery
	rec := ReviewSection{ID: "recovery", Title: "Recovery", NotApplicable: rc.NotApplicable, NotEvaluated: rc.NotEvaluated,
		Intro: "The reconnect plan after a listen stream drops, the herd at the configured scale (or the format's default, said where it is), and the durable task's cancellation trace."}
	if rc.Reconnect != nil {
		rec.Items = append(rec.Items, item("Reconnect plan", rc.Reconnect.Evidence))
	}
	if rc.Herd != nil {
		rec.Items = append(rec.Items, item("Herd", rc.Herd.Stated()))
	}
	if rc.Task != nil {
		rec.Items = append(rec.Items, item("Task cancellation trace", rc.Task.Evidence))
	}
	v.Sections = []ReviewSection{retry, idem, flow, rec}
	return v
}

// cardTally is the tally after the at-risk count: ", N mitigated, N not
// applicable." and the not-evaluated count only when there are any.
func cardTally(v ReviewView) string {
	t := fmt.Sprintf(", %d mitigated, %d not applicable", v.Mitigated, v.NotApplicable)
	if v.NotEvaluated > 0 {
		t += fmt.Sprintf(", %d not evaluated", v.NotEvaluated)
	}
	return t + "."
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// verdictText is how a check reads in a cell: "pass", "FAIL" or "?".
func verdictText(v review.Verdict) string {
	switch {
	case v.OK == nil:
		return "?"
	case *v.OK:
		return "pass"
	}
	return "FAIL"
}

// verdictClass is the check-* class of a verdict (app.css colours it).
func verdictClass(v review.Verdict) string {
	switch {
	case v.OK == nil:
		return "check-undecided"
	case *v.OK:
		return "check-pass"
	}
	return "check-fail"
}

// signalText is a race row's signal, "none" when none was sent.
func signalText(r review.Race) string {
	if r.Signal == nil {
		return "none"
	}
	return *r.Signal
}

// listText joins xs, "nothing" when empty.
func listText(xs []string) string {
	if len(xs) == 0 {
		return "nothing"
	}
	return strings.Join(xs, ", ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// opName is the operation's tool name, else its method.
func opName(o review.Operation) string {
	if o.Name != "" {
		return o.Name
	}
	return o.Method
}

// cardClass maps a card status to the check-* class app.css colours.
func cardClass(status string) string {
	switch status {
	case review.AtRisk:
		return "check-fail"
	case review.Mitigated:
		return "check-pass"
	case review.NotEvaluated:
		return "check-undecided check-unevaluated"
	}
	return "check-undecided"
}

// bandText says a race row's band (review.Band): "complete 311..320 ms
// (cancel at 300 ms)", or "unknown" without one.
func bandText(b *review.Band) string {
	if b == nil {
		return "unknown"
	}
	return "complete " + strconv.FormatInt(b.FromMs, 10) + ".." + strconv.FormatInt(b.ToMs, 10) + " ms (cancel at " + strconv.FormatInt(b.CancelMs, 10) + " ms)"
}
