package trace

// Actor is the lane an event belongs to (SCENARIO.md, Trace: events[].actor),
// and an end of a wire message (Event.From, Event.To). It is a string
// type, so an event encodes as it always has.
type Actor string

// Actors (SCENARIO.md, Trace: events[].actor).
const (
	// ActorClient: the MCP client (its requests, cancellations, timeouts).
	ActorClient Actor = "client"
	// ActorNetwork: the path between the two sides (deliveries, drops,
	// disconnects).
	ActorNetwork Actor = "network"
	// ActorProxy: an intermediary on the path, buffering or closing
	// streams (DOMAIN.md §8).
	ActorProxy Actor = "proxy"
	// ActorServer: the MCP server and its handlers.
	ActorServer Actor = "server"
	// ActorWorker: a durable task's worker (DOMAIN.md §6).
	ActorWorker Actor = "worker"
	// ActorLedger: the idempotency ledger (DOMAIN.md §4).
	ActorLedger Actor = "ledger"
)

// EventType is what an event records (SCENARIO.md, Trace: events[].type,
// and the types beyond version 1 in this package's doc). It is a string
// type, so an event encodes as it always has.
type EventType string

// Event types used by the request lifecycle (SCENARIO.md lists the public
// set; more may be added).
const (
	// TypeSend: an actor put Message on the wire (From → To), Wire numbers it.
	TypeSend EventType = "send"
	// TypeDeliver: the network handed wire message Wire to To at At; SentAt
	// is when it left. Message is repeated; a stream close has Signal
	// "close-stream" and no Message.
	TypeDeliver EventType = "deliver"
	// TypeCloseStream: the client closed a request's HTTP response stream
	// (the 2026-07-28 cancellation signal), or the network did (disconnect).
	TypeCloseStream EventType = "close-stream"
	// TypeStart: the server began handling a request.
	TypeStart EventType = "start"
	// TypeStatus: a request or task changed state; Status says to what.
	TypeStatus EventType = "status"
	// TypeIgnore: an actor received a message and deliberately did nothing
	// (late response, invalid or late cancellation, stale progress).
	TypeIgnore EventType = "ignore"
	// TypeSuppress: the server had something to send and did not, because
	// the request was cancelled or finished (or had no progress token).
	TypeSuppress EventType = "suppress"
	// TypeTimeout: the client's idle or maximum deadline fired; Cause says which.
	TypeTimeout EventType = "timeout"
	// TypeKeepalive: an SSE comment on an open stream; not progress.
	TypeKeepalive EventType = "keepalive"
	// TypePrime: under 2025-11-25 the server's priming event on a new
	// response stream, an SSE event with an id (eventId) and empty data,
	// no message: the client's first resume position.
	TypePrime EventType = "prime"
	// TypeDrop: a wire message lost in transit (its stream was closed).
	TypeDrop EventType = "drop"
	// TypeActivity: the client took delivered progress as activity and
	// restarted its idle clock.
	TypeActivity EventType = "activity"
	// TypeAccept: the client took a final response as the request's outcome.
	TypeAccept EventType = "accept"
	// TypeReconnect: the client reopens a dropped stream (a listen stream,
	// or under 2025-11-25 any stream, resumed with Last-Event-ID).
	TypeReconnect EventType = "reconnect"
	// TypeError: a protocol violation or a step that could not apply; Note says why.
	TypeError EventType = "error"
)

// Event types of the SSE buffer and the proxy (DOMAIN.md §7–8).
const (
	// TypeEnqueue: the server's SSE buffer took a message.
	TypeEnqueue EventType = "enqueue"
	// TypeCoalesce: newer progress for the same token replaced a buffered one.
	TypeCoalesce EventType = "coalesce"
	// TypeHold: a buffering proxy holds the bytes that reached it.
	TypeHold EventType = "hold"
	// TypeFlush: a buffering proxy releases what it held at once.
	TypeFlush EventType = "flush"
)

// Event types of the idempotency ledger (actor "ledger", DOMAIN.md §4) and
// of the caller that edits a result.
const (
	// TypeEffect: the side effect ran and committed.
	TypeEffect EventType = "effect"
	// TypeReplay: the stored result was returned, no execution.
	TypeReplay EventType = "replay"
	// TypeReject: a key reused with other arguments was refused.
	TypeReject EventType = "reject"
	// TypeLock: BEGIN IMMEDIATE took the write lock.
	TypeLock EventType = "lock"
	// TypeWait: BEGIN IMMEDIATE was refused (SQLITE_BUSY); the caller waits.
	TypeWait EventType = "wait"
	// TypeCheck: a key check in its own transaction (non-atomic).
	TypeCheck EventType = "check"
	// TypeReopen: every ledger connection closed and opened again.
	TypeReopen EventType = "reopen"
	// TypeMutate: the caller edits a result it received.
	TypeMutate EventType = "mutate"
)

// Event types of the client's decisions (SCENARIO.md, "The client decides
// when it gives up, retries and resumes"), each the visible side of a
// broken switch: a correct client's abandonment is its cancellation.
const (
	// TypeAbandon: the client gave up on a request without sending any
	// cancellation (client.policy.cancelOnAbandon false).
	TypeAbandon EventType = "abandon"
	// TypeAwait: the client cancelled a request and keeps waiting for its
	// response (client.policy.awaitResponseAfterCancel).
	TypeAwait EventType = "await"
	// TypeBlocked: the client decided to cancel a request but holds the
	// cancellation until the response stream delivers its first event
	// (client.policy.cancelAfterFirstEvent).
	TypeBlocked EventType = "blocked"
)

// Event types of durable tasks (actor "worker", DOMAIN.md §6).
const (
	// TypeCheckpoint: the worker reached a checkpoint and looked at the
	// cancel flag; with actor "server", a handler reached the checkpoint
	// that observes a cancellation (or, under handlerIgnoresCancel, passed
	// it and worked on).
	TypeCheckpoint EventType = "checkpoint"
)

// Event types of the server's handlers (actor "server"; SCENARIO.md,
// "Handlers: the server decides when work ends").
const (
	// TypeAcquire: a handler took the resource named Resource; its work
	// starts.
	TypeAcquire EventType = "acquire"
	// TypeRelease: a handler gave the resource named Resource back.
	TypeRelease EventType = "release"
)

// TypeSkip: a scripted step that could not happen (SCENARIO.md, "honest
// time"): Step is its index, ID its request (a retry's new id), Actor the
// side whose step it was, Note why. It is also an entry of Trace.Skipped.
const TypeSkip EventType = "skip"
