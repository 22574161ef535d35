package checks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// The 2025-11-25 lifecycle's rules (SCENARIO.md, "Sessions (2025-11-25)"):
// notifications/initialized comes before any other request and the server
// serves what follows it; after a retired session's 404 the client
// initializes again and re-issues what was in flight, once.

// Rule ids of the lifecycle.
const (
	// InitializedBeforeRequests: after each initialize the client sends no
	// request but ping before notifications/initialized, and the server rejects
	// nothing that follows it as not initialized (MCP specification, Basic ›
	// Lifecycle).
	InitializedBeforeRequests trace.RuleID = "initialized-before-requests"
	// SessionRecovered: after a retired session's 404 the client initializes
	// again and re-issues what was in flight once, with the same ids and
	// arguments (MCP specification, Basic › Transports › Streamable HTTP
	// (2025-11-25, session management)).
	SessionRecovered trace.RuleID = "session-recovered"
)

// statusNotFound is the HTTP status of a retired session (transports,
// "Session Management").
const statusNotFound = "404"

// initializedBeforeRequests: after each initialize the client sends no
// request but ping before its notifications/initialized, and the server
// rejects no request that reached it after notifications/initialized as
// "not initialized" (tachyonmcp/tachyon#11). It applies when the trace
// shows a handshake (an initialize the client follows with
// notifications/initialized); a transcript that shows initialize but no
// notifications/initialized cannot tell (its log may have left it out).
func initializedBeforeRequests(v *view) (trace.Check, bool) {
	// A handshake is an initialize the client follows with
	// notifications/initialized before its next initialize; a scripted
	// initialize call with none after it opens no session to judge.
	complete := map[int]bool{} // client initialize event -> completed
	last, handshakes, initialized := -1, 0, 0
	for i := range v.ev {
		switch w := v.msg(i); {
		case v.clientSends(i) && w.method == jsonrpc.MethodInitialize:
			last = i
			handshakes++
		case v.clientSends(i) && w.method == jsonrpc.MethodInitialized:
			initialized++
			if last >= 0 {
				complete[last] = true
			}
		}
	}
	if handshakes == 0 || initialized == 0 && v.tr.Source == nil {
		return trace.Check{}, false
	}
	if initialized == 0 {
		return undecided(InitializedBeforeRequests, "The transcript shows initialize but no notifications/initialized: it cannot tell when the session was ready."), true
	}
	waiting := false           // between a handshake's initialize and its initialized
	serverReady := false       // the server has received initialized
	after := map[string]bool{} // request id -> it reached the server after initialized
	var early, rejected []int
	for i, e := range v.ev {
		w := v.msg(i)
		switch {
		case v.clientSends(i) && w.method == jsonrpc.MethodInitialize:
			waiting, serverReady = complete[i], false
		case v.clientSends(i) && w.method == jsonrpc.MethodInitialized:
			waiting = false
		case v.clientSends(i) && w.hasID && !w.response && w.method != jsonrpc.MethodPing && waiting:
			early = append(early, i)
		case e.Type == trace.TypeDeliver && e.To == trace.ActorServer && w.method == jsonrpc.MethodInitialized:
			serverReady = true
		case e.Type == trace.TypeDeliver && e.To == trace.ActorServer && w.hasID && !w.response && w.method != jsonrpc.MethodInitialize:
			after[w.id] = serverReady
		case v.serverSends(i) && w.response && after[w.id]:
			if m, err := jsonrpc.Parse(e.Message); err == nil && m.Kind == jsonrpc.Error && notInitialized(m.ErrorMessage) {
				rejected = append(rejected, i)
			}
		}
	}
	switch {
	case len(early) > 0:
		return fail(InitializedBeforeRequests, fmt.Sprintf("The client sent %d request(s) before notifications/initialized.", len(early)), early...), true
	case len(rejected) > 0:
		return fail(InitializedBeforeRequests, fmt.Sprintf("The server rejected %d request(s) sent after notifications/initialized as not initialized: it acknowledged the notification before applying it (tachyonmcp/tachyon#11).", len(rejected)), rejected...), true
	}
	return pass(InitializedBeforeRequests, fmt.Sprintf("notifications/initialized came before every other request of %d session(s), and the server served what followed it.", initialized)), true
}

