// Package session is the 2025-11-25 lifecycle (SCENARIO.md, "Sessions
// (2025-11-25)"; DOMAIN.md, "The two protocol eras"): the initialize
// handshake, the Mcp-Session-Id the server assigns on Streamable HTTP, a
// session the server retires (end-session) and the 404 a client meets
// after, and a server that applies notifications/initialized late
// (server.policy.asyncInitialized). 2026-07-28 has none of it.
//
// A Lifecycle decides and says why; the runner sends, schedules and
// emits. The messages are package jsonrpc's (NewInitialize,
// NewInitializeResult, NewInitialized).
package session

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// StatusNotFound is the HTTP status a retired session's requests meet
// (transports, "Session Management": the server MUST respond 404).
const StatusNotFound = "404"

// ErrNotInitialized is the message a server answers a request with when
// it has not applied notifications/initialized yet.
const ErrNotInitialized = "Server not initialized"

// Lifecycle is one client's sessions as both ends know them.
type Lifecycle struct {
	// HTTP: the transport is Streamable HTTP, where sessions have ids.
	HTTP bool
	// Async is server.policy.asyncInitialized.
	Async bool
	// Reinitialize is client.policy.reinitializeOnNotFound (default true).
	Reinitialize bool
	// Capabilities are what the server declares in every initialize
	// result (see Capabilities).
	Capabilities jsonrpc.Capabilities

	handshakes int
	// Client is the Mcp-Session-Id the client's requests carry ("" before
	// the first result, on stdio, and under 2026-07-28).
	Client string
	// live is the session the server serves ("" when it retired it).
	live string
	// initializedAt is when the server received notifications/initialized
	// of the live session; -1 before.
	initializedAt int64
	// Recovering is true from the 404 until the new handshake ends.
	Recovering bool
	// reissue are the ids the client re-issues when the new handshake
	// ends: those in flight at the 404, and those that meet another 404
	// while it runs.
	reissue []string
	// forgot are the ids of requests a retired session forgot that the
	// client has not re-issued yet (Lost, NotFound).
	forgot map[string]bool
}

// Forgot reports whether request id (its JSON text) is one a retired
// session forgot and the client has not re-issued yet: it is in no
// session the server serves, so retiring another forgets nothing of it.
func (l *Lifecycle) Forgot(id string) bool { return l.forgot[id] }

// New returns the lifecycle of scenario s.
func New(s *scenario.Scenario) Lifecycle {
	return Lifecycle{HTTP: s.Transport == scenario.TransportHTTP, Async: s.Server.Policy.AsyncInitialized, Capabilities: Capabilities(s),
		Reinitialize: s.Client.Policy.ReinitializeOnNotFound == nil || *s.Client.Policy.ReinitializeOnNotFound, initializedAt: -1}
}

// Start is when the lifecycle's first message leaves: −(up + down) ms, so
// that the initialize result arrives at 0 and every step keeps its time.
func Start(s *scenario.Scenario) int64 { return -(s.LatencyMs.Up + s.LatencyMs.Down) }

// Next returns the id of the client's next initialize: "initialize-1",
// "initialize-2" after a 404, … (a string, apart from the scenario's ids).
func (l *Lifecycle) Next() scenario.ID {
	l.handshakes++
	return scenario.NewStringID("initialize-" + strconv.Itoa(l.handshakes))
}

// Open is the server answering initialize: on Streamable HTTP it assigns
// a new session id ("session-1", "session-2" …) and returns the response
// headers that carry it (nil on stdio).
func (l *Lifecycle) Open() map[string]string {
	l.initializedAt = -1
	if !l.HTTP {
		l.live = "stdio"
		return nil
	}
	l.live = "session-" + strconv.Itoa(l.handshakes)
	return map[string]string{"Content-Type": "application/json", jsonrpc.HeaderSessionID: l.live}
}

// Joined is the client taking session sess, the one the initialize
// result assigned (the server may have retired it since).
func (l *Lifecycle) Joined(sess string) {
	if l.HTTP {
		l.Client = sess
	}
	l.Recovering = false
}

// Initialized is the server receiving notifications/initialized at now.
func (l *Lifecycle) Initialized(now int64) { l.initializedAt = now }

// Rejects reports whether the server rejects a request arriving at now
// because it has not applied notifications/initialized: with Async, one
// that arrives with it (sent right after it; tachyonmcp/tachyon#11).
func (l *Lifecycle) Rejects(now int64) bool { return l.Async && l.initializedAt == now }

// Retired reports whether the client's session is one the server no
// longer serves: its next request, or a stream it re-opens, meets 404.
func (l *Lifecycle) Retired() bool { return l.HTTP && l.Client != "" && l.live != l.Client }

// Retire is the server retiring the live session at the end-session step
// (it forgets its in-flight work); ok is false when there is none to
// retire (stdio, or before the handshake).
func (l *Lifecycle) Retire() (e trace.Event, ok bool) {
	if !l.HTTP || l.live == "" {
		return trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Note: "end-session: no Streamable HTTP session to retire."}, false
	}
	e = trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, Status: "retired",
		Note: "The server retires session " + l.live + " and forgets its in-flight work; the session's open response streams end."}
	l.live = ""
	return e, true
}

// Forgotten is the server's status for in-flight request id when its
// session is retired.
func Forgotten(id string) trace.Event {
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, Status: "forgotten",
		Note: "Request " + id + " is forgotten with its session: its stream ends, its handler (if any) stops, and no response will come on it."}
}

// NotFound is the server's 404 to a request or stream of retired session
// sess; the client's reaction follows on delivery (Recover).
func NotFound(sess, what string) trace.Event {
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeReject, Status: StatusNotFound,
		Note: "HTTP 404: session " + sess + " is gone, so the server refuses " + what + "."}
}

// Recover is the client's reaction to a 404 at now: with Reinitialize it
// initializes again (reinit true) and re-issues what was in flight; else
// each in-flight call fails.
func (l *Lifecycle) Recover() (e trace.Event, reinit bool) {
	if !l.Reinitialize {
		return trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Status: StatusNotFound,
			Note: "The client takes the 404 as the calls' failure and re-issues nothing (client.policy.reinitializeOnNotFound: false; anthropics/claude-code#83404): the work in flight is lost."}, false
	}
	l.Recovering = true
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, Status: StatusNotFound,
		Note: "The client meets 404 (session " + l.Client + " not found): it initializes again and will re-issue what was in flight once, with the same ids and keys."}, true
}

// InitializeNote, ResultNote, InitializedNote and ReissueNote are the
// notes of the handshake's messages and of a re-issued request.
func InitializeNote(id string) string {
	return "The client opens the 2025-11-25 lifecycle: initialize (request " + id + ")."
}

// ResultNote: see [InitializeNote]; sess is the session id assigned ("" on stdio).
func ResultNote(sess string) string {
	if sess == "" {
		return "The server answers initialize with its revision, capabilities and name."
	}
	return "The server answers initialize and assigns Mcp-Session-Id " + sess + "."
}

// InitializedNote: see [InitializeNote].
func InitializedNote() string {
	return "The client sends notifications/initialized before any other request."
}

// ReissueNote: see [InitializeNote].
func ReissueNote(id string) string {
	return "The client re-issues request " + id + " in the new session, once, with the same id (and idempotency key)."
}

// RejectNote is the note of the server rejecting request id before it
// applied notifications/initialized.
func RejectNote(id string) string {
	return "The server has acknowledged notifications/initialized but not applied it yet (server.policy.asyncInitialized; tachyonmcp/tachyon#11): it rejects request " + id + "."
}
