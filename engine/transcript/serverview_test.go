package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// serverView writes a server's JSON Lines transcript (stdio, 2025-11-25)
// of one tools/call id 2 with progress token 2, sent at 0 ms: progress at
// each of progress (ms), then the client's cancellation at cancel (-1:
// none) and the server's result at result (-1: none), in time order.
func serverView(progress []int, cancel, result int) []byte {
	type line struct {
		at   int
		text string
	}
	stamp := func(ms int) string { return fmt.Sprintf("2026-01-01T00:00:%02d.%03dZ", 1+ms/1000, ms%1000) }
	ls := []line{
		{-2, `"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{-2, `"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`},
		{-1, `"from":"client","message":{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{0, `"from":"client","message":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":2}}}`},
	}
	for k, p := range progress {
		ls = append(ls, line{p, fmt.Sprintf(`"from":"server","message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":%d}}`, k+1)})
	}
	if cancel >= 0 {
		ls = append(ls, line{cancel, `"from":"client","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"timeout"}}`})
	}
	if result >= 0 {
		ls = append(ls, line{result, `"from":"server","message":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`})
	}
	var b strings.Builder
	b.WriteString(`{"observer":"server","transport":"stdio","protocol":"2025-11-25"}` + "\n")
	for i := 0; i < len(ls); i++ { // insertion into time order, stable
		for j := i; j > 0 && ls[j].at < ls[j-1].at; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
	for _, l := range ls {
		b.WriteString(`{"t":"` + stamp(l.at+10) + `",` + l.text + "}\n")
	}
	return []byte(b.String())
}

// Rules abandon-tells-server, max-timeout-enforced and progress-resets-idle
// judged from a server's view with the client's timeouts stated (a server
// sees neither): the client tells the server within MaximumGraceMs (250
// ms) of start + maximum or it gave up silently, a cancellation only later
// (the TypeScript SDK's leaked idle timer, a whole idle timeout late) is no
// telling; a cancellation
// less than the idle timeout (less 10 ms) after the last progress shows an
// idle clock that ignored progress.
func TestServerViewStatedTimeouts(t *testing.T) {
	every100 := []int{100, 200, 300, 400, 500, 600, 700, 800, 900}
	cases := []struct {
		name            string
		progress        []int
		cancel, result  int
		opts            Options
		abandon, maxEnf string // "pass", "fail" or "" (not judged)
		resets          string
	}{
		{"cancel at the maximum", every100, 702, -1, Options{MaxTimeoutMs: 700}, "pass", "pass", ""},
		{"answered before the maximum", every100, -1, 650, Options{MaxTimeoutMs: 700}, "", "pass", ""},
		{"answered past the maximum, never told", every100, -1, 1200, Options{MaxTimeoutMs: 700}, "fail", "fail", ""},
		{"told only by a leftover timer 500 ms late", every100, 1200, -1, Options{MaxTimeoutMs: 700}, "fail", "fail", ""},
		{"told 251 ms late", every100, 951, -1, Options{MaxTimeoutMs: 700}, "fail", "fail", ""},
		{"told 249 ms late", every100, 949, -1, Options{MaxTimeoutMs: 700}, "pass", "pass", ""},
		{"idle clock reset by progress", every100, -1, 1000, Options{IdleTimeoutMs: 300}, "", "", "pass"},
		{"idle clock ignoring progress", []int{100, 200}, 300, -1, Options{IdleTimeoutMs: 300}, "", "", "fail"},
		{"idle timeout a full idle after the last progress", []int{100, 200}, 500, -1, Options{IdleTimeoutMs: 300}, "", "", "pass"},
		{"a short call says nothing of idle", []int{100}, -1, 150, Options{IdleTimeoutMs: 300}, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Import(serverView(c.progress, c.cancel, c.result), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := map[trace.RuleID]string{}
			for _, ch := range tr.Checks {
				switch {
				case ch.OK == nil:
					got[ch.Rule] = "undecided"
				case *ch.OK:
					got[ch.Rule] = "pass"
				default:
					got[ch.Rule] = "fail"
				}
			}
			for rule, want := range map[trace.RuleID]string{checks.AbandonTellsServer: c.abandon, checks.MaxTimeoutEnforced: c.maxEnf, checks.ProgressResetsIdle: c.resets} {
				if got[rule] != want {
					t.Errorf("%s = %q, want %q (checks %v)", rule, got[rule], want, got)
				}
			}
		})
	}
}
