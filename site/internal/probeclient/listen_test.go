package probeclient

// Tests of probe-client's situations (Run) about a client's session
// streams (SCENARIO.md, "Live": listen-dropped, listen-ended,
// session-retired) and a lost mutation's retry, with the real clients:
// the TypeScript SDK 1.32.2 client (site/testdata/probe/ts/client.mjs) and
// the Go SDK v1.8.0 client (site/testdata/probe/goclient), on Streamable
// HTTP, where the mock runs in the test's own process. The
// mock's transcript records what the server sees over HTTP (the listen
// stream's end, the client's reconnects, the 503 and 404 it answers), and
// the engine's rules judge it. Each run takes two to six seconds.

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/mock"
	"github.com/mcplab/mcplab/site/internal/peertest"
)

// TestProbeClientListen: each client's fair verdict, rule by rule.
//   - The TypeScript client reconnects its GET listen stream 1,000 ms after
//     the drop and, refused with 503, again 1,500 ms after the refusal:
//     backoff-grows passes; it refetches nothing after the reconnect
//     (the SDK tells its host nothing), so refetch-after-reconnect fails,
//     after a drop as after a clean end.
//   - After the retired session's 404 neither SDK initializes again:
//     session-recovered fails (anthropics/claude-code#83404).
//   - A host that calls the lost mutation again when its call times out
//     retries an unsafe mutation under a new id: no-unsafe-retry fails.
//   - The Go client under 2025-11-25 reopens its listen stream after a
//     clean end without refetching (refetch-after-reconnect fails); after
//     the drop it reconnects once and, refused, gives its session up, so no
//     rule about backoff or refetching can judge it: undecided.
func TestProbeClientListen(t *testing.T) {
	t.Parallel()
	peertest.TypeScript(t)
	ts := []string{"node", peertest.Path("ts", "client.mjs")}
	cases := []struct {
		name      string
		args      []string
		situation string
		verdict   string
		rules     map[trace.RuleID]string // rule → its verdict
	}{
		{"TypeScript listen-dropped", append(ts, "timeout"), "listen-dropped", "fail",
			map[trace.RuleID]string{checks.BackoffGrows: "pass", checks.RefetchAfterReconnect: "fail"}},
		{"TypeScript listen-ended", append(ts, "timeout"), "listen-ended", "fail",
			map[trace.RuleID]string{checks.BackoffGrows: "", checks.RefetchAfterReconnect: "fail"}},
		{"TypeScript session-retired", append(ts, "timeout"), "session-retired", "fail",
			map[trace.RuleID]string{checks.SessionRecovered: "fail"}},
		{"TypeScript host retry of a lost mutation", append(ts, "retry"), "lost-response-mutation", "fail",
			map[trace.RuleID]string{checks.NoUnsafeRetry: "fail"}},
		{"TypeScript without a retry", append(ts, "timeout"), "lost-response-mutation", "pass",
			map[trace.RuleID]string{checks.NoUnsafeRetry: "", checks.CallOutcomeKnown: "pass"}},
		{"Go listen-ended", nil, "listen-ended", "fail",
			map[trace.RuleID]string{checks.RefetchAfterReconnect: "fail"}},
		{"Go listen-dropped", nil, "listen-dropped", "undecided",
			map[trace.RuleID]string{checks.BackoffGrows: "", checks.RefetchAfterReconnect: ""}},
		{"Go session-retired", nil, "session-retired", "fail",
			map[trace.RuleID]string{checks.SessionRecovered: "fail"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			client, protocol := tc.args, mock.ProtocolAuto
			if client == nil {
				client, protocol = []string{goClient(t), "plain"}, jsonrpc.Revision20251125
			}
			r := runHTTP(t, protocol, tc.situation, client)
			if r.Verdict != tc.verdict || r.Protocol != "2025-11-25" {
				t.Errorf("verdict %s protocol %s, want %s 2025-11-25; checks %+v", r.Verdict, r.Protocol, tc.verdict, r.Checks)
			}
			for rule, want := range tc.rules {
				if v := ruleOf(r, rule); v != want {
					t.Errorf("%s %q, want %q; checks %+v", rule, v, want, r.Checks)
				}
			}
		})
	}
}

// TestProbeClientUndecidedSays: where the server's side cannot see what a
// listen situation asks, the verdict is undecided and its line says why,
// never a pass. The Go SDK client speaking 2026-07-28 opens no listen
// stream (that revision has no GET stream, and the client sends no
// subscriptions/listen of its own); under 2025-11-25, refused once, it
// never reconnects again.
func TestProbeClientUndecidedSays(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, protocol, situation, protocolWant, why string
	}{
		{"never listens", "auto", "listen-ended", "2026-07-28", "never opened a listen stream"},
		{"gives up after the 503", "2025-11-25", "listen-dropped", "2025-11-25", "never tried again"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			Print(&out, runHTTP(t, tc.protocol, tc.situation, []string{goClient(t), "plain"}))
			line, _, _ := strings.Cut(out.String(), "\n")
			if !strings.Contains(line, "undecided") || !strings.Contains(line, tc.why) || !strings.Contains(line, tc.protocolWant) {
				t.Errorf("%s: %q, want undecided, saying %q, protocol %s", tc.situation, line, tc.why, tc.protocolWant)
			}
		})
	}
}

// goClient builds site/testdata/probe/goclient once per test binary.
func goClient(t *testing.T) string { return peertest.Binary(t, "goclient") }

// runHTTP runs client once in situation on Streamable HTTP, the mock
// speaking protocol, and returns the run's Result; the client's output is
// logged.
func runHTTP(t *testing.T, protocol, situation string, client []string) Result {
	t.Helper()
	st, ok := mock.SituationNamed(situation)
	if !ok {
		t.Fatalf("no situation %q", situation)
	}
	var log bytes.Buffer
	rs := Run(context.Background(), Config{Argv: client, Situations: []mock.Situation{st}, Transports: []string{scenario.TransportHTTP},
		Protocol: protocol, Dir: t.TempDir()}, &log)
	t.Logf("%s on Streamable HTTP, %s: %s\n%s", situation, protocol, strings.Join(client, " "), log.String())
	if len(rs) != 1 {
		t.Fatalf("%d results, want one: %+v", len(rs), rs)
	}
	return rs[0]
}

// ruleOf is the verdict of rule in r: "pass", "fail", "undecided" or ""
// when it was not judged.
func ruleOf(r Result, rule trace.RuleID) string {
	for _, c := range r.Checks {
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
