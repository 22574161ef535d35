package site

// Tests of `mcplab probe-client`'s situations about a client's session
// streams (SCENARIO.md, "Live": listen-dropped, listen-ended,
// session-retired) and a lost mutation's retry, with the real clients:
// the TypeScript SDK 1.32.2 client (testdata/probe/ts/client.mjs) and the
// Go SDK v1.8.0 client (testdata/probe/goclient), on Streamable HTTP. The
// mock's transcript records what the server sees over HTTP (the listen
// stream's end, the client's reconnects, the 503 and 404 it answers), and
// the engine's rules judge it. Each run takes two to six seconds.

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
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
	ts := []string{"node", filepath.Join("testdata", "probe", "ts", "client.mjs")}
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
			args := []string{"-situation", tc.situation, "-transport", "streamable-http"}
			client := tc.args
			if client == nil {
				args = append(args, "-protocol", "2025-11-25")
				client = []string{goClient(t), "plain"}
			}
			got, err := probeClientJSON(t, append(append(args, "-checks", "--"), client...)...)
			if (err != nil) != (tc.verdict == "fail") {
				t.Errorf("probe-client -checks: error %v, want one only for a fail", err)
			}
			r, ok := got[tc.situation+" streamable-http"]
			if !ok {
				t.Fatalf("no %s in %v", tc.situation, got)
			}
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
			var out, errb bytes.Buffer
			err := run([]string{"probe-client", "-out", t.TempDir(), "-protocol", tc.protocol, "-situation", tc.situation, "-transport", "streamable-http", "--", goClient(t), "plain"}, &out, &errb)
			if err != nil {
				t.Errorf("probe-client: %v\n%s", err, errb.String())
			}
			line, _, _ := strings.Cut(out.String(), "\n")
			if !strings.Contains(line, "undecided") || !strings.Contains(line, tc.why) || !strings.Contains(line, tc.protocolWant) {
				t.Errorf("%s: %q, want undecided, saying %q, protocol %s", tc.situation, line, tc.why, tc.protocolWant)
			}
		})
	}
}