// sessionRecovered: after a 404 for a retired session, the client
// initializes again and re-issues every request it had in flight, once
// per 404 it met (a session retired again before the re-issue meets
// another 404, and the request is re-issued once more), with the same id and arguments (so the same idempotency key;
// anthropics/claude-code#83404). It applies when the trace shows a 404.
func sessionRecovered(v *view) (trace.Check, bool) {
	type call struct {
		args     json.RawMessage
		answered bool
	}
	calls := map[string]*call{}
	var order []string
	found, reinit := -1, -1
	var inFlight []string
	reissued := map[string]int{}
	since := map[string]int{} // re-issues since the last 404: one each per 404
	var changed, twice []int
	var twiceIDs []string
	for i, e := range v.ev {
		w := v.msg(i)
		switch {
		case found >= 0 && e.Status == statusNotFound && e.Actor != trace.ActorClient:
			clear(since) // another 404: each request may be re-issued once more
		case found < 0 && e.Status == statusNotFound && e.Actor != trace.ActorClient:
			found = i
			for _, id := range order {
				if !calls[id].answered {
					inFlight = append(inFlight, id)
				}
			}
		case v.clientSends(i) && w.method == jsonrpc.MethodInitialize:
			if found >= 0 && reinit < 0 {
				reinit = i
			}
		case v.clientSends(i) && w.hasID && !w.response && w.method != jsonrpc.MethodListen && w.method != jsonrpc.MethodPing:
			m, _ := jsonrpc.Parse(e.Message)
			if c, seen := calls[w.id]; seen && found >= 0 && reinit >= 0 {
				reissued[w.id]++
				if since[w.id]++; since[w.id] == 2 {
					twice, twiceIDs = append(twice, i), append(twiceIDs, w.id)
				}
				if !bytes.Equal(compactJSON(c.args), compactJSON(m.Arguments)) {
					changed = append(changed, i)
				}
			} else if !seen {
				calls[w.id] = &call{args: m.Arguments}
				order = append(order, w.id)
			}
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && w.response:
			if c := calls[w.id]; c != nil && found < 0 {
				c.answered = true
			}
		case e.Type == trace.TypeCloseStream && e.Actor == trace.ActorClient:
			if c := calls[idOf(e)]; c != nil && found < 0 {
				c.answered = true // the client gave it up itself
			}
		}
	}
	if found < 0 {
		return trace.Check{}, false
	}
	if reinit < 0 {
		return fail(SessionRecovered, fmt.Sprintf("After the 404 the client never initialized again: %d call(s) in flight were lost (anthropics/claude-code#83404).", len(inFlight)), found), true
	}
	var lost []string
	for _, id := range inFlight {
		if reissued[id] == 0 {
			lost = append(lost, id)
		}
	}
	switch {
	case len(lost) > 0:
		return fail(SessionRecovered, "After the 404 the client initialized again but never re-issued request(s) "+strings.Join(lost, ", ")+": the work in flight was lost.", found, reinit), true
	case len(twice) > 0:
		return fail(SessionRecovered, "After a 404 the client re-issued request(s) "+strings.Join(twiceIDs, ", ")+" more than once before the next 404.", twice...), true
	case len(changed) > 0:
		return fail(SessionRecovered, "The client re-issued a request with other arguments (a new idempotency key): the server cannot tell it is the same work.", changed...), true
	}
	return pass(SessionRecovered, fmt.Sprintf("After the 404 the client initialized again and re-issued the %d call(s) in flight once each, with the same ids and arguments.", len(inFlight)), found, reinit), true
}

// notInitialized reports whether an error message says the server was not
// initialized ("Server not initialized", "not initialized"): it holds
// "initialized" in any ASCII case. (An ASCII fold, not strings.ToLower,
// which would link Unicode's case tables into the browser binaries.)
func notInitialized(msg string) bool {
	const word = "initialized"
	for i := 0; i+len(word) <= len(msg); i++ {
		j := 0
		for j < len(word) && msg[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// compactJSON is raw without insignificant whitespace (raw itself when
// it is not JSON).
func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
