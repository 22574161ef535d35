package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestRules proves the request-lifecycle rules of DOMAIN.md §1–3 and §11
// (§12 statements 1–5) on small scenarios: each case names its rule and
// asserts the values the domain fixes. Every run is checked for
// determinism and the trace invariants.
func TestRules(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want func(t *testing.T, tr *trace.Trace)
	}{
		// ---- §12.1 / §1 stdio -----------------------------------------
		{
			name: "§12.1 stdio cancellation sends notifications/cancelled with requestId and reason and gets no response",
			in:   sc(stdio, call7, progressAt(100, 1), cancel300, done320),
			want: func(t *testing.T, tr *trace.Trace) {
				c := wantCount(t, tr, ev{actor: "client", typ: "send", method: "notifications/cancelled", at: -1}, 1, "client cancellations")
				if len(c) == 1 {
					want := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"User closed the operation"}}`
					if string(c[0].Message) != want || c[0].At != 300 {
						t.Errorf("cancellation at %d: %s, want at 300: %s", c[0].At, c[0].Message, want)
					}
				}
				for _, e := range find(tr, ev{actor: "server", typ: "send", at: -1}) {
					if e.At >= 300 {
						t.Errorf("the server sent %s at %d after the cancellation: a notification is never answered", e.Message, e.At)
					}
				}
				wantSummary(t, tr, "7", "state=cancelled", "cause=client", "reason=User closed the operation", "signal=notifications/cancelled", "clientOutcome=abandoned", "endedAt=300", "response=<null>")
				wantCount(t, tr, ev{actor: "client", typ: "close-stream", at: -1}, 0, "stdio has no stream to close")
				wantCheck(t, tr, "cancellation-never-answered", "true")
				wantCheck(t, tr, "no-message-after-cancel", "true")
			},
		},
		// ---- §12.2 / §1 Streamable HTTP --------------------------------
		{
			name: "§12.2 Streamable HTTP 2026-07-28 cancellation closes the request stream and POSTs nothing",
			in:   sc(http2026, call7, progressAt(100, 1), cancel300, done320),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{method: "notifications/cancelled", at: -1}, 0, "notifications/cancelled anywhere on the wire")
				cl := wantCount(t, tr, ev{actor: "client", typ: "close-stream", id: "7", at: 300}, 1, "the client's close-stream at 300")
				if len(cl) == 1 && cl[0].Signal != "close-stream" {
					t.Errorf("close-stream event signal %q", cl[0].Signal)
				}
				d := wantCount(t, tr, ev{actor: "network", typ: "deliver", id: "7", at: 310}, 1, "the close reaching the server at 310")
				if len(d) == 1 && (d[0].Signal != "close-stream" || d[0].To != "server") {
					t.Errorf("delivery: signal %q to %q", d[0].Signal, d[0].To)
				}
				st := wantCount(t, tr, ev{actor: "server", typ: "status", id: "7", at: 310}, 1, "server observes the close as a cancellation")
				if len(st) == 1 && (st[0].Status != "cancelled" || st[0].Cause != "client") {
					t.Errorf("status %q cause %q", st[0].Status, st[0].Cause)
				}
				start := wantCount(t, tr, ev{actor: "server", typ: "start", id: "7", at: -1}, 1, "stream opens")
				if len(start) == 1 {
					h := start[0].Headers
					if h["Content-Type"] != "text/event-stream" || h["Cache-Control"] != "no-cache" || h["X-Accel-Buffering"] != "no" {
						t.Errorf("SSE headers %v (DOMAIN.md §8)", h)
					}
				}
				wantSummary(t, tr, "7", "state=cancelled", "cause=client", "signal=close-stream", "clientOutcome=abandoned", "response=<null>")
				wantCheck(t, tr, "http-cancel-closes-stream", "true")
			},
		},
		{
			name: "§1 Streamable HTTP 2025-11-25 cancellation POSTs notifications/cancelled",
			in:   sc(http2025, call7, cancel300, done320),
			want: func(t *testing.T, tr *trace.Trace) {
				c := wantCount(t, tr, ev{actor: "client", typ: "send", method: "notifications/cancelled", at: 300}, 1, "the POSTed cancellation")
				if len(c) == 1 && string(c[0].Message) != `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"User closed the operation"}}` {
					t.Errorf("message %s", c[0].Message)
				}
				wantCount(t, tr, ev{actor: "client", typ: "close-stream", at: -1}, 0, "client stream closes")
				wantSummary(t, tr, "7", "state=cancelled", "signal=notifications/cancelled", "response=<null>")
				wantCheck(t, tr, "http-cancel-posts-notification", "true")
				if _, ok := check(tr, "http-cancel-closes-stream"); ok {
					t.Error("http-cancel-closes-stream judged a 2025-11-25 trace")
				}
			},
		},
		{
			name: "§1 under 2025-11-25 a disconnect is not a cancellation: the server keeps the request and completes it",
			in:   sc(http2025, call7, `{"at":100,"do":"disconnect","id":7}`, `{"at":300,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "network", typ: "close-stream", id: "7", at: 100}, 1, "the network closes the stream")
				wantCount(t, tr, ev{actor: "server", typ: "ignore", id: "7", at: 110}, 1, "the server does not take the close as a cancellation")
				for _, e := range find(tr, ev{actor: "server", typ: "status", at: -1}) {
					if e.Status != "" {
						t.Errorf("server status change to %s at %d: a disconnect changed the request's state", e.Status, e.At)
					}
				}
				wantCount(t, tr, ev{method: "notifications/cancelled", at: -1}, 0, "cancellations")
				wantSummary(t, tr, "7", "state=completed", "cause=<null>", "signal=<null>", "response="+result7of2025)
			},
		},
		{
			name: "§1 under 2026-07-28 a disconnect is a cancellation (cause disconnect)",
			in:   sc(http2026, call7, `{"at":100,"do":"disconnect","id":7}`, `{"at":300,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				st := wantCount(t, tr, ev{actor: "server", typ: "status", id: "7", at: 110}, 1, "the server cancels on the close")
				if len(st) == 1 && (st[0].Status != "cancelled" || st[0].Cause != "disconnect") {
					t.Errorf("status %q cause %q", st[0].Status, st[0].Cause)
				}
				wantCount(t, tr, ev{actor: "server", typ: "suppress", id: "7", at: 300}, 1, "response suppressed")
				wantSummary(t, tr, "7", "state=cancelled", "cause=disconnect", "signal=close-stream", "clientOutcome=abandoned", "response=<null>")
			},
		},
		// ---- §12.3 / §1 cancellation wins -------------------------------
		{
			name: "§12.3 cancel before completion suppresses the final response",
			in:   sc(stdio, call7, cancel300, done320),
			want: func(t *testing.T, tr *trace.Trace) {
				sup := wantCount(t, tr, ev{actor: "server", typ: "suppress", id: "7", at: 320}, 1, "the suppressed response")
				if len(sup) == 1 && string(sup[0].Message) != result7 {
					t.Errorf("suppressed message %s, want %s", sup[0].Message, result7)
				}
				for _, e := range find(tr, ev{actor: "server", typ: "send", at: -1}) {
					if isFinal(e.Message) {
						t.Errorf("a final response went on the wire: %s", e.Message)
					}
				}
				wantSummary(t, tr, "7", "state=cancelled", "response=<null>", "clientOutcome=abandoned")
			},
		},
		{
			name: "§1 after cancellation wins no error and no progress either",
			in: sc(stdio, call7, progressAt(100, 1), cancel300, progressAt(315, 2),
				`{"at":320,"do":"fail","id":7,"code":-32000,"message":"late failure"}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "suppress", id: "7", at: 315}, 1, "progress suppressed")
				wantCount(t, tr, ev{actor: "server", typ: "suppress", id: "7", at: 320}, 1, "error suppressed")
				wantCount(t, tr, ev{actor: "server", typ: "send", at: -1}, 1, "server messages (only the progress at 100)")
				wantSummary(t, tr, "7", "state=cancelled", "response=<null>")
			},
		},
		// ---- §12.4 / §1 completion wins --------------------------------
		{
			name: "§12.4 complete before cancel keeps the response; the client, already answered, sends no cancellation",
			in:   sc(stdio, call7, `{"at":100,"do":"complete","id":7}`, cancel300),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "client", typ: "accept", id: "7", at: 110}, 1, "the client takes the response")
				wantCount(t, tr, ev{actor: "client", typ: "skip", id: "7", at: 300}, 1, "nothing left to cancel: the cancel step cannot happen")
				wantCount(t, tr, ev{method: "notifications/cancelled", at: -1}, 0, "cancellations on the wire")
				wantSummary(t, tr, "7", "state=completed", "response="+result7, "clientOutcome=result", "endedAt=110")
				wantCheck(t, tr, "one-response-per-request", "true")
			},
		},
		{
			name: "§12.4 complete before cancel: the server ignores the late cancel and the client ignores the late response",
			// The client cancels at 105, before the response sent at 100 reaches it at 110.
			in: sc(stdio, call7, `{"at":100,"do":"complete","id":7}`, `{"at":105,"do":"cancel","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				ig := wantCount(t, tr, ev{actor: "server", typ: "ignore", at: 115}, 1, "the server ignores the late cancellation")
				if len(ig) == 1 && idText(ig[0].ID) != "7" {
					t.Errorf("the ignore event concerns request %s, want 7", idText(ig[0].ID))
				}
				wantCount(t, tr, ev{actor: "client", typ: "ignore", id: "7", at: 110}, 1, "the client ignores the late response")
				wantCount(t, tr, ev{actor: "client", typ: "accept", at: -1}, 0, "the client accepting a response")
				wantCount(t, tr, ev{actor: "server", typ: "send", at: -1}, 1, "server messages: the one response, nothing answers the cancellation")
				wantSummary(t, tr, "7", "state=completed", "response="+result7, "clientOutcome=abandoned", "endedAt=105")
				wantCheck(t, tr, "late-response-ignored", "true")
			},
		},
		{
			name: "§1 the race with latency: the server completes while the cancellation is in flight",
			in: sc(`"latencyMs":{"up":50,"down":50}`, call7, `{"at":200,"do":"cancel","id":7,"reason":"r"}`,
				`{"at":220,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "send", id: "7", at: 220}, 1, "the server commits and responds at 220")
				wantCount(t, tr, ev{actor: "server", typ: "ignore", at: 250}, 1, "the cancellation arrives at 250, too late")
				wantCount(t, tr, ev{actor: "client", typ: "ignore", id: "7", at: 270}, 1, "the response arrives at 270 for an abandoned request")
				wantSummary(t, tr, "7", "state=completed", "clientOutcome=abandoned", "cause=client", "endedAt=200", "response="+result7)
				wantCheck(t, tr, "late-response-ignored", "true")
				if _, ok := check(tr, "no-message-after-cancel"); ok {
					t.Error("no-message-after-cancel judged a trace where no cancellation was accepted")
				}
			},
		},
		{
			name: "§1 network latency per direction: each side learns at send time plus that direction's delay",
			in:   sc(`"latencyMs":{"up":10,"down":30}`, call7, `{"at":100,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "start", id: "7", at: 10}, 1, "the request reaches the server at 0+10")
				wantCount(t, tr, ev{actor: "client", typ: "accept", id: "7", at: 130}, 1, "the response reaches the client at 100+30")
				wantSummary(t, tr, "7", "state=completed", "clientOutcome=result", "endedAt=130")
			},
		},
		// ---- §12.5 / §2 two clocks --------------------------------------
		{
			name: "§12.5 reference timeline: progress resets idle but never the maximum, cut at exactly 2000",
			in:   refFlowing,
			want: func(t *testing.T, tr *trace.Trace) {
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && (to[0].At != 2000 || to[0].Cause != "max-timeout") {
					t.Errorf("timeout at %d cause %s, want 2000 max-timeout", to[0].At, to[0].Cause)
				}
				wantCount(t, tr, ev{actor: "client", typ: "activity", id: "7", at: -1}, 5, "progress accepted as activity (400, 800, 1200, 1600, 1999)")
				c := wantCount(t, tr, ev{actor: "client", typ: "send", method: "notifications/cancelled", at: 2000}, 1, "the client cancels at 2000")
				if len(c) == 1 && string(c[0].Message) != `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"maximum timeout"}}` {
					t.Errorf("cancellation %s", c[0].Message)
				}
				wantSummary(t, tr, "7", "state=cancelled", "cause=max-timeout", "reason=maximum timeout", "clientOutcome=abandoned", "endedAt=2000", "response=<null>")
				wantCheck(t, tr, "max-timeout-enforced", "true")
				wantCheck(t, tr, "idle-timeout-enforced", "true")
			},
		},
		{
			name: "§2 reference variant: progress stops at 1200, alive at 1500, the idle deadline fires at exactly 1700",
			in:   refStops,
			want: func(t *testing.T, tr *trace.Trace) {
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && (to[0].At != 1700 || to[0].Cause != "idle-timeout") {
					t.Errorf("timeout at %d cause %s, want 1700 idle-timeout", to[0].At, to[0].Cause)
				}
				wantSummary(t, tr, "7", "state=cancelled", "cause=idle-timeout", "reason=idle timeout", "endedAt=1700")
				wantCheck(t, tr, "idle-timeout-enforced", "true")
				wantCheck(t, tr, "max-timeout-enforced", "true")
			},
		},
		{
			name: "§2 a timeout on Streamable HTTP 2026 cancels by closing the stream",
			in:   sc(`"transport":"streamable-http","client":{"idleTimeoutMs":500}`, call7),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "client", typ: "timeout", id: "7", at: 500}, 1, "idle timeout at 500")
				wantCount(t, tr, ev{actor: "client", typ: "close-stream", id: "7", at: 500}, 1, "the stream closes at 500")
				st := wantCount(t, tr, ev{actor: "server", typ: "status", id: "7", at: 500}, 1, "the server cancels")
				if len(st) == 1 && st[0].Cause != "idle-timeout" {
					t.Errorf("cause %q", st[0].Cause)
				}
				wantCount(t, tr, ev{method: "notifications/cancelled", at: -1}, 0, "notifications/cancelled")
				wantSummary(t, tr, "7", "state=cancelled", "cause=idle-timeout", "signal=close-stream")
			},
		},
		{
			name: "§2/§8 keep-alive comments keep the stream open but do not reset the idle timeout",
			in: sc(`"transport":"streamable-http","client":{"idleTimeoutMs":500,"maxTimeoutMs":2000},"server":{"keepaliveEveryMs":100}`,
				call7, `{"at":1000,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				var delivered int
				for _, e := range find(tr, ev{actor: "network", typ: "deliver", at: -1}) {
					if e.Signal == "keepalive" && e.At < 500 {
						delivered++
					}
				}
				if delivered != 4 {
					t.Errorf("%d keep-alives reached the client before 500, want 4 (100..400)\n%s", delivered, dump(tr))
				}
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && (to[0].At != 500 || to[0].Cause != "idle-timeout") {
					t.Errorf("timeout at %d cause %s, want 500 idle-timeout", to[0].At, to[0].Cause)
				}
				wantCount(t, tr, any_("activity"), 0, "activity")
				for _, e := range find(tr, any_("keepalive")) {
					if e.At > 500 {
						t.Errorf("keep-alive at %d on a cancelled request", e.At)
					}
				}
			},
		},
		// ---- §3 progress ------------------------------------------------
		{
			name: "§3 an equal progress value does not reset idle and fails progress-increases",
			in:   sc(`"client":{"idleTimeoutMs":500}`, call7, progressAt(100, 1), progressAt(400, 1)),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "client", typ: "ignore", id: "7", at: 400}, 1, "the client ignores the stale value")
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && to[0].At != 600 {
					t.Errorf("timeout at %d, want 600 (100 + 500: the stale value at 400 is not activity)", to[0].At)
				}
				wantCheck(t, tr, "progress-increases", "false")
				wantCheck(t, tr, "stale-progress-ignored", "true")
			},
		},
		{
			name: "§3 a lower progress value does not reset idle and fails progress-increases",
			in:   sc(`"client":{"idleTimeoutMs":500}`, call7, progressAt(100, 2), progressAt(400, 1.5)),
			want: func(t *testing.T, tr *trace.Trace) {
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && to[0].At != 600 {
					t.Errorf("timeout at %d, want 600", to[0].At)
				}
				wantCheck(t, tr, "progress-increases", "false")
				wantCheck(t, tr, "stale-progress-ignored", "true")
			},
		},
		{
			name: "§3 progress for a request with no token is not sent",
			in:   sc("", `{"at":0,"do":"call","id":7}`, progressAt(100, 1), `{"at":200,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "suppress", id: "7", at: 100}, 1, "progress suppressed")
				wantCount(t, tr, ev{method: "notifications/progress", at: -1}, 0, "notifications/progress on the wire")
				wantSummary(t, tr, "7", "state=completed", "clientOutcome=result")
			},
		},
		{
			name: "§3 progress stops after completion",
			in:   sc("", call7, progressAt(50, 1), `{"at":100,"do":"complete","id":7}`, progressAt(200, 2)),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "skip", id: "7", at: 200}, 1, "progress after the response: the step cannot happen")
				wantCount(t, tr, ev{actor: "server", typ: "send", method: "notifications/progress", at: -1}, 1, "progress on the wire")
				wantCheck(t, tr, "no-progress-after-final", "true")
			},
		},
		{
			name: "§3 the progress notification carries the token, progress, total and message",
			in:   sc("", call7, `{"at":100,"do":"progress","id":7,"progress":1,"total":3,"message":"one of three"}`),
			want: func(t *testing.T, tr *trace.Trace) {
				p := wantCount(t, tr, ev{actor: "server", typ: "send", method: "notifications/progress", at: 100}, 1, "progress")
				want := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-7","progress":1,"total":3,"message":"one of three"}}`
				if len(p) == 1 && string(p[0].Message) != want {
					t.Errorf("progress %s, want %s", p[0].Message, want)
				}
				r := wantCount(t, tr, ev{actor: "client", typ: "send", id: "7", at: 0}, 1, "request")
				if len(r) == 1 && string(r[0].Message) != `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{},"_meta":{"progressToken":"p-7","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcplab-client","version":"1.0.0"}}}}` {
					t.Errorf("request %s", r[0].Message)
				}
			},
		},
		{
			name: "§3 on HTTP progress travels only on the request's own stream: once it is closed, progress is lost",
			in: sc(http2026+`,"client":{"idleTimeoutMs":500},"server":{"policy":{"ignoreDisconnect":true}}`, call7, progressAt(50, 1), `{"at":100,"do":"disconnect","id":7}`,
				progressAt(200, 2), `{"at":300,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "client", typ: "activity", id: "7", at: 60}, 1, "progress on the open stream")
				d := wantCount(t, tr, ev{actor: "network", typ: "drop", id: "7", at: 210}, 1, "progress on the closed stream lost")
				if len(d) == 1 && method(d[0].Message) != "notifications/progress" {
					t.Errorf("dropped %s", d[0].Message)
				}
				wantCount(t, tr, ev{actor: "client", typ: "activity", at: -1}, 1, "activity in all")
			},
		},
		{
			name: "§9 under 2025-11-25 a dropped call stream is resumed with Last-Event-ID: what the server sent meanwhile is replayed and the result arrives",
			in: sc(http2025+`,"client":{"idleTimeoutMs":500}`, call7, progressAt(50, 1), `{"at":100,"do":"disconnect","id":7}`,
				progressAt(200, 2), `{"at":300,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "prime", id: "7", at: 10}, 1, "the priming event")
				kept := wantCount(t, tr, ev{actor: "server", typ: "enqueue", id: "7", at: -1}, 2, "events kept for the resumption (progress 2, the result)")
				rc := wantCount(t, tr, ev{actor: "client", typ: "reconnect", id: "7", at: -1}, 1, "the resuming GET")
				if len(rc) == 1 && rc[0].Headers["Last-Event-ID"] != "2" {
					t.Errorf("Last-Event-ID %q, want 2 (the priming event 1, then progress 1 as event 2)", rc[0].Headers["Last-Event-ID"])
				}
				replayed := find(tr, ev{actor: "server", typ: "send", id: "7", at: -1})
				if len(kept) == 2 && len(replayed) == 3 && (replayed[1].EventID != kept[0].EventID || replayed[2].EventID != kept[1].EventID) {
					t.Errorf("replayed events %s, %s; want the kept %s, %s", replayed[1].EventID, replayed[2].EventID, kept[0].EventID, kept[1].EventID)
				}
				wantCount(t, tr, any_("timeout"), 0, "timeouts")
				wantSummary(t, tr, "7", "state=completed", "clientOutcome=result", "response="+result7of2025)
			},
		},
		// ---- §1 the server ignores invalid cancellations ----------------
		{
			name: "§1 a cancellation for an already finished request is ignored, unanswered",
			in:   sc("", call7, `{"at":100,"do":"complete","id":7}`, sendAt(200, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "ignore", at: 200}, 1, "the server ignores it")
				wantCount(t, tr, ev{actor: "server", typ: "send", at: -1}, 1, "server messages (only the response at 100)")
				wantSummary(t, tr, "7", "state=completed", "response="+result7, "clientOutcome=result")
			},
		},
		{
			name: "§1 a non-string reason still cancels; the reason is treated as absent",
			in:   sc("", call7, sendAt(100, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":42}}`), `{"at":200,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				st := wantCount(t, tr, ev{actor: "server", typ: "status", id: "7", at: 100}, 1, "the server cancels")
				if len(st) == 1 && st[0].Status != "cancelled" {
					t.Errorf("status %q", st[0].Status)
				}
				wantCount(t, tr, ev{actor: "server", typ: "suppress", id: "7", at: 200}, 1, "response suppressed")
				wantSummary(t, tr, "7", "state=cancelled", "response=<null>")
			},
		},
		{
			name: "§1 a requestId of null does not cancel request 0",
			in:   sc("", `{"at":0,"do":"call","id":0}`, sendAt(100, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`), `{"at":200,"do":"complete","id":0}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "ignore", at: 100}, 1, "the server ignores it")
				wantSummary(t, tr, "0", "state=completed", "clientOutcome=result")
			},
		},
		{
			name: "§1 a server-sent notifications/cancelled for a tool call fails server-cancel-only-for-listen",
			in: sc("", call7, `{"at":100,"do":"send","from":"server","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}}`,
				`{"at":200,"do":"complete","id":7}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "client", typ: "ignore", at: 100}, 1, "the client ignores it")
				wantCheck(t, tr, "server-cancel-only-for-listen", "false")
				wantSummary(t, tr, "7", "state=completed", "clientOutcome=result")
			},
		},
		{
			name: "§1 2025-11-25: initialize is never cancelled",
			in:   sc(`"protocol":"2025-11-25"`, `{"at":0,"do":"call","id":1,"method":"initialize"}`, `{"at":100,"do":"cancel","id":1}`, `{"at":200,"do":"complete","id":1}`),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{method: "notifications/cancelled", at: -1}, 0, "cancellations on the wire")
				wantCount(t, tr, ev{actor: "client", typ: "ignore", id: "1", at: 100}, 1, "the client refuses")
				wantSummary(t, tr, "1", "state=completed", "clientOutcome=result")
				wantCheck(t, tr, "initialize-not-cancelled", "true")
			},
		},
		// ---- §11 policies: each bad switch fails its check --------------
		{
			name: "§11 default: 2026 HTTP client closes the stream, http-cancel-closes-stream passes",
			in:   sc(http2026, call7, cancel300, done320),
			want: func(t *testing.T, tr *trace.Trace) { wantCheck(t, tr, "http-cancel-closes-stream", "true") },
		},
		{
			name: "§11 httpCancel post-notification under 2026 HTTP: server and client disagree, http-cancel-closes-stream fails",
			in:   sc(http2026+`,"client":{"policy":{"httpCancel":"post-notification"}}`, call7, cancel300, done320),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "client", typ: "send", method: "notifications/cancelled", at: 300}, 1, "the POST")
				wantCount(t, tr, ev{actor: "server", typ: "ignore", id: "7", at: 310}, 1, "the server does not take the POST as a cancellation")
				wantSummary(t, tr, "7", "state=completed", "clientOutcome=abandoned", "signal=notifications/cancelled")
				wantCheck(t, tr, "http-cancel-closes-stream", "false")
			},
		},
		{
			name: "§11 default: the server sends nothing after an accepted cancellation, no-message-after-cancel passes",
			in:   sc(stdio, call7, cancel300, progressAt(310, 1), done320),
			want: func(t *testing.T, tr *trace.Trace) { wantCheck(t, tr, "no-message-after-cancel", "true") },
		},
		{
			name: "§11 respondAfterCancel: progress and a response after an accepted cancellation fail no-message-after-cancel",
			in:   sc(stdio+`,"server":{"policy":{"respondAfterCancel":true}}`, call7, cancel300, progressAt(312, 1), done320),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "server", typ: "send", id: "7", at: 320}, 1, "the response after cancellation")
				wantCount(t, tr, ev{actor: "client", typ: "ignore", id: "7", at: 330}, 1, "the client ignores it")
				wantSummary(t, tr, "7", "state=cancelled", "response="+result7, "clientOutcome=abandoned")
				wantCheck(t, tr, "no-message-after-cancel", "false")
			},
		},
		{
			name: "§11 respondAfterCancel breaks only its own rule: still one response, and no progress after it",
			in: sc(stdio+`,"server":{"policy":{"respondAfterCancel":true}}`, call7, cancel300, done320,
				`{"at":330,"do":"complete","id":7}`, progressAt(340, 1)),
			want: func(t *testing.T, tr *trace.Trace) {
				var finals int
				for _, e := range find(tr, ev{actor: "server", typ: "send", id: "7", at: -1}) {
					if isFinal(e.Message) {
						finals++
					}
				}
				if finals != 1 {
					t.Errorf("%d final responses on the wire, want 1 (one terminal state, DOMAIN.md §1)", finals)
				}
				wantCount(t, tr, ev{actor: "server", typ: "send", method: "notifications/progress", at: 340}, 0, "progress after the final response")
				wantCheck(t, tr, "no-message-after-cancel", "false")
				wantCheck(t, tr, "one-response-per-request", "true")
			},
		},
		{
			name: "§11 default: progress never moves the maximum, max-timeout-enforced passes",
			in:   policyResetsMax(false),
			want: func(t *testing.T, tr *trace.Trace) {
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && (to[0].At != 2000 || to[0].Cause != "max-timeout") {
					t.Errorf("timeout at %d %s, want 2000 max-timeout", to[0].At, to[0].Cause)
				}
				wantCheck(t, tr, "max-timeout-enforced", "true")
			},
		},
		{
			name: "§11 progressResetsMax: hung work outlives the maximum, max-timeout-enforced fails",
			in:   policyResetsMax(true),
			want: func(t *testing.T, tr *trace.Trace) {
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && (to[0].At != 3300 || to[0].Cause != "idle-timeout") {
					t.Errorf("timeout at %d %s, want 3300 idle-timeout (progress stops at 2800)", to[0].At, to[0].Cause)
				}
				wantCheck(t, tr, "max-timeout-enforced", "false")
			},
		},
		{
			name: "§11 acceptNonIncreasingProgress: stale progress resets idle, stale-progress-ignored fails",
			in:   sc(`"client":{"idleTimeoutMs":500,"policy":{"acceptNonIncreasingProgress":true}}`, call7, progressAt(100, 1), progressAt(400, 1)),
			want: func(t *testing.T, tr *trace.Trace) {
				wantCount(t, tr, ev{actor: "client", typ: "activity", id: "7", at: 400}, 1, "stale progress taken as activity")
				to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
				if len(to) == 1 && to[0].At != 900 {
					t.Errorf("timeout at %d, want 900 (400 + 500)", to[0].At)
				}
				wantCheck(t, tr, "stale-progress-ignored", "false")
				wantCheck(t, tr, "progress-increases", "false")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := run(t, tt.in)
			logOnFailure(t, tr)
			tt.want(t, tr)
		})
	}
}

// policyResetsMax is the reference timeline with progress every 400 ms up
// to 2800, with or without client.policy.progressResetsMax.
func policyResetsMax(on bool) string {
	steps := []string{call7}
	for i := 1; i <= 7; i++ {
		steps = append(steps, progressAt(int64(400*i), float64(i)))
	}
	steps = append(steps, `{"at":4000,"do":"complete","id":7}`)
	return sc(fmt.Sprintf(`"client":{"idleTimeoutMs":500,"maxTimeoutMs":2000,"policy":{"progressResetsMax":%v}}`, on), steps...)
}

// TestInvalidCancellationsIgnored proves DOMAIN.md §1: the server silently
// ignores a cancellation that is malformed (wrong method, params not an
// object, requestId missing or not a string or an integer) or for an
// unknown id. Ignoring never crashes and never answers: the request goes on
// and completes normally.
func TestInvalidCancellationsIgnored(t *testing.T) {
	for _, msg := range []struct{ name, json string }{
		{"wrong method", `{"jsonrpc":"2.0","method":"notifications/cancel","params":{"requestId":7}}`},
		{"params not an object", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":[7]}`},
		{"params null", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}`},
		{"params missing", `{"jsonrpc":"2.0","method":"notifications/cancelled"}`},
		{"requestId missing", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"x"}}`},
		{"requestId a bool", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":true}}`},
		{"requestId a float", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7.5}}`},
		{"requestId an object", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"id":7}}}`},
		{"requestId null", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`},
		{"unknown id", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`},
		{"string \"7\" for integer id 7", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7"}}`},
		{"with an id: a request, not a notification", `{"jsonrpc":"2.0","id":5,"method":"notifications/cancel","params":{"requestId":7}}`},
		{"not an object", `"cancel 7"`},
	} {
		for _, transport := range []string{stdio, http2025} {
			name := msg.name + " on " + strings.SplitN(strings.Split(transport, `"transport":"`)[1], `"`, 2)[0]
			t.Run(name, func(t *testing.T) {
				tr := run(t, sc(transport, call7, sendAt(100, msg.json), `{"at":200,"do":"complete","id":7}`))
				logOnFailure(t, tr)
				ig := wantCount(t, tr, ev{actor: "server", typ: "ignore", at: 110}, 1, "the server ignores it on arrival")
				if len(ig) == 1 && compact(t, string(ig[0].Message)) != compact(t, msg.json) {
					t.Errorf("ignore event message %s", ig[0].Message)
				}
				for _, e := range find(tr, ev{actor: "server", typ: "send", at: -1}) {
					if e.At >= 0 && e.At != 200 { // before 0: the 2025-11-25 handshake
						t.Errorf("the server sent %s at %d: ignoring never answers", e.Message, e.At)
					}
				}
				wantCount(t, tr, ev{actor: "server", typ: "status", at: -1}, 0, "server status changes")
				wantCount(t, tr, ev{typ: "error", at: -1}, 0, "errors")
				want := result7
				if transport == http2025 {
					want = result7of2025
				}
				wantSummary(t, tr, "7", "state=completed", "response="+want, "clientOutcome=result")
				if _, ok := check(tr, "cancellation-never-answered"); ok {
					wantCheck(t, tr, "cancellation-never-answered", "true")
				}
			})
		}
	}
}

