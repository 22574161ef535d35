// Package trace defines the mcplab trace format, version 1: every wire message and state change with its virtual time, a
// summary per request, and the checks evaluated on what happened.
//
// A trace is produced by the engine from a scenario, or imported from a real
// transcript (package transcript); templates draw it and checks judge it,
// without knowing which. Encoding a trace with encoding/json is deterministic: struct fields
// in declaration order, maps with sorted keys, no floats that depend on the
// platform.
//
// # Beyond version 1
//
// Version 1 of the format lists the members a trace carries; this
// package writes them all, plus the mcplab additions below. A reader that
// knows only version 1 can ignore them. Members marked "always" are
// written for every run (they have been since the first golden traces);
// the others are omitted when empty or unused.
//
// Trace:
//   - endMs: the virtual time of the last event, in ms (always).
//   - source: where an imported transcript came from ({format, side?,
//     clock, note?}, clock "ms" or "order"); omitted for a simulation.
//   - herdCompare: the same herd under every strategy, in
//     recovery.Strategies order, when the scenario sets herd.compare.
//   - skipped: [{step, reason}], the scripted steps that could not happen
//     (a completion for a request that has not reached the server, a
//     cancel of a finished request, ...), each also a skip event;
//     omitted when none.
//
// events[] (version 1 already has seq, at, actor, type, id, taskId,
// message, note and headers):
//   - from, to: the ends of a wire message (send, deliver, close-stream).
//   - wire: numbers a wire message from 1; its send and deliver share it.
//   - eventId: under 2025-11-25 on Streamable HTTP, the SSE event id of
//     the message (or of a stream's priming event, which carries no
//     message), repeated on a replay of it after Last-Event-ID.
//   - sentAt: on a deliver event, when the message left (ms).
//   - signal: "close-stream" on a stream close and its delivery.
//   - httpMethod: "GET" on a client's Streamable HTTP request that is not
//     a POST (2025-11-25: the GET that opens a listen stream, or resumes
//     a stream with Last-Event-ID) and on its delivery; absent on a POST.
//   - status: the new state on a status event; cause: why, on timeout and
//     status events.
//   - key, fingerprint: on ledger events, the idempotency key and the
//     SHA-256 of the canonical arguments.
//   - restarts: on an activity event, the client's deadline clocks the
//     progress restarted ("idle", "max" or "idle max"); absent when it
//     restarted none (the request has no idle clock, DOMAIN.md §2).
//   - Event types beyond version 1's list: start, activity, accept
//     (request lifecycle), enqueue (SSE buffer), hold (proxy), check, lock,
//     wait, reopen (ledger), mutate (the caller edits a result),
//     checkpoint (worker; with actor server, a handler's), acquire and
//     release (a handler's resource, named by resource; a handler waiting
//     for one is a wait event with resource), skip (a scripted step that
//     could not happen, with step, its index) and prime (a 2025-11-25 stream's priming event;
//     its delivery carries signal "prime"). Under 2025-11-25 enqueue also
//     marks an event the server keeps in its event store while the stream
//     is closed, and reconnect a stream resumed with Last-Event-ID.
//
// requests[] (version 1 has id, method, state, cause, reason, signal,
// response, clientOutcome, retryClass):
//   - name: the tool name of a tools/call.
//   - sentAt: when the client sent it, ms (always); endedAt: when the client
//     stopped waiting (result, error or abandonment), null while pending
//     (always).
//   - retryOf: the request a retry step sent again.
//   - hints: the call's annotations as advertised, untrusted.
//   - idleTimeoutMs, maxTimeoutMs: the client's deadlines for it, ms.
//   - wastedWorkMs: the handler's work between a cancellation's arrival
//     and the checkpoint that observed it, ms; omitted when 0.
//   - outcome: the engine's decision of what happened to it, from both
//     sides (an Outcome: "cancellation-wins", "completion-wins", ...);
//     views draw it and never decide it again (always).
//   - clientStates, serverStates: the intervals of its states as each side
//     saw them, [{at, state}...], each holding from its at until the next
//     one's (always; serverStates is empty when the trace shows nothing of
//     the server's handling).
//
// Elsewhere:
//   - checks[].events: the seqs of the events that violate the rule (or
//     prove it).
//   - ledger.log: the executions in order; ledger.records[].replica: the
//     database a record lives in when replicas do not share one.
//   - buffers[]: policy and droppedFinals (always).
//   - herd: besides attempts, peakPerBucket, allReconnectedAtMs and buckets,
//     strategy, clients, peakAdmittedPerSecond, reconnected, exhausted,
//     bucketMs, capacityPerSecond, admitted and sample (always, when there is
//     a herd).
//
// reconnects[].previousId and newId are strings: the listen request's id
// without JSON quotes, and that plus "-retry".
package trace

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/scenario"
)

