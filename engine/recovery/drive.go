package recovery

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Wire is what a listen stream's resumption needs of the runner: emit an
// event, schedule fn ms from now, and the latencies (ms).
type Wire interface {
	Emit(e trace.Event)
	After(ms int64, fn func())
	Latency() (up, down int64)
}

// ResumeOn reconnects listen stream id by resending its position
// (Last-Event-ID; Resume) where the stream carries no SSE event ids: on
// stdio under 2025-11-25 (is2025), where the server replays that stream's
// missed events, and with policy sendLastEventId under 2026-07-28, where
// the server keeps no event ids (StaleResume). One upward latency after
// the reconnect event the 2025-11-25 server answers: both ends use the
// stream again (reading and writing, the request's halves, on Streamable
// HTTP only, http) and send puts each missed message on it anew. On
// Streamable HTTP under 2025-11-25 the runner resumes from the server's
// event store instead (sse.Replay).
func (l *Listen) ResumeOn(w Wire, id *scenario.ID, is2025, http bool, reading, writing *bool, send func(msg json.RawMessage, note string)) {
	e, last, missed := l.Resume(id.String(), is2025)
	e.ID = id
	w.Emit(e)
	up, _ := w.Latency()
	w.After(up, func() {
		if !is2025 {
			e := StaleResume()
			e.ID = id
			w.Emit(e)
			return
		}
		*reading, *writing = http, http
		e := l.Resumed(id.String(), last, len(missed))
		e.ID = id
		w.Emit(e)
		for _, m := range missed {
			send(m, "Replayed after Last-Event-ID.")
		}
	})
}

// Reattach is a resumed stream in use again at both ends (DOMAIN.md §9):
// the client reads it (cl), the server writes it (srv) and, for a listen
// stream (l, nil for any other), serves it.
func Reattach(cl *coordinator.Client, srv *coordinator.Server, l *Listen) {
	cl.Reading, srv.Writing = true, true
	if l != nil {
		l.Serving, l.Reading = true, true
	}
}

// EndOnStdio is the server ending listen stream rawID (its JSON-RPC id
// text) on stdio at now (DOMAIN.md §1): its half stops (srv), the client
// will record the server as the cause (cl), and the message is the
// server-sent notifications/cancelled with reason (nil for none), the one
// cancellation a server may send.
func EndOnStdio(cl *coordinator.Client, srv *coordinator.Server, now int64, rawID string, reason *string) json.RawMessage {
	srv.Cancel(now)
	cl.Cause = trace.CauseServer
	return jsonrpc.NewCancel(rawID, reason)
}
