package transcript

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// checkOf is rule's verdict in tr: "pass", "fail", "undecided", or ""
// when it is not listed.
func checkOf(tr *trace.Trace, rule trace.RuleID) string {
	for _, c := range tr.Checks {
		if c.Rule == rule {
			switch {
			case c.OK == nil:
				return "undecided"
			case *c.OK:
				return "pass"
			}
			return "fail"
		}
	}
	return ""
}

// A server's transcript of a tools/call repeated under a new id: the
// importer links it as a retry (DOMAIN.md §4–5) only when the first
// attempt ended without a result before the second was sent, with the same
// tool and arguments, and the tool's annotations say its class; so
// no-unsafe-retry judges it.
func TestRetryInferred(t *testing.T) {
	const head = `{"observer":"server","transport":"streamable-http","protocol":"2025-11-25"}
{"t":0,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}
`
	list := func(annotations string) string {
		return `{"t":1,"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"charge_account","inputSchema":{"type":"object"}` + annotations + `}]}}}` + "\n"
	}
	const unsafe = `,"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false}`
	call := func(t, id, args string) string {
		return `{"t":` + t + `,"from":"client","message":{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"charge_account","arguments":` + args + `}}}` + "\n"
	}
	cancel := func(t, id string) string {
		return `{"t":` + t + `,"from":"client","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"Request timed out"}}}` + "\n"
	}
	cases := []struct {
		name, body string
		retryOf    string // the retry's RetryOf, "" none
		rule       string // no-unsafe-retry's verdict
	}{
		{"a timed-out unsafe mutation sent again under a new id is an unsafe retry",
			list(unsafe) + call("10", "2", `{"amount":5}`) + cancel("310", "2") + call("400", "3", `{"amount":5}`), "2", "fail"},
		{"a second retry links to the attempt before it, not the first",
			list(unsafe) + call("10", "2", `{"amount":5}`) + cancel("310", "2") + call("400", "3", `{"amount":5}`) + cancel("700", "3") + call("800", "4", `{"amount":5}`), "3", "fail"},
		{"the same id again (a re-issue after a 404) is no retry",
			list(unsafe) + call("10", "2", `{"amount":5}`) + cancel("310", "2") + call("400", "2", `{"amount":5}`), "", ""},
		{"an error answered, then the same call again: a retry",
			list(unsafe) + call("10", "2", `{"amount":5}`) + `{"t":20,"from":"server","message":{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"busy"}}}` + "\n" + call("400", "3", `{"amount":5}`), "2", "fail"},
		{"a read-only tool's retry is safe",
			list(`,"annotations":{"readOnlyHint":true}`) + call("10", "2", `{}`) + cancel("310", "2") + call("400", "3", `{}`), "2", "pass"},
		{"other arguments: a new call, not a retry",
			list(unsafe) + call("10", "2", `{"amount":5}`) + cancel("310", "2") + call("400", "3", `{"amount":6}`), "", ""},
		{"sent while the first is pending: a second call, not a retry",
			list(unsafe) + call("10", "2", `{"amount":5}`) + call("20", "3", `{"amount":5}`) + cancel("310", "2"), "", ""},
		{"the first was answered with a result: not a retry",
			list(unsafe) + call("10", "2", `{"amount":5}`) + `{"t":20,"from":"server","message":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}` + "\n" + call("400", "3", `{"amount":5}`), "", ""},
		{"no annotations: the class is unknown, nothing is linked",
			list(``) + call("10", "2", `{"amount":5}`) + cancel("310", "2") + call("400", "3", `{"amount":5}`), "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Import([]byte(head+c.body), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, r := range tr.Requests {
				if r.RetryOf != nil {
					got = r.RetryOf.Raw()
				}
			}
			if got != c.retryOf {
				t.Errorf("RetryOf %q, want %q; note %s", got, c.retryOf, tr.Source.Note)
			}
			if v := checkOf(tr, checks.NoUnsafeRetry); v != c.rule {
				t.Errorf("%s %q, want %q", checks.NoUnsafeRetry, v, c.rule)
			}
			if c.name == "no annotations: the class is unknown, nothing is linked" && !strings.Contains(tr.Source.Note, "not judged as a retry") {
				t.Errorf("the note does not say why the repeat is not judged: %s", tr.Source.Note)
			}
		})
	}
}
