package examples_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/trace"
)

var update = flag.Bool("update", false, "rewrite the golden traces in testdata/")

// opts links the SQLite ledger, as the site and the ledger page do.
var opts = engine.Options{OpenLedger: sqlite.NewMemory}

// TestGoldenTraces runs every built-in scenario and compares its trace byte
// for byte with testdata/NAME.trace.json. Run natively and under
// GOOS=js GOARCH=wasm (Node), the same goldens prove the WebAssembly engine
// produces byte-identical traces. -update rewrites them.
func TestGoldenTraces(t *testing.T) {
	all := examples.All()
	if len(all) < 10 {
		t.Fatalf("only %d built-in scenarios", len(all))
	}
	for _, ex := range all {
		t.Run(ex.Name, func(t *testing.T) {
			got, err := entry.RunJSON(ex.JSON, entry.Document{Options: opts})
			if err != nil {
				t.Fatalf("built-in scenario does not run: %v", err)
			}
			again, _ := entry.RunJSON(ex.JSON, entry.Document{Options: opts})
			if !bytes.Equal(got, again) {
				t.Fatal("two runs of the same scenario differ: the engine is not deterministic")
			}
			golden := filepath.Join("testdata", ex.Name+".trace.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("no golden trace (run go test ./engine/examples -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("trace differs from %s; if the change is intended, run go test ./engine/examples -update and review the diff", golden)
			}
		})
	}
}

// TestMetadata proves every example has a title and a summary for the index.
func TestMetadata(t *testing.T) {
	for _, ex := range examples.All() {
		if ex.Title == "" || ex.Summary == "" {
			t.Errorf("%s: title %q, summary %q: both are required", ex.Name, ex.Title, ex.Summary)
		}
	}
	if _, ok := examples.Get("a-cancel-then-complete"); !ok {
		t.Error(`Get("a-cancel-then-complete") found nothing`)
	}
}

// TestBuiltInOutcomes pins what each built-in scenario exists to show: the
// first request's server state and client outcome, the cause of any
// cancellation, when the client stopped waiting, and exactly which checks
// fail (DOMAIN.md §1–3, §11, §12 statements 1–5).
func TestBuiltInOutcomes(t *testing.T) {
	type want struct {
		rule                  string // the DOMAIN.md rule the scenario shows
		state, outcome, cause string
		signal                string
		endedAt               int64 // -1: still pending
		failing               []string
	}
	cases := map[string]want{
		"a-cancel-then-complete":                 {"§12.3 cancel before completion suppresses the response", "cancelled", "abandoned", "client", "notifications/cancelled", 300, nil},
		"b-complete-then-cancel":                 {"§12.4 complete before cancel keeps the response", "completed", "abandoned", "client", "notifications/cancelled", 305, nil},
		"c-progress-then-maximum":                {"§2 the maximum fires at exactly 2000 despite progress at 1999", "cancelled", "abandoned", "max-timeout", "notifications/cancelled", 2000, nil},
		"d-cancel-on-streamable-http":            {"§12.2 HTTP cancellation closes the stream", "cancelled", "abandoned", "client", "close-stream", 300, nil},
		"idle-timeout-after-progress-stops":      {"§2 idle deadline at 1200+500", "cancelled", "abandoned", "idle-timeout", "notifications/cancelled", 1700, nil},
		"race-cancel-in-flight":                  {"§1 the race: completion wins while the cancel is in flight", "completed", "abandoned", "client", "notifications/cancelled", 300, nil},
		"malformed-and-unknown-cancellations":    {"§1 invalid cancellations are ignored", "completed", "result", "", "", 155, nil},
		"http-2025-post-cancel":                  {"§1 2025-11-25 HTTP POSTs the cancellation", "cancelled", "abandoned", "client", "notifications/cancelled", 200, nil},
		"broken-http-posts-cancel":               {"§11 HTTP client POSTs a cancellation (2026)", "completed", "abandoned", "client", "notifications/cancelled", 300, []string{"http-cancel-closes-stream"}},
		"broken-respond-after-cancel":            {"§11 server responds after accepted cancellation", "cancelled", "abandoned", "client", "notifications/cancelled", 300, []string{"no-message-after-cancel"}},
		"broken-progress-resets-max":             {"§11 progress resets every deadline", "completed", "result", "", "", 4000, []string{"max-timeout-enforced"}},
		"stale-progress-ignored":                 {"§3 stale progress does not reset idle", "cancelled", "abandoned", "idle-timeout", "notifications/cancelled", 1700, []string{"progress-increases"}},
		"broken-stale-progress":                  {"§11 a stuck server keeps a request alive", "cancelled", "abandoned", "max-timeout", "notifications/cancelled", 3000, []string{"progress-increases", "stale-progress-ignored"}},
		"keepalive-is-not-progress":              {"§8 keep-alive does not reset the idle timeout", "cancelled", "abandoned", "idle-timeout", "close-stream", 610, nil},
		"server-cancel-not-for-listen":           {"§1 server cancellation only for listen streams", "completed", "result", "", "", 210, []string{"server-cancel-only-for-listen"}},
		"reconnect-new-request-and-refetch":      {"§9 reconnect means a new request and a refetch", "cancelled", "abandoned", "disconnect", "", 300, nil},
		"reconnect-2025-last-event-id":           {"§9 2025-11-25 resumed with Last-Event-ID: the stream stays open", "in-progress", "pending", "", "", -1, nil},
		"broken-last-event-id":                   {"§11 Last-Event-ID assumed (2026)", "cancelled", "abandoned", "disconnect", "", 300, []string{"no-last-event-id", "reconnect-new-request-and-refetch"}},
		"buffer-reference-coalesce":              {"§7 reference numbers: [progress 5, final]", "completed", "result", "", "", 520, nil},
		"broken-buffer-unbounded":                {"§11 unbounded progress queue", "completed", "result", "", "", 3520, []string{"buffer-within-capacity"}},
		"broken-buffer-drops-final":              {"§11 final response dropped under pressure", "completed", "pending", "", "", -1, []string{"final-never-dropped"}},
		"proxy-buffering-burst":                  {"§8 a buffering proxy delivers in one burst", "completed", "result", "", "", 1210, []string{"sse-headers"}},
		"broken-proxy-timeout-before-first-byte": {"§8 idle timeout before the first byte", "cancelled", "abandoned", "idle-timeout", "close-stream", 500, []string{"sse-headers"}},
		"task-cancel-ack-not-final":              {"§12.12 the ack leaves the task working until a checkpoint", "completed", "result", "", "", 20, nil},
		"broken-task-ack-as-final":               {"§11 task ack treated as final cancellation", "completed", "result", "", "", 20, []string{"task-ack-not-terminal"}},
		"broken-poll-second-loop":                {"§6 a second polling loop after the cancel ack ignores pollIntervalMs", "completed", "result", "", "", 20, []string{"poll-interval-respected"}},
		"task-finishes-before-cancel":            {"§6 the worker finishes first: completed", "completed", "result", "", "", 20, nil},
		"task-2025-cancel":                       {"§6 2025-11-25 cancels before replying; -32602 when terminal", "completed", "result", "", "", 20, nil},
		"flagship-retry-charges-twice":           {"§12.6 a new JSON-RPC id alone runs the mutation again", "completed", "abandoned", "max-timeout", "close-stream", 2000, []string{"no-unsafe-retry"}},
		"flagship-with-idempotency-key":          {"§4 the key makes the retry a replay", "completed", "abandoned", "max-timeout", "close-stream", 2000, nil},
		"ledger-keyed-race":                      {"§12.7 a keyed two-connection race executes once", "completed", "result", "", "", 10, nil},
		"broken-ledger-check-then-act":           {"§11 key check and effect are separate steps", "completed", "result", "", "", 10, []string{"one-execution-per-key"}},
		"key-reuse-rejected":                     {"§4 same key, different arguments: rejected", "completed", "result", "", "", 55, nil},
		"broken-key-reuse-no-fingerprint":        {"§11 key reused with changed arguments", "completed", "result", "", "", 55, []string{"key-reuse-rejected"}},
		"ledger-reopen-defensive-copy":           {"§12.8-9 survives reopening; replays are defensive copies", "completed", "result", "", "", 55, nil},
		"broken-defensive-copy":                  {"§11 stored mutable result returned directly", "completed", "result", "", "", 55, []string{"defensive-copy"}},
		"broken-dedupe-by-rpc-id":                {"§11 new RPC id treated as deduplication", "completed", "result", "", "", 55, []string{"one-execution-per-key"}},
		"broken-replicas-not-shared":             {"§11 in-memory ledger across replicas", "completed", "result", "", "", 55, []string{"one-execution-per-key"}},
		"practice-reserve-inventory":             {"§4 the reserve_inventory practice lab", "completed", "result", "", "", 55, nil},
		"retry-matrix":                           {"§5 one live example per retry class", "failed", "error", "", "", 55, nil},
		"listen-graceful-end":                    {"§1 server-sent cancellation tears down a listen stream", "cancelled", "result", "server", "", 305, nil},
		"late-response-tolerated":                {"§1 a late response is dropped; the session survives", "completed", "abandoned", "client", "notifications/cancelled", 300, nil},
		"broken-late-response-fatal":             {"§11 late-message-fatal: a late response tears down the session (anthropics/claude-code#51073)", "completed", "abandoned", "client", "notifications/cancelled", 300, []string{"late-response-ignored", "late-message-tolerated"}},
		"late-progress-ignored":                  {"§3 late progress is ignored; the session survives", "completed", "result", "", "", 210, []string{"no-progress-after-final"}},
		"broken-late-progress-fatal":             {"§11 late-message-fatal: late progress tears down the session (modelcontextprotocol/typescript-sdk#2580)", "completed", "result", "", "", 210, []string{"no-progress-after-final", "late-message-tolerated", "late-progress-ignored"}},
		"progress-resets-idle":                   {"§2 valid progress resets the idle clock", "completed", "result", "", "", 810, nil},
		"broken-ignore-progress":                 {"§11 ignore-progress: the idle clock ignores progress (leehack/mcp_dart#106)", "cancelled", "abandoned", "idle-timeout", "notifications/cancelled", 500, []string{"progress-resets-idle"}},
		"disconnect-stops-work":                  {"§1 under 2026-07-28 a closed stream stops the handler", "cancelled", "abandoned", "client", "close-stream", 300, nil},
		"broken-ignore-disconnect":               {"§11 disconnect-unobserved: the handler runs on into a closed stream (modelcontextprotocol/rust-sdk#857)", "completed", "abandoned", "client", "close-stream", 300, []string{"disconnect-stops-work"}},
		"progress-token-echoed":                  {"§3 progress under the request's own token", "completed", "result", "", "", 310, nil},
		"broken-invented-progress-token":         {"§11 invented-progress-token (twentyhq/twenty#24559)", "completed", "result", "", "", 310, []string{"progress-token-known"}},
		"idle-timeout-without-progress-token":    {"§2 diagnosed: idle timeout without a progress token (anthropics/claude-code#58687)", "cancelled", "abandoned", "idle-timeout", "notifications/cancelled", 500, nil},
		"proxy-idle-close-listen-reconnects":     {"§9 a proxy's idle close of a listen stream is a drop (triggerdotdev/trigger.dev#2134)", "cancelled", "abandoned", "disconnect", "", 1210, nil},
		"proxy-honours-no-buffering":             {"§8 a proxy honouring X-Accel-Buffering: no forwards promptly", "completed", "result", "", "", 1210, nil},
		"broken-proxy-ignores-no-buffering":      {"§11 proxy-buffers-sse despite X-Accel-Buffering: no (Kuadrant/mcp-gateway#226)", "completed", "result", "", "", 1210, []string{"proxy-forwards-promptly"}},
		"progress-on-request-stream":             {"§3 progress travels on the request's own stream (listen stream stays open)", "in-progress", "pending", "", "", -1, nil},
		"broken-progress-on-listen-stream":       {"§11 progress-on-wrong-stream (gradio-app/gradio#12034): the listen stream stays open", "in-progress", "pending", "", "", -1, []string{"progress-on-request-stream"}},
		"resume-keeps-position":                  {"§9 2025-11-25 a dropped call is resumed from its last event, twice", "completed", "result", "", "", 661, nil},
		"broken-forget-resume-token":             {"§11 forget-resume-token (modelcontextprotocol/typescript-sdk#2499): the call hangs until its maximum", "completed", "abandoned", "max-timeout", "notifications/cancelled", 3000, []string{"resume-keeps-position", "dropped-call-resumed", "resume-replays-missed"}},
		"resume-replays-own-stream":              {"§9 2025-11-25 a resumed stream replays only its own events", "completed", "result", "", "", 510, nil},
		"broken-replay-all-streams":              {"§11 replay-other-streams (modelcontextprotocol/servers#4087)", "completed", "result", "", "", 510, []string{"progress-on-request-stream", "resume-replays-own-stream"}},
		"request-has-timeout":                    {"§2 every call carries a timeout: the idle timeout cuts a silent server", "cancelled", "abandoned", "idle-timeout", "notifications/cancelled", 1000, nil},
		"broken-no-timeout":                      {"§11 no-timeout (anthropics/claude-code#69593): the call waits for ever", "in-progress", "pending", "", "", -1, []string{"request-has-timeout"}},
		"handler-cancel-propagates":              {"§1 the handler lets the cancellation propagate: nothing sent, nothing wasted", "cancelled", "abandoned", "client", "notifications/cancelled", 250, nil},
		"broken-handler-answers-after-cancel":    {"§11 respond-after-cancel: the framework answers the request it cancelled (Go SDK v1.8.0)", "cancelled", "abandoned", "client", "notifications/cancelled", 250, []string{"no-message-after-cancel"}},
		"handler-cancel-not-swallowed":           {"§1 the handler stops at its checkpoint before the side effect", "cancelled", "abandoned", "client", "notifications/cancelled", 250, nil},
		"broken-handler-swallows-cancel":         {"§11 cancel-swallowed (hahwul/gori#1103): the charge commits for a caller who left", "cancelled", "abandoned", "client", "notifications/cancelled", 250, []string{"work-stops-after-cancel"}},
		"handler-releases-lock":                  {"§1 a cancelled handler releases its lock: the next call runs", "cancelled", "abandoned", "client", "notifications/cancelled", 200, nil},
		"broken-handler-keeps-lock":              {"§11 resource-leaked-on-cancel: the next call waits until its own timeout", "cancelled", "abandoned", "client", "notifications/cancelled", 200, []string{"resources-released"}},
		"handler-checkpoints-often":              {"§1 checkpoints at natural points: 20 ms wasted", "cancelled", "abandoned", "client", "notifications/cancelled", 380, nil},
		"handler-checks-only-at-the-end":         {"§1 a loop without an await: 620 ms wasted, nothing sent", "cancelled", "abandoned", "client", "notifications/cancelled", 380, nil},
		"handler-progress-streams":               {"§3 progress written as made keeps the idle clock reset", "completed", "result", "", "", 1220, nil},
		"broken-hold-notifications":              {"§11 notifications-held (mastra-ai/mastra#14782): the idle timeout cuts the call", "cancelled", "abandoned", "idle-timeout", "close-stream", 400, []string{"notifications-not-held"}},
		"responses-routed-by-request":            {"§1 a duplicate id is refused on its own stream; call 1 gets its own answer", "completed", "result", "", "", 520, nil},
		"broken-route-by-id-only":                {"§11 cross-wired-response (modelcontextprotocol/typescript-sdk#2433): call 1's answer goes to the duplicate", "completed", "abandoned", "max-timeout", "close-stream", 2000, []string{"responses-routed-by-request"}},
		"session-expired-reinitialize":           {"2025-11-25 a retired session: 404, initialize again, re-issue once", "completed", "result", "", "", 410, nil},
		"unsupported-protocol-version":           {"2026-07-28 an unsupported revision: HTTP 400 and -32022 listing the supported ones", "failed", "error", "", "", 20, nil},
		"broken-retry-after-header-mismatch":     {"§11 a HeaderMismatch (-32020) refusal retried unchanged meets the same 400", "failed", "error", "", "", 20, []string{"refusal-not-repeated"}},
		"broken-session-not-found-as-failure":    {"§11 session-not-found-as-failure (anthropics/claude-code#83404): the call ends in an error", "completed", "error", "", "", 130, []string{"session-recovered"}},
		"initialized-before-requests":            {"2025-11-25 notifications/initialized is applied before the first call", "completed", "result", "", "", 210, nil},
		"broken-async-initialized":               {"§11 async-initialized (tachyonmcp/tachyon#11): the first call is rejected", "failed", "error", "", "", 20, []string{"initialized-before-requests"}},
		"resume-replays-missed":                  {"§9 2025-11-25 a resumed stream replays what the client missed", "completed", "result", "", "", 410, nil},
		"broken-replay-nothing":                  {"§11 replay-nothing (modelcontextprotocol/typescript-sdk#943): the missed progress never arrives", "completed", "result", "", "", 410, []string{"resume-replays-missed"}},
		"herd-reference-backoff":                 {"§10 the herd with the reference backoff", "", "", "", "", 0, nil},
		"herd-no-backoff":                        {"§10 the herd in lockstep", "", "", "", "", 0, []string{"herd-all-reconnect", "herd-jittered"}},
		"broken-herd-exponential-lockstep":       {"§11 lockstep-backoff: exponential backoff without jitter (bug-ops/zeph#4574)", "", "", "", "", 0, []string{"herd-jittered"}},
		"give-up-tells-server":                   {"§2 giving up on a call is a cancellation", "cancelled", "abandoned", "idle-timeout", "notifications/cancelled", 500, nil},
		"broken-abandon-silently":                {"§11 abandon-silently (modelcontextprotocol/python-sdk#1458): the client gives up and the server works on", "completed", "abandoned", "idle-timeout", "", 500, []string{"abandon-tells-server"}},
		"cancel-ends-the-wait":                   {"§1 a cancel ends the call for the client", "cancelled", "abandoned", "client", "notifications/cancelled", 300, nil},
		"broken-await-after-cancel":              {"§11 await-after-cancel (openai/codex#20925): the call never ends", "cancelled", "pending", "client", "notifications/cancelled", -1, []string{"call-outcome-known"}},
		"cancel-before-first-event":              {"§1 the close goes out when the client decides", "cancelled", "abandoned", "idle-timeout", "close-stream", 500, nil},
		"broken-cancel-after-first-event":        {"§11 cancel-blocked (modelcontextprotocol/rust-sdk#1193): the close waits for the result", "completed", "abandoned", "idle-timeout", "close-stream", 500, []string{"cancel-not-blocked"}},
		"resume-with-last-event-id":              {"§9 2025-11-25 a resumed stream replays what the client missed", "completed", "result", "", "", 610, nil},
		"broken-resume-without-last-event-id":    {"§11 resume-without-last-event-id (modelcontextprotocol/inspector#723): nothing is replayed", "completed", "abandoned", "max-timeout", "notifications/cancelled", 3000, []string{"resume-keeps-position", "dropped-call-resumed", "resume-replays-missed"}},
		"dropped-call-resumed":                   {"§9 2025-11-25 a dropped call is resumed and answered", "completed", "result", "", "", 411, nil},
		"broken-dropped-call-not-resumed":        {"§11 dropped-call-not-resumed (zed-industries/zed#56775): the call hangs", "completed", "pending", "", "", -1, []string{"dropped-call-resumed", "call-outcome-known"}},
		"refetch-after-reconnect":                {"§9 a reconnect refetches the tool list", "cancelled", "abandoned", "disconnect", "", 200, nil},
		"broken-skip-refetch":                    {"§11 skip-refetch (docker/docker-agent#2244): the tool list stays stale", "cancelled", "abandoned", "disconnect", "", 200, []string{"refetch-after-reconnect"}},
		"retry-loop-backs-off":                   {"§10 one client backs off through an outage", "", "", "", "", 0, nil},
		"broken-constant-retry-loop":             {"§11 constant-retry-loop (NousResearch/hermes-agent#43676)", "", "", "", "", 0, []string{"backoff-grows"}},
	}
	all := examples.All()
	if len(all) != len(cases) {
		t.Errorf("%d built-in scenarios but %d expectations: pin every scenario here", len(all), len(cases))
	}
	for _, ex := range all {
		w, ok := cases[ex.Name]
		if !ok {
			t.Errorf("%s: no expectation", ex.Name)
			continue
		}
		t.Run(ex.Name, func(t *testing.T) {
			tr := examplestest.RunExample(t, ex)
			var failing []string
			for _, c := range tr.Checks {
				if c.OK != nil && !*c.OK {
					failing = append(failing, string(c.Rule))
				}
			}
			if fmt.Sprint(failing) != fmt.Sprint(w.failing) {
				t.Errorf("%s: failing checks %v, want %v", w.rule, failing, w.failing)
			}
			if w.state == "" {
				if len(tr.Requests) != 0 || tr.Herd == nil {
					t.Fatalf("%s: want a herd and no requests", w.rule)
				}
				return
			}
			r := tr.Requests[0]
			str := func(p *string) string {
				if p == nil {
					return ""
				}
				return *p
			}
			ended := int64(-1)
			if r.EndedAt != nil {
				ended = *r.EndedAt
			}
			if r.State != w.state || r.ClientOutcome != w.outcome || str(r.Cause) != w.cause || str(r.Signal) != w.signal || ended != w.endedAt {
				t.Errorf("%s: got state %s, outcome %s, cause %q, signal %q, ended %d; want %s, %s, %q, %q, %d",
					w.rule, r.State, r.ClientOutcome, str(r.Cause), str(r.Signal), ended, w.state, w.outcome, w.cause, w.signal, w.endedAt)
			}
		})
	}
}

// TestHerdExamples pins the herd scenarios' headline numbers (DOMAIN.md §10):
// with the reference backoff all 10,000 clients are back by 7518 ms; with
// no backoff the whole herd returns in one bucket and 4000 clients exhaust
// their 10 attempts; exponential backoff without jitter returns each wave
// in one bucket, and all are back only by 15750 ms. herd-all-reconnect
// passes exactly when every client got back.
func TestHerdExamples(t *testing.T) {
	cases := []struct {
		name                    string
		peak, exhausted, attmps int
		allBackAt               int64 // -1: never
	}{
		{"herd-reference-backoff", 5905, 0, 34000, 7518},
		{"herd-no-backoff", 10000, 4000, 66000, -1},
		// Lockstep waves without jitter, yet every client gets back:
		// herd-all-reconnect passes, herd-jittered fails.
		{"broken-herd-exponential-lockstep", 10000, 0, 38000, 15750},
	}
	for _, c := range cases {
		tr := examplestest.Run(t, c.name)
		h := tr.Herd
		back := int64(-1)
		if h.AllReconnectedAtMs != nil {
			back = *h.AllReconnectedAtMs
		}
		if h.PeakPerBucket != c.peak || h.Exhausted != c.exhausted || h.Attempts != c.attmps || back != c.allBackAt {
			t.Errorf("%s: peak %d, exhausted %d, attempts %d, all back at %d; want %d, %d, %d, %d",
				c.name, h.PeakPerBucket, h.Exhausted, h.Attempts, back, c.peak, c.exhausted, c.attmps, c.allBackAt)
		}
		allBack := false
		for _, ch := range tr.Checks {
			if ch.Rule == "herd-all-reconnect" && ch.OK != nil {
				allBack = *ch.OK
			}
		}
		if allBack != (c.allBackAt >= 0) {
			t.Errorf("%s: check herd-all-reconnect = %v, want %v", c.name, allBack, c.allBackAt >= 0)
		}
		if h.PeakAdmittedPerSecond > tr.Scenario.Herd.ServerCapacityPerSecond {
			t.Errorf("%s: admitted %d in one second, above the capacity", c.name, h.PeakAdmittedPerSecond)
		}
	}
}

// TestFlowAndTaskExamples pins the numbers DOMAIN.md §6–7 fixes: the
// reference buffer delivers [progress 5, final] with 5 progress dropped and
// a refetch needed; the task stays working after the acknowledgement until
// the checkpoint at 600 ms (history working → cancelled), or ends completed
// when the worker finishes first.
func TestFlowAndTaskExamples(t *testing.T) {
	run := func(name string) *trace.Trace { return examplestest.Run(t, name) }
	tr := run("buffer-reference-coalesce")
	b := tr.Buffers[0]
	var delivered []string
	for _, e := range tr.Events {
		if e.Type == trace.TypeDeliver && e.To == trace.ActorClient {
			delivered = append(delivered, string(e.Message))
		}
	}
	want := []string{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"imp-1","progress":5,"total":5}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"imported 5 batches"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcplab-server","version":"1.0.0"}}}}`}
	if fmt.Sprint(delivered) != fmt.Sprint(want) || b.DroppedProgress != 5 || !b.NeedsRefetch || b.MaxDepth > b.Capacity || b.FinalsDelivered != 1 {
		t.Errorf("buffer: delivered %v, dropped %d, refetch %v, max depth %d; want [progress 5, final], 5, true, <= 3", delivered, b.DroppedProgress, b.NeedsRefetch, b.MaxDepth)
	}
	for name, hist := range map[string]string{
		"task-cancel-ack-not-final":   "[[10 working] [600 cancelled]]",
		"task-finishes-before-cancel": "[[10 working] [500 completed]]",
		"task-2025-cancel":            "[[10 working] [410 cancelled]]",
	} {
		tk := run(name).Tasks[0]
		if got := fmt.Sprint(tk.History); got != hist {
			t.Errorf("%s: task history %s, want %s", name, got, hist)
		}
	}
}

// TestLedgerExamples pins the executions DOMAIN.md §4 fixes: one per key
// when the ledger is correct, two when a broken policy lets the effect run
// again, and the reference receipt and replayed rpcId.
func TestLedgerExamples(t *testing.T) {
	want := map[string]int{
		"flagship-retry-charges-twice": 2, "flagship-with-idempotency-key": 1,
		"ledger-keyed-race": 1, "broken-ledger-check-then-act": 2,
		"key-reuse-rejected": 1, "broken-key-reuse-no-fingerprint": 1,
		"ledger-reopen-defensive-copy": 1, "broken-defensive-copy": 1,
		"broken-dedupe-by-rpc-id": 2, "broken-replicas-not-shared": 2,
		"practice-reserve-inventory": 4,
	}
	for name, n := range want {
		tr := examplestest.Run(t, name)
		if tr.Ledger.Executions != n {
			t.Errorf("%s: %d executions, want %d", name, tr.Ledger.Executions, n)
		}
		if name == "flagship-with-idempotency-key" {
			if len(tr.Ledger.Records) != 1 || string(tr.Ledger.Records[0].Result) != `{"account":"acct-9","cents":1200,"receipt":"charge-001","rpcId":41}` {
				t.Errorf("flagship: records %+v, want charge-001 with the original rpcId 41", tr.Ledger.Records)
			}
		}
	}
	if _, err := engine.Run(examplestest.Decode(t, "flagship-retry-charges-twice")); !errors.Is(err, engine.ErrNoLedger) {
		t.Errorf("a ledger scenario without a linked ledger: err = %v, want ErrNoLedger", err)
	}
}

// TestRetryMatrix pins DOMAIN.md §5 on the matrix example: a read is safe,
// a keyed mutation conditional, an unkeyed one unsafe whatever its
// idempotentHint says (annotations are hints, shown, never trusted).
func TestRetryMatrix(t *testing.T) {
	tr := examplestest.Run(t, "retry-matrix")
	var got []string
	for _, r := range tr.Requests {
		got = append(got, r.RetryClass)
	}
	if want := "[safe safe conditional conditional unsafe]"; fmt.Sprint(got) != want {
		t.Fatalf("retry classes %v, want %s", got, want)
	}
	if h := string(tr.Requests[4].Hints); h != `{"idempotentHint":true}` {
		t.Fatalf("hints %s, want the advertised annotation shown", h)
	}
}