// TestClientIgnoresInvalidServerMessages proves the client never crashes on
// what the server sends (DOMAIN.md §1: ignoring never crashes): unknown
// tokens, non-JSON-RPC values and server-sent cancellations are ignored.
func TestClientIgnoresInvalidServerMessages(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"nope","progress":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":null,"progress":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-7"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`,
		`[1,2,3]`,
		`null`,
	} {
		t.Run(msg, func(t *testing.T) {
			tr := run(t, sc(`"client":{"idleTimeoutMs":500}`, call7, fmt.Sprintf(`{"at":100,"do":"send","from":"server","message":%s}`, msg)))
			logOnFailure(t, tr)
			wantCount(t, tr, ev{actor: "client", typ: "ignore", at: 100}, 1, "the client ignores it")
			wantCount(t, tr, any_("activity"), 0, "activity")
			to := wantCount(t, tr, any_("timeout"), 1, "timeouts")
			if len(to) == 1 && to[0].At != 500 {
				t.Errorf("timeout at %d, want 500: an ignored message is not activity", to[0].At)
			}
		})
	}
}

// TestSameTimeRunsInFileOrder proves SCENARIO.md's determinism rule on the
// race: steps at the same time run in file order, and what they schedule
// runs after them, so with no latency a cancel and a completion at the same
// millisecond give the completion (the cancellation is still on the wire
// when the handler commits).
func TestSameTimeRunsInFileOrder(t *testing.T) {
	cancelFirst := run(t, sc("", call7, `{"at":300,"do":"cancel","id":7}`, `{"at":300,"do":"complete","id":7}`))
	wantSummary(t, cancelFirst, "7", "state=completed", "clientOutcome=abandoned")
	completeFirst := run(t, sc("", call7, `{"at":300,"do":"complete","id":7}`, `{"at":300,"do":"cancel","id":7}`))
	wantSummary(t, completeFirst, "7", "state=completed", "clientOutcome=abandoned")
	cancelEarlier := run(t, sc("", call7, `{"at":299,"do":"cancel","id":7}`, `{"at":300,"do":"complete","id":7}`))
	wantSummary(t, cancelEarlier, "7", "state=cancelled", "clientOutcome=abandoned", "response=<null>")
}

// TestInitialize2025TimeoutStopsWaiting proves DOMAIN.md §1 and §2 together:
// under 2025-11-25 initialize must never be cancelled, and a request's
// deadlines still bound how long the client waits ("the presence of a token
// never means wait forever"; the maximum is an absolute budget). On expiry
// the client stops waiting without sending any cancellation, and ignores a
// response that comes later.
func TestInitialize2025TimeoutStopsWaiting(t *testing.T) {
	tr := run(t, sc(`"protocol":"2025-11-25","client":{"idleTimeoutMs":500,"maxTimeoutMs":2000}`,
		`{"at":0,"do":"call","id":1,"method":"initialize","progressToken":"init"}`,
		`{"at":400,"do":"progress","id":1,"progress":1}`,
		`{"at":3000,"do":"complete","id":1}`))
	logOnFailure(t, tr)
	to := wantCount(t, tr, ev{actor: "client", typ: "timeout", id: "1", at: -1}, 1, "the client's timeout")
	if len(to) == 1 && (to[0].At != 900 || to[0].Cause != "idle-timeout") {
		t.Errorf("timeout at %d %s, want 900 idle-timeout", to[0].At, to[0].Cause)
	}
	wantCount(t, tr, ev{method: "notifications/cancelled", at: -1}, 0, "cancellations on the wire")
	wantCount(t, tr, ev{actor: "client", typ: "ignore", id: "1", at: 3000}, 1, "the late response ignored")
	wantSummary(t, tr, "1", "state=completed", "clientOutcome=abandoned", "endedAt=900", "signal=<null>")
	wantCheck(t, tr, "initialize-not-cancelled", "true")
	wantCheck(t, tr, "max-timeout-enforced", "true")
	wantCheck(t, tr, "idle-timeout-enforced", "true")
}

// TestKeepaliveSlowerThanLatencyEnds proves that keep-alive comments never
// keep a simulation alive on their own (package sim: periodic housekeeping
// runs in the background), whatever the latency: a request left open at
// the server, with comments every 50 ms and 60 ms of down latency, ends the
// run once the script is done (SCENARIO.md: a small scenario gives a trace,
// never a runaway).
func TestKeepaliveSlowerThanLatencyEnds(t *testing.T) {
	tr := run(t, sc(`"transport":"streamable-http","latencyMs":{"up":0,"down":60},"server":{"keepaliveEveryMs":50}`,
		call7, progressAt(200, 1)))
	if tr.EndMs > 200+60+50 {
		t.Errorf("the trace runs on to %d ms after its last step at 200", tr.EndMs)
	}
}