// Skip is an entry of Trace.Skipped: steps[Step] could not happen, and
// Reason says why (the note of its skip event).
type Skip struct {
	Step   int    `json:"step"`
	Reason string `json:"reason"`
}

// Task statuses (DOMAIN.md §6; the tasks extension).
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Terminal reports whether status can never change again: a task status
// completed, failed or cancelled (DOMAIN.md §6), which are also the
// terminal request states (StateCompleted, StateFailed, StateCancelled).
func Terminal(status string) bool {
	return status == TaskCompleted || status == TaskFailed || status == TaskCancelled
}

// HTTPGet is the HTTP method of the client's request that opens or
// resumes an SSE stream without a JSON-RPC body (2025-11-25 Streamable
// HTTP, "Listening for Messages from the Server", "Resumability and
// Redelivery"): Event.HTTPMethod.
const HTTPGet = "GET"

// Signals: how a cancellation travels, and what a delivery without a
// message carried.
const (
	SignalNotification = "notifications/cancelled"
	SignalCloseStream  = "close-stream"
	// SignalKeepalive marks the delivery of an SSE keep-alive comment.
	SignalKeepalive = "keepalive"
	// SignalPrime marks the delivery of a priming event (TypePrime).
	SignalPrime = "prime"
)

// Request states, causes and client outcomes (SCENARIO.md, requests[]).
const (
	StateInProgress = "in-progress"
	StateCompleted  = "completed"
	StateFailed     = "failed"
	StateCancelled  = "cancelled"

	CauseClient      = "client"
	CauseIdleTimeout = "idle-timeout"
	CauseMaxTimeout  = "max-timeout"
	CauseDisconnect  = "disconnect"
	CauseServer      = "server"
	// CauseSessionTeardown: the client tore its session down after treating
	// a late message as a protocol error (DOMAIN.md §11 late-message-fatal);
	// the calls in flight on it failed with it.
	CauseSessionTeardown = "session-teardown"

	OutcomeResult    = "result"
	OutcomeError     = "error"
	OutcomeAbandoned = "abandoned"
	OutcomePending   = "pending"

	RetrySafe        = "safe"
	RetryConditional = "conditional"
	RetryUnsafe      = "unsafe"
)

// Trace is the engine's output for one scenario.
type Trace struct {
	Mcplab int `json:"mcplab"` // format version, 1
	// Scenario is the input, normalized with defaults; nil for an imported
	// transcript.
	Scenario   *scenario.Scenario `json:"scenario"`
	Events     []Event            `json:"events"`
	Requests   []Request          `json:"requests"`
	Ledger     Ledger             `json:"ledger"`
	Tasks      []Task             `json:"tasks"`
	Buffers    []Buffer           `json:"buffers"`
	Reconnects []Reconnect        `json:"reconnects"`
	// Herd is the reconnect-herd experiment's result, null when the
	// scenario has none.
	Herd *HerdResult `json:"herd"`
	// HerdCompare holds the same herd under every strategy (in
	// recovery.Strategies order) when the scenario asks to compare.
	HerdCompare []HerdResult `json:"herdCompare,omitempty"`
	Checks      []Check      `json:"checks"`
	// EndMs is the virtual time of the last event, in ms.
	EndMs int64 `json:"endMs"`
	// Source describes an imported transcript; nil for a simulation.
	Source *Source `json:"source,omitempty"`
	// Skipped lists the scripted steps that could not happen, in the
	// order their skip events occur; omitted when none.
	Skipped []Skip `json:"skipped,omitempty"`
}

