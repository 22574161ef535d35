package review

import (
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/trace"
)

// Markdown renders the report for a pull request or a design doc: the
// operation, the race table, the retry class, the idempotency boundary, flow
// control, recovery and the failure cards, every derived run named by its
// id. The output is deterministic (the report's order, no map iteration).
//
// A run is a link only when its link is absolute (http:// or https://,
// from Options.LinkBase, the CLI's -link-base): a relative link ("#s=...",
// "../playground/#s=...") is dead once pasted into a pull request, so then
// the run's id is plain text and the text ends with how to get links.
func Markdown(r *Report) string {
	var b strings.Builder
	o := r.Operation
	fmt.Fprintf(&b, "# Reliability review: %s %s\n\n", code(nameOf(o)), code("id "+o.ID.Raw()))
	if o.Title != "" {
		fmt.Fprintf(&b, "From the scenario %q.\n\n", o.Title)
	}
	fmt.Fprintf(&b, "- Transport: %s, protocol %s\n", o.Transport, o.Protocol)
	fmt.Fprintf(&b, "- Method: %s; arguments: %s\n", code(o.Method), code(orNone(string(compact(o.Arguments)))))
	fmt.Fprintf(&b, "- Side effect: %s; ledger tool: %s; idempotency key: %s\n", yesNo(o.SideEffect), yesNo(o.LedgerTool), code(orNone(o.IdempotencyKey)))
	fmt.Fprintf(&b, "- Idle timeout: %s; maximum timeout: %s\n", ms(o.IdleTimeoutMs), ms(o.MaxTimeoutMs))
	if o.ProgressToken != nil {
		fmt.Fprintf(&b, "- Progress token: %s\n", code(o.ProgressToken.Raw()))
	}
	if o.Task != "" {
		fmt.Fprintf(&b, "- Durable task: %s\n", code(o.Task))
	}

	b.WriteString("\n## Failure cards\n\n| failure | status | why | run |\n|---|---|---|---|\n")
	for _, c := range r.FailureCards {
		fmt.Fprintf(&b, "| %s %s | **%s** | %s | %s |\n", code(c.ID), cell(c.Failure), c.Status, cell(scenarioRefs(c.Why, siteRoot(r))), runRef(c.Run, c.Link))
	}

	b.WriteString("\n## Cancellation races\n\n| transport | protocol | order | band | signal | final response | server state | client ignores | server ignores | checks | run |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, x := range r.Races {
		sig := "none"
		if x.Signal != nil {
			sig = code(*x.Signal)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", x.Transport, x.Protocol, x.Order, bandText(x.Band), sig, yesNo(x.FinalResponse),
			x.ServerState, list(x.ClientIgnores), list(x.ServerIgnores), checkList(x.Checks), runRef(x.Run, x.Link))
	}

	fmt.Fprintf(&b, "\n## Retry class: %s\n\n%s.\n\n%s\n\n", r.RetryClass, capital(r.Retry.Rule), r.Retry.HintsNote)
	evidenceLine(&b, "New JSON-RPC id, no key", r.Retry.NewID)
	k := "Same idempotency key"
	if r.Retry.KeyAdded {
		k += " (added by the review)"
	}
	evidenceLine(&b, k, r.Retry.SameKey)

	i := r.Idempotency
	fmt.Fprintf(&b, "\n## Idempotency boundary\n\n**%s.** %s\n", i.Status, i.Why)
	if i.Applicable {
		fmt.Fprintf(&b, "\nThe key binds: %s.\n", strings.Join(i.Binds, ", "))
		if i.Record != nil {
			fmt.Fprintf(&b, "\nStored record: key %s, fingerprint %s, result %s.\n", code(i.Record.Key), code(i.Record.Fingerprint), code(string(compact(i.Record.Result))))
		}
		b.WriteString("\n")
		for _, e := range []struct {
			title string
			ev    *Evidence
		}{{"Stored record", i.Stored}, {"Mismatch fixture " + code(string(i.ChangedArguments)), i.Mismatch}, {"Concurrent same-key race", i.Race}, {"Reopen check", i.Reopen}, {"Mutation-alias check", i.MutationAlias}} {
			if e.ev != nil {
				evidenceLine(&b, e.title, *e.ev)
			}
		}
	}

	f := r.FlowControl
	b.WriteString("\n## Flow control\n\n")
	if f.Buffer != nil {
		evidenceLine(&b, fmt.Sprintf("Buffer under overload (%d pushed, capacity %d, policy %s)", f.Buffer.Pushed, f.Buffer.Summary.Capacity, f.Buffer.Summary.Policy), f.Buffer.Stated())
	}
	if f.SSE != nil {
		evidenceLine(&b, fmt.Sprintf("SSE headers %s, keep-alive every %s vs proxy idle close %s", headers(f.SSE.Headers), ms(f.SSE.KeepaliveEveryMs), ms(f.SSE.IdleCloseMs)), f.SSE.Evidence)
	}
	if f.Progress != nil {
		evidenceLine(&b, "Progress vs the client's idle timeout through the proxy", f.Progress.Evidence)
	}
	if f.Deadlines != nil {
		evidenceLine(&b, "Deadlines under steady progress", *f.Deadlines)
	}
	notShown(&b, f.NotApplicable, f.NotEvaluated)

	rc := r.Recovery
	b.WriteString("\n## Recovery\n\n")
	if rc.Reconnect != nil {
		evidenceLine(&b, "Reconnect plan", rc.Reconnect.Evidence)
	}
	if rc.Herd != nil {
		evidenceLine(&b, fmt.Sprintf("Herd of %d clients, strategy %s", rc.Herd.Clients, rc.Herd.Strategy), rc.Herd.Stated())
	}
	if rc.Task != nil {
		evidenceLine(&b, "Task cancellation trace", rc.Task.Evidence)
	}
	notShown(&b, rc.NotApplicable, rc.NotEvaluated)

	b.WriteString("\n## Derived runs\n\n")
	linked := false
	for _, run := range r.Runs {
		fmt.Fprintf(&b, "- %s: %s\n", runRef(run.ID, run.Link), run.Title)
		linked = linked || absolute(run.Link)
	}
	if !linked {
		b.WriteString("\nEach run is named by its id: `mcplab review -link-base https://YOUR-SITE/playground/` links every run, and the review page opens them.\n")
	}
	return b.String()
}

