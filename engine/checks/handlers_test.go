package checks_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestHandlerRules proves the rules of the server's handlers on traces
// written by hand, as an imported transcript would give them (DOMAIN.md
// §1, the server's side of a cancellation; §11 cancel-swallowed,
// resource-leaked-on-cancel, notifications-held, cross-wired-response):
// the correct trace passes, the broken one fails, the legitimate race is
// not flagged, and a log that cannot tell leaves the rule undecided.
func TestHandlerRules(t *testing.T) {
	stdio := mustScenario(t, "")
	withHandlers := mustScenario(t, `"server":{"handlers":{"crunch":{"workMs":500,"progressEveryMs":100}}}`)
	http := mustScenario(t, `"transport":"streamable-http"`)
	checkpoint := func(at int64) trace.Event { return act(at, server, trace.TypeCheckpoint, "7") }
	suppress := func(at int64) trace.Event {
		e := act(at, server, trace.TypeSuppress, "7")
		e.Message = []byte(resp7)
		return e
	}
	res := func(at int64, typ trace.EventType, reqID string) trace.Event {
		e := act(at, server, typ, reqID)
		e.Resource = "db-lock"
		return e
	}
	hold := func(at int64) trace.Event {
		e := act(at, server, trace.TypeHold, "7")
		e.Message = []byte(progress("p", 1))
		return e
	}
	effect := act(810, trace.ActorLedger, trace.TypeEffect, "7")
	clientLog := func(tr *trace.Trace) *trace.Trace {
		tr.Scenario, tr.Source = nil, &trace.Source{Format: "jsonl", Clock: "ms", Observer: trace.ObserverClient}
		return tr
	}
	serverLog := func(tr *trace.Trace) *trace.Trace {
		tr.Scenario, tr.Source = nil, &trace.Source{Format: "jsonl", Clock: "ms", Observer: trace.ObserverServer}
		return tr
	}
	dup := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"lookup"}}`
	tests := []struct {
		name string
		rule trace.RuleID
		want string
		tr   *trace.Trace
	}{
		{"stops at its checkpoint", checks.WorkStopsAfterCancel, "true",
			build(stdio, nil, send(0, client, "7", req7), status(260, "7", cancelled, "client"), checkpoint(310))},
		{"a scripted completion is the handler's last checkpoint", checks.WorkStopsAfterCancel, "true",
			build(stdio, nil, send(0, client, "7", req7), status(310, "7", cancelled, "client"), suppress(320))},
		{"swallowed: past its checkpoint to the side effect", checks.WorkStopsAfterCancel, "false",
			build(stdio, nil, send(0, client, "7", req7), status(260, "7", cancelled, "client"), checkpoint(310), effect, suppress(810))},
		{"the race: the cancellation came after the completion", checks.WorkStopsAfterCancel, absent,
			build(stdio, nil, send(0, client, "7", req7), send(100, server, "7", resp7), act(115, server, trace.TypeIgnore, "7"))},
		{"a client's log cannot see the handler", checks.WorkStopsAfterCancel, "null",
			clientLog(build(stdio, nil, send(0, client, "7", req7), send(300, client, "", cancel7)))},
		{"a server's log records the wire, not the handler: a response after the arrival", checks.WorkStopsAfterCancel, "null",
			serverLog(build(stdio, nil, send(0, client, "7", req7), status(260, "7", cancelled, "client"), send(310, server, "7", resp7)))},
		{"a server's log records the wire, not the handler: silence after the arrival", checks.WorkStopsAfterCancel, "null",
			serverLog(build(stdio, nil, send(0, client, "7", req7), status(260, "7", cancelled, "client")))},

		{"released on the way out", checks.ResourcesReleased, "true",
			build(stdio, nil, res(10, trace.TypeAcquire, "7"), status(260, "7", cancelled, "client"), checkpoint(260), res(260, trace.TypeRelease, "7"))},
		{"kept after the cancellation", checks.ResourcesReleased, "false",
			build(stdio, nil, res(10, trace.TypeAcquire, "7"), res(30, trace.TypeWait, "8"), status(260, "7", cancelled, "client"), checkpoint(260))},
		{"no resource held", checks.ResourcesReleased, absent,
			build(stdio, nil, send(0, client, "7", req7))},

		{"progress written as made", checks.NotificationsNotHeld, "true",
			build(withHandlers, nil, send(100, server, "7", progress("p", 1)), send(500, server, "7", resp7))},
		{"progress held until the handler returned", checks.NotificationsNotHeld, "false",
			build(withHandlers, nil, hold(100), send(500, server, "7", progress("p", 1)), send(500, server, "7", resp7))},
		{"scripted progress leaves when the script says", checks.NotificationsNotHeld, absent,
			build(stdio, nil, send(100, server, "7", progress("p", 1)), send(500, server, "7", resp7))},
		{"an imported burst at the response cannot tell", checks.NotificationsNotHeld, "null",
			clientLog(build(stdio, nil, send(0, client, "7", req7), send(500, server, "7", progress("p", 1)), send(500, server, "7", resp7)))},

		{"each answer on its own stream", checks.ResponsesRoutedByReq, "true",
			build(http, nil, send(0, client, "7", req7), send(100, client, "", dup), act(110, server, trace.TypeReject, "7"), send(110, server, "", `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"in flight"}}`), send(500, server, "7", resp7))},
		{"the first answer on the duplicate's stream", checks.ResponsesRoutedByReq, "false",
			build(http, nil, send(0, client, "7", req7), send(100, client, "", dup), act(110, server, trace.TypeStart, "7"), send(500, server, "", resp7))},
		{"an id used again after its answer", checks.ResponsesRoutedByReq, absent,
			build(http, nil, send(0, client, "7", req7), send(50, server, "7", resp7), send(100, client, "", dup))},
		{"stdio: only the id routes", checks.ResponsesRoutedByReq, "null",
			build(stdio, nil, send(0, client, "7", req7), send(100, client, "", dup), send(500, server, "7", resp7))},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("ok=%s, want %s", got, tt.want)
			}
		})
	}
}