// Source says where an imported trace came from and how far it can be
// trusted: its format, the side that wrote a one-sided log, and whether
// times are milliseconds ("ms") or only an order ("order").
type Source struct {
	Format string `json:"format"`
	Side   string `json:"side,omitempty"`
	Clock  string `json:"clock"`
	Note   string `json:"note,omitempty"`
	// Observer is who recorded the transcript: ObserverClient,
	// ObserverServer (the server's own log, or both sides' logs) or
	// ObserverWire (an intermediary: a proxy, a tee, a capture). Checks
	// judge only what that observer could see.
	Observer string `json:"observer,omitempty"`
	// Transport and Protocol are inferred from initialize and HTTP headers
	// (or given), "" when unknown.
	Transport string `json:"transport,omitempty"`
	Protocol  string `json:"protocol,omitempty"`
	// ProtocolFrom says where Protocol was read, as the words after
	// "from": "the header line" (the lab's JSON Lines), "the
	// MCP-Protocol-Version header (HAR entry 1)" or "the server's answer
	// to initialize (line 3)"; "" when Protocol is "".
	ProtocolFrom string `json:"protocolFrom,omitempty"`
	// LatencyMs is the path's round trip as the observer saw it (the slowest
	// answered initialize or ping, or given), 0 when unknown: a client or
	// wire view cannot order a cancellation and a response closer than that.
	LatencyMs int64 `json:"latencyMs,omitempty"`
	// IdleTimeoutMs is the client's idle timeout per request as the user
	// stated it (a server's or a wire's log cannot show it), 0 when not
	// stated: progress-resets-idle judges the client's cancellations
	// against it.
	IdleTimeoutMs int64 `json:"idleTimeoutMs,omitempty"`
	// Zone is the time zone a log's local times (without a zone, as VS
	// Code writes them) were read in: "UTC" by default or the one given;
	// "" when its times carry their zone or it has none.
	Zone string `json:"zone,omitempty"`
}

// Observers of an imported transcript (Source.Observer).
const (
	ObserverClient = "client"
	ObserverServer = "server"
	ObserverWire   = "wire"
)