// siteRoot is the site's address when the report's links are absolute
// playground links ("https://lab.example/playground/#s=..." gives
// "https://lab.example/"), else "".
func siteRoot(r *Report) string {
	for _, run := range r.Runs {
		if i := strings.Index(run.Link, "playground/"); absolute(run.Link) && i > 0 {
			return run.Link[:i]
		}
	}
	return ""
}

// scenarioRefs marks each built-in scenario s names (examples.IsBuiltin): a link
// to its page under root when root is an absolute site address, else the
// name as code, so a reader can find it.
func scenarioRefs(s, root string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		if j == i {
			b.WriteByte(s[i])
			i++
			continue
		}
		w := strings.TrimRight(s[i:j], "-")
		switch {
		case !examples.IsBuiltin(w) || isRule(w):
			b.WriteString(s[i:j]) // a rule id named like its lesson is the rule
		case root != "":
			b.WriteString("[" + code(w) + "](" + root + "s/" + w + "/)" + s[i+len(w):j])
		default:
			b.WriteString(code(w) + s[i+len(w):j])
		}
		i = j
	}
	return b.String()
}

func isRule(w string) bool { _, ok := checks.RuleByID(trace.RuleID(w)); return ok }

func isNameByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' }

// notShown lists the members a part did not show: not applicable (the
// part cannot apply) and not evaluated (it can, but was not run).
func notShown(b *strings.Builder, na, ne []string) {
	for _, x := range na {
		fmt.Fprintf(b, "- **not-applicable**, %s\n", x)
	}
	for _, x := range ne {
		fmt.Fprintf(b, "- **not-evaluated**, %s\n", x)
	}
}

// Stated is the buffer's evidence with what its run assumed (Assumed)
// before the finding, as the Markdown and the page say it.
func (b *BufferEvidence) Stated() Evidence { return withAssumed(b.Evidence, b.Assumed) }

// Stated is the herd's evidence with what its run assumed (Assumed)
// before the finding, as the Markdown and the page say it.
func (h *HerdEvidence) Stated() Evidence { return withAssumed(h.Evidence, h.Assumed) }

func withAssumed(ev Evidence, assumed string) Evidence {
	if assumed != "" {
		ev.Finding = assumed + " " + ev.Finding
	}
	return ev
}

func evidenceLine(b *strings.Builder, title string, ev Evidence) {
	fmt.Fprintf(b, "- **%s** (run %s): %s", title, runRef(ev.Run, ev.Link), ev.Finding)
	if len(ev.Checks) > 0 {
		fmt.Fprintf(b, " Checks: %s.", checkList(ev.Checks))
	}
	b.WriteString("\n")
}

func checkList(vs []Verdict) string {
	if len(vs) == 0 {
		return "none"
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		mark := "?"
		if v.OK != nil && *v.OK {
			mark = "pass"
		} else if v.OK != nil {
			mark = "FAIL"
		}
		parts[i] = mark + " " + string(v.Rule)
	}
	return strings.Join(parts, ", ")
}

func headers(h map[string]string) string {
	if h == nil {
		return "none"
	}
	var parts []string
	for _, k := range []string{"Content-Type", "Cache-Control", "X-Accel-Buffering"} {
		v, ok := h[k]
		if !ok {
			v = "(absent)"
		}
		parts = append(parts, k+": "+v)
	}
	return code(strings.Join(parts, "; "))
}

// runRef names run id: a Markdown link to url when url is absolute, else
// the id as code ("–" when there is no run).
func runRef(id, url string) string {
	switch {
	case id == "":
		return "–"
	case absolute(url):
		return "[" + id + "](" + url + ")"
	}
	return code(id)
}

// absolute reports whether url is an absolute http(s) URL, which a pull
// request can follow.
func absolute(url string) bool {
	return strings.HasPrefix(url, "https://") || strings.HasPrefix(url, "http://")
}

func code(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

func cell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }

func list(xs []string) string {
	if len(xs) == 0 {
		return "nothing"
	}
	return strings.Join(xs, ", ")
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func ms(v int64) string {
	if v == 0 {
		return "none"
	}
	return fmt.Sprintf("%d ms", v)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// bandText says a race row's band: "complete 300..309 ms, cancel at 300
// ms", or "unknown" without one.
func bandText(b *Band) string {
	if b == nil {
		return "unknown"
	}
	return fmt.Sprintf("complete %d..%d ms, cancel at %d ms", b.FromMs, b.ToMs, b.CancelMs)
}