// Event is one thing that happened at one virtual time. Seq is its index in
// Events; events are ordered by (At, order scheduled).
type Event struct {
	Seq   int       `json:"seq"`
	At    int64     `json:"at"` // virtual ms
	Actor Actor     `json:"actor"`
	Type  EventType `json:"type"`
	// ID is the JSON-RPC id of the request the event concerns, if any.
	ID *scenario.ID `json:"id,omitempty"`
	// TaskID is the durable task the event concerns, if any.
	TaskID string `json:"taskId,omitempty"`
	// From and To are the ends of a wire message (send, deliver, close-stream).
	From Actor `json:"from,omitempty"`
	To   Actor `json:"to,omitempty"`
	// Wire numbers a wire message from 1; its send and deliver share it.
	Wire int `json:"wire,omitempty"`
	// EventID is the SSE event id a 2025-11-25 server gave the message on
	// its stream (the cursor Last-Event-ID names), on its send and deliver
	// events and on every replay of it; "" when none.
	EventID string `json:"eventId,omitempty"`
	// SentAt, on a deliver event, is when the message left (ms).
	SentAt *int64 `json:"sentAt,omitempty"`
	// Signal is "close-stream" on a stream close and its delivery.
	Signal string `json:"signal,omitempty"`
	// Status is the new state on a status event.
	Status string `json:"status,omitempty"`
	// Cause is why, on timeout and status events (a Cause* value).
	Cause string `json:"cause,omitempty"`
	// Restarts, on an activity event, names the client's deadline clocks
	// the progress restarted (Restarts*); "" when it restarted none: valid
	// progress for a request without an idle clock is activity that resets
	// nothing (DOMAIN.md §2), so a view labels it "activity", not "idle
	// reset".
	Restarts string `json:"restarts,omitempty"`
	// HTTPMethod is the HTTP method of a Streamable HTTP request that is
	// not a POST: HTTPGet on the client's GET that opens a 2025-11-25
	// listen stream or resumes a stream with Last-Event-ID (and on its
	// delivery); "" on a POST and on stdio.
	HTTPMethod string `json:"httpMethod,omitempty"`
	// Headers are the HTTP response headers on the event that opens a
	// Streamable HTTP response stream, and the request headers on a
	// client's POST or GET.
	Headers map[string]string `json:"headers,omitempty"`
	// Message is the exact JSON on the wire, when there is one.
	Message json.RawMessage `json:"message,omitempty"`
	// Key and Fingerprint, on ledger events, are the call's idempotency key
	// ("" for none) and the SHA-256 of its canonical arguments.
	Key         string `json:"key,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	// Note is one plain sentence saying what happened and why.
	Note string `json:"note,omitempty"`
	// Within, on an event imported from a HAR, is the HTTP exchange it
	// streamed in: a HAR times each exchange, not each event of a response
	// stream, so the event happened somewhere in [From, To] and At (the
	// exchange's end) is only where it is drawn. Nil when At is exact.
	Within *Span `json:"within,omitempty"`
	// Session labels the session of an imported transcript the event
	// belongs to when it holds more than one (the Mcp-Session-Id header, or
	// "session 2" for a bridge's second initialize); "" otherwise.
	Session string `json:"session,omitempty"`
	// Line, on an event imported from a transcript, is where it was read:
	// the 1-based line of the transcript (for an HTTP dump, the line its
	// exchange starts on), or for a HAR (Source.Format "har") the 1-based
	// number of its entry; a send and its delivery read from one line
	// share it. 0 for a simulated event and for one the importer derived
	// rather than read (the server's status once its log shows it read a
	// cancellation). Pages cite it, not Seq, to a reader of the pasted
	// file.
	Line int `json:"line,omitempty"`
	// Resource, on acquire, release and wait events of a handler, names
	// the resource it holds or waits for (server.handlers.*.holds).
	Resource string `json:"resource,omitempty"`
	// Step, on a skip event, is the index of the scripted step that could
	// not happen.
	Step *int `json:"step,omitempty"`
}

// Span is an interval of virtual time [From, To], in ms.
type Span struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// Request summarizes one JSON-RPC request sent by the client.
type Request struct {
	ID     scenario.ID `json:"id"`
	Method string      `json:"method"`
	Name   string      `json:"name,omitempty"` // tool name for tools/call
	// State is the server's one terminal state (or in-progress).
	State string `json:"state"`
	// Cause is why a cancellation was attempted (Cause*), null if none.
	Cause *string `json:"cause"`
	// Reason is the reason carried by the cancellation, null if none.
	Reason *string `json:"reason"`
	// Signal is how the cancellation travelled (Signal*), null if none.
	Signal *string `json:"signal"`
	// Response is the final message the server put on the wire for this
	// request, null if it sent none.
	Response json.RawMessage `json:"response"`
	// ClientOutcome is what the client made of it (Outcome*).
	ClientOutcome string `json:"clientOutcome"`
	// RetryClass is safe, conditional or unsafe (DOMAIN.md §5).
	RetryClass string `json:"retryClass"`
	// SentAt is when the client sent it; EndedAt when the client stopped
	// waiting (result, error or abandonment), null while pending. ms.
	SentAt  int64  `json:"sentAt"`
	EndedAt *int64 `json:"endedAt"`
	// Hints are the tool's annotations as advertised: shown, never trusted.
	Hints json.RawMessage `json:"hints,omitempty"`
	// RetryOf is the request this one retries with a new JSON-RPC id.
	RetryOf *scenario.ID `json:"retryOf,omitempty"`
	// IdleTimeoutMs and MaxTimeoutMs are the client's deadlines for it, 0 = none.
	IdleTimeoutMs int64 `json:"idleTimeoutMs,omitempty"`
	MaxTimeoutMs  int64 `json:"maxTimeoutMs,omitempty"`
	// WastedWorkMs is the handler's work between the cancellation's
	// arrival at the server and the checkpoint that observed it (all the
	// work after the arrival when the handler ignores cancellations), ms;
	// omitted when 0.
	WastedWorkMs int64 `json:"wastedWorkMs,omitempty"`
	// Outcome is what happened to the request, decided from both sides'
	// views of it (coordinator.Decide): who won the cancellation race, or
	// how the client's view and the server's differ, else the server's
	// state. Views draw it; they never decide it again.
	Outcome Outcome `json:"outcome"`
	// ClientStates are the request's states as the client saw them
	// (Client*), from its send: each holds from its At until the next
	// one's, the last to the end of the run.
	ClientStates []StateChange `json:"clientStates"`
	// ServerStates are the request's states as the server's handling
	// shows them (State*: in-progress from its start, then the status it
	// ended in); empty when the trace shows none of it (a client's log).
	ServerStates []StateChange `json:"serverStates"`
}

// StateChange is one interval of a request's states: State holds from At
// (virtual ms) until the next change's At.
type StateChange struct {
	At    int64  `json:"at"`
	State string `json:"state"`
}

// Outcome is a request's outcome as the engine decides it
// (requests[].outcome), read from both sides: not the client's own
// outcome (clientOutcome, Outcome{Result,Error,Abandoned,Pending}) nor
// the server's state alone.
type Outcome string

// Outcomes of a request (requests[].outcome). The last four are the
// server's state, when neither a race nor a disagreement between the two
// sides has more to say.
const (
	// OutcomeCancellationWins: a cancellation signal was sent and the
	// server cancelled the request (DOMAIN.md §1, the race).
	OutcomeCancellationWins Outcome = "cancellation-wins"
	// OutcomeCompletionWins: the client cancelled (or decided to, after
	// its answer had come) and the server completed the request anyway.
	OutcomeCompletionWins Outcome = "completion-wins"
	// OutcomeTimedOut: the client's idle or maximum timeout gave up on a
	// request the server then completed.
	OutcomeTimedOut Outcome = "timed-out"
	// OutcomeClientError: the server completed the request, the client
	// got an error (a session torn down under it).
	OutcomeClientError Outcome = "client-error"
	// OutcomeNeverDelivered: the server completed the request, its answer
	// never reached the client, which still waits.
	OutcomeNeverDelivered Outcome = "never-delivered"
	// OutcomeCompletedUnseen: a server's own log shows the request
	// completed and cannot show whether the client got it.
	OutcomeCompletedUnseen Outcome = "completed-unseen"
	// OutcomeCancelledClientWaits: the server cancelled the request and its
	// client still waits: nothing of the cancellation reached the client's
	// view of the call (a cancellation sent raw, outside it), so the call
	// never ends for it.
	OutcomeCancelledClientWaits Outcome = "cancelled-client-waits"
	// OutcomeCompletedAbandoned: the server completed the request after
	// the client had let it go without cancelling it.
	OutcomeCompletedAbandoned Outcome = "abandoned"
	OutcomeInProgress         Outcome = StateInProgress
	OutcomeCompleted          Outcome = StateCompleted
	OutcomeFailed             Outcome = StateFailed
	OutcomeCancelled          Outcome = StateCancelled
)

// Client states of a request (requests[].clientStates).
const (
	// ClientWaiting: sent, no answer yet.
	ClientWaiting = "waiting"
	// ClientResult and ClientError: the final response arrived and the
	// client accepted it.
	ClientResult = "result"
	ClientError  = "error"
	// ClientTimedOut: the client's idle or maximum timeout gave up on it
	// (the request's cause says which).
	ClientTimedOut = "timed-out"
	// ClientCancelled: the client gave up and sent a cancellation signal.
	ClientCancelled = "cancelled"
	// ClientDisconnected: its stream broke and the client gave it up.
	ClientDisconnected = "disconnected"
	// ClientAbandoned: the client let it go and signalled nothing.
	ClientAbandoned = "abandoned"
)

// Deadline clocks an activity event restarted (Event.Restarts).
const (
	RestartsIdle    = "idle"
	RestartsMax     = "max"
	RestartsIdleMax = "idle max"
)

// Ledger summarizes the idempotency ledger (DOMAIN.md §4), read back from
// the database at the end of the run.
type Ledger struct {
	// Executions counts the side effects that ran, over every replica.
	Executions int            `json:"executions"`
	Records    []LedgerRecord `json:"records"`
	// Log lists the executions {"n","tool","receipt","args","at"}.
	Log []json.RawMessage `json:"log,omitempty"`
}

// LedgerRecord is one committed idempotency record.
type LedgerRecord struct {
	Key         string          `json:"key"`
	Fingerprint string          `json:"fingerprint"` // SHA-256 hex of the canonical arguments
	Result      json.RawMessage `json:"result"`
	// Replica is the database it lives in when replicas do not share one.
	Replica int `json:"replica,omitempty"`
}

// RuleID is a rule's stable id, as checks[].rule names it (SCENARIO.md,
// Trace: checks[]; "Rules these add"). Package checks owns the ids, one
// constant each (checks.Rules describes them); the type lives here, beside
// Check, because checks imports trace and not the other way round. It is a
// string type, so a check encodes as it always has.
type RuleID string

// Check is one rule of DOMAIN.md evaluated on the trace's events.
type Check struct {
	Rule RuleID `json:"rule"` // stable id, e.g. "no-message-after-cancel"
	// OK is true (holds), false (violated) or null (the trace cannot decide;
	// Detail says why).
	OK     *bool  `json:"ok"`
	Detail string `json:"detail"`
	// Events are the seqs of the events that violate the rule (or prove it).
	Events []int `json:"events,omitempty"`
}

// Reconnect is what the client did after a listen stream dropped
// (DOMAIN.md §9): the reference plan plus the backoff delays it waited (ms).
type Reconnect struct {
	PreviousID          string   `json:"previousId"`
	NewID               string   `json:"newId"`
	SendLastEventID     bool     `json:"sendLastEventId"`
	Refetch             []string `json:"refetch"`
	RetryUnsafeMutation bool     `json:"retryUnsafeMutation"`
	DelaysMs            []int64  `json:"delaysMs"`
}

// Buffer summarizes the server's SSE buffer of one response stream
// (DOMAIN.md §7). Depth is [[at ms, events held]...], one point per change.
type Buffer struct {
	Stream          scenario.ID `json:"stream"`   // the request whose response stream it is
	Capacity        int         `json:"capacity"` // 0 = unbounded
	Policy          string      `json:"policy"`
	MaxDepth        int         `json:"maxDepth"`
	DroppedProgress int         `json:"droppedProgress"`
	Coalesced       int         `json:"coalesced"`
	DroppedFinals   int         `json:"droppedFinals"`
	NeedsRefetch    bool        `json:"needsRefetch"`
	FinalsDelivered int         `json:"finalsDelivered"`
	Depth           [][2]int64  `json:"depth"`
}

// Task summarizes a durable task (DOMAIN.md §6). History is [[at ms,
// status]...]; Status is the last one.
type Task struct {
	TaskID          string   `json:"taskId"`
	Status          string   `json:"status"`
	CancelRequested bool     `json:"cancelRequested"`
	History         [][2]any `json:"history"`
}

// HerdDraw is one reconnect attempt of a sampled client.
type HerdDraw struct {
	Attempt  int      `json:"attempt"`
	WindowMs [2]int64 `json:"windowMs"` // the range the delay was drawn from
	DelayMs  int64    `json:"delayMs"`
	AtMs     int64    `json:"atMs"` // when the attempt reached the server
	Admitted bool     `json:"admitted"`
}

// HerdSample is the full history of one of the first clients.
type HerdSample struct {
	ClientID string     `json:"clientId"`
	Draws    []HerdDraw `json:"draws"`
}

// HerdResult is the herd summary of a trace (SCENARIO.md, herd), computed
// by package recovery. Times in ms.
type HerdResult struct {
	Strategy string `json:"strategy"`
	Clients  int    `json:"clients"`
	// Attempts counts every reconnect attempt that reached the server.
	Attempts int `json:"attempts"`
	// PeakPerBucket is the most attempts in one bucket of BucketMs.
	PeakPerBucket int `json:"peakPerBucket"`
	// PeakAdmittedPerSecond is the most reconnects admitted in one second;
	// never above the capacity.
	PeakAdmittedPerSecond int `json:"peakAdmittedPerSecond"`
	// Reconnected clients were admitted; Exhausted ones used every attempt.
	Reconnected int `json:"reconnected"`
	Exhausted   int `json:"exhausted"`
	// AllReconnectedAtMs is when the last client was admitted, null if any
	// client exhausted its attempts.
	AllReconnectedAtMs *int64 `json:"allReconnectedAtMs"`
	BucketMs           int64  `json:"bucketMs"`
	CapacityPerSecond  int    `json:"capacityPerSecond"`
	// Buckets are [bucket start, attempts] for every bucket up to the last
	// attempt; Admitted likewise counts admitted reconnects.
	Buckets  [][2]int64 `json:"buckets"`
	Admitted [][2]int64 `json:"admitted"`
	// Sample holds the first clients' draws, for the backoff chart.
	Sample []HerdSample `json:"sample"`
}
