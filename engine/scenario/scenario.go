package scenario

import (
	_ "embed" // Schema
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Version is the only scenario format version this package reads ("mcplab": 1).
const Version = 1

// Protocol revisions the engine models (DOMAIN.md §1).
const (
	Protocol20260728 = "2026-07-28" // current: HTTP cancellation closes the stream
	Protocol20251125 = "2025-11-25" // previous: HTTP cancellation POSTs notifications/cancelled
)

// Transports the engine models.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "streamable-http"
)

// Values of ClientPolicy.HTTPCancel.
const (
	HTTPCancelCloseStream      = "close-stream"
	HTTPCancelPostNotification = "post-notification"
)

// Values of ClientPolicy.HeaderMismatch: the 2026-07-28 request headers
// a client can write so that they disagree with the body (2026-07-28
// Streamable HTTP, "Standard Request Headers").
const (
	HeaderMismatchProtocolVersion = "MCP-Protocol-Version"
	HeaderMismatchMethod          = "Mcp-Method"
	HeaderMismatchName            = "Mcp-Name"
)

// MaxClaimedVersionLen bounds client.policy.claimProtocolVersion: 32
// characters, room for any revision string ("2026-07-28" is 10).
const MaxClaimedVersionLen = 32

// Limits on untrusted input (SCENARIO.md, Bad input). A scenario past any of
// them is rejected with a located error before anything runs.
const (
	MaxBytes      = 1 << 20    // encoded scenario size, bytes
	MaxSteps      = 2000       // steps[] length
	MaxDurationMs = 86_400_000 // largest step time or timeout, virtual ms (one day)
	MaxTextLen    = 4096       // title, notes, reasons, names: characters
	// MinKeepaliveMs is the shortest SSE keep-alive interval: real ones are
	// seconds, and a 1 ms interval over a long timeout would write millions
	// of comments.
	MinKeepaliveMs = 50
	// MaxHerdDraws bounds herd.clients x herd.maxAttempts.
	MaxHerdDraws = 1_000_000
	// MaxHerdBuckets bounds the herd histogram: (maxAttempts+1) x capMs /
	// bucketMs.
	MaxHerdBuckets = 2000
	// MaxPayloadBytes bounds each JSON payload a step carries (call
	// arguments and annotations, complete and finish-task results, a send
	// step's message, listen filters, notify params, mutate-result's set),
	// compacted: every event that carries a payload writes it again.
	MaxPayloadBytes = 64 << 10
	// MaxAffected bounds a drop step's affected list (ids to refetch).
	MaxAffected = 1000
	// MaxProduceCount bounds the progress values of one produce step, and
	// of one handler's call (Handler.ProgressEveryMs).
	MaxProduceCount = 1000
	// MaxHandlers bounds server.handlers and server.resources, entries each.
	MaxHandlers = 100
	// MaxResourceCapacity bounds a server.resources capacity.
	MaxResourceCapacity = 1000
)

// Scenario is a decoded, validated and normalized scenario: every default is
// filled in, so encoding it gives the "scenario" member of a trace.
type Scenario struct {
	Mcplab    int     `json:"mcplab"`
	Title     string  `json:"title,omitempty"`
	Notes     string  `json:"notes,omitempty"`
	Protocol  string  `json:"protocol"`  // Protocol20260728 (default) or Protocol20251125
	Transport string  `json:"transport"` // TransportStdio (default) or TransportHTTP
	LatencyMs Latency `json:"latencyMs"`
	Client    Client  `json:"client"`
	Server    Server  `json:"server"`
	// Proxy is an HTTP intermediary between server and client, nil when
	// absent (Streamable HTTP only; DOMAIN.md §8).
	Proxy *Proxy `json:"proxy,omitempty"`
	// Buffer is the server's bounded SSE buffer per response stream, nil
	// when the server writes straight to the network (DOMAIN.md §7).
	Buffer *Buffer `json:"buffer,omitempty"`
	// Consumer is how fast the client drains a buffered stream; only with Buffer.
	Consumer *Consumer `json:"consumer,omitempty"`
	// Ledger is present when tools have side effects (charge_account,
	// reserve_inventory run against a real SQLite ledger).
	Ledger *Ledger `json:"ledger,omitempty"`
	// Herd is the reconnect-herd experiment, nil when absent.
	Herd  *Herd  `json:"herd,omitempty"`
	Steps []Step `json:"steps"`
	// Explore is the race explorer's window (SCENARIO.md, Explore), nil
	// when absent. Running ignores it, and the normalized form (a trace's
	// "scenario") leaves it out, so adding it changes no trace.
	Explore *Explore `json:"-"`
}

// Values of Herd.Strategy (SCENARIO.md, Herd experiment; package recovery
// computes each one's delays).
const (
	HerdReference    = "reference"           // DOMAIN.md §10 exactly
	HerdNone         = "none"                // constant baseMs, no growth, no jitter
	HerdFullJitter   = "full-jitter"         // uniform in [0, ceiling]
	HerdEqualJitter  = "equal-jitter"        // ceiling/2 + uniform in [0, ceiling/2]
	HerdDecorrelated = "decorrelated-jitter" // min(cap, uniform in [base, 3 x previous])
	HerdExponential  = "exponential"         // capped exponential, no jitter: lockstep waves (bug-ops/zeph#4574)
)

// HerdStrategies lists every value herd.strategy accepts, in the order a
// page offers them: the decoder accepts exactly these, and the page's
// "Backoff strategy" control offers exactly these.
var HerdStrategies = []string{HerdReference, HerdNone, HerdFullJitter, HerdEqualJitter, HerdDecorrelated, HerdExponential}

// Herd configures the reconnect-herd experiment (SCENARIO.md, Herd
// experiment; DOMAIN.md §10): Clients clients lose their listen stream at
// t=0 and reconnect by Strategy; the server admits at most
// ServerCapacityPerSecond per second and refuses the rest, who back off
// again, up to MaxAttempts attempts. Times in ms.
type Herd struct {
	Clients                 int    `json:"clients"`                 // default 10000, at most 100000
	Strategy                string `json:"strategy"`                // default "reference"
	BaseMs                  int64  `json:"baseMs"`                  // default 250
	CapMs                   int64  `json:"capMs"`                   // default 8000
	ServerCapacityPerSecond int    `json:"serverCapacityPerSecond"` // default 2000
	MaxAttempts             int    `json:"maxAttempts"`             // default 10, at most 20
	BucketMs                int64  `json:"bucketMs"`                // histogram bucket, default 100
	// Compare, when true, also runs the same herd under every strategy, so
	// a page can draw them side by side (trace.herdCompare).
	Compare bool `json:"compare,omitempty"`
	// OutageMs: the server refuses every reconnect attempted before this
	// virtual time, in ms (0..MaxDurationMs, default 0: no outage); an
	// attempt at OutageMs or later is admitted within capacity. With
	// Clients 1 a single client's retry loop can be judged
	// (NousResearch/hermes-agent#43676; rule backoff-grows).
	OutageMs int64 `json:"outageMs,omitempty"`
}

// DefaultHerd is the herd "herd": {} describes: 10,000 clients, strategy
// reference (DOMAIN.md §10), base 250 ms, cap 8,000 ms, a server admitting
// 2,000 reconnects per second, 10 attempts, 100 ms histogram buckets. A
// review that must show a herd the scenario does not configure runs this
// one and says so.
func DefaultHerd() Herd {
	return Herd{Clients: 10000, Strategy: HerdReference, BaseMs: 250, CapMs: 8000, ServerCapacityPerSecond: 2000, MaxAttempts: 10, BucketMs: 100}
}

// Latency is the one-way network delay in virtual milliseconds, each >= 0.
type Latency struct {
	Up   int64 `json:"up"`   // client → server
	Down int64 `json:"down"` // server → client
}

// Client configures the MCP client: its stable id, default request
// timeouts and its policy switches.
type Client struct {
	// ID is a stable client id (default "client-0"), used for jitter.
	ID string `json:"id"`
	// IdleTimeoutMs is the default idle timeout of a request in ms
	// (DOMAIN.md §2): how long it may go without valid progress. 0 = none.
	IdleTimeoutMs int64 `json:"idleTimeoutMs,omitempty"`
	// MaxTimeoutMs is the default maximum timeout in ms, an absolute budget
	// from the request's start that nothing resets. 0 = none.
	MaxTimeoutMs int64        `json:"maxTimeoutMs,omitempty"`
	Policy       ClientPolicy `json:"policy"`
}

// ClientPolicy holds the client's switches. The zero value of each bool is
// the correct behaviour; HTTPCancel defaults to the protocol's correct signal.
type ClientPolicy struct {
	// ReinitializeOnNotFound, false under 2025-11-25 on Streamable HTTP,
	// makes the client take a retired session's 404 as its calls' failure
	// instead of initializing again and re-issuing them
	// (anthropics/claude-code#83404). nil is the default, true.
	ReinitializeOnNotFound *bool `json:"reinitializeOnNotFound,omitempty"`
	// HTTPCancel is how a Streamable HTTP client cancels: HTTPCancelCloseStream
	// (correct under 2026-07-28) or HTTPCancelPostNotification (correct
	// under 2025-11-25).
	HTTPCancel string `json:"httpCancel"`
	// ProgressResetsMax, when true, lets progress push the maximum deadline
	// out too: hung work lives forever (DOMAIN.md §11).
	ProgressResetsMax bool `json:"progressResetsMax"`
	// AcceptNonIncreasingProgress, when true, lets a non-increasing progress
	// value reset the idle clock: a stuck server keeps a request alive.
	AcceptNonIncreasingProgress bool `json:"acceptNonIncreasingProgress"`
	// SendLastEventID, when true under 2026-07-28, makes the client try to
	// resume a dropped listen stream with Last-Event-ID instead of a new
	// request and a refetch: it resumes from state the server does not keep
	// (DOMAIN.md §9). Under 2025-11-25 resumption is the protocol's own.
	SendLastEventID bool `json:"sendLastEventId,omitempty"`
	// TreatTaskAckAsFinal, when true, makes the client's UI say "stopped" as
	// soon as tasks/cancel is acknowledged, and stop polling, while the
	// worker runs on (DOMAIN.md §6, §11).
	TreatTaskAckAsFinal bool `json:"treatTaskAckAsFinal,omitempty"`
	// LateResponseIsError, when true, makes the client treat a response for
	// a request it abandoned as a protocol error: it tears down the session
	// and every call in flight on it fails (failure late-message-fatal,
	// anthropics/claude-code#51073).
	LateResponseIsError bool `json:"lateResponseIsError,omitempty"`
	// LateProgressIsError, when true, makes the client treat progress for a
	// finished or unknown token as a protocol error, with the same teardown
	// (late-message-fatal, modelcontextprotocol/typescript-sdk#2580, anthropics/claude-code#64475).
	LateProgressIsError bool `json:"lateProgressIsError,omitempty"`
	// IgnoreProgress, when true, makes valid progress not reset the client's
	// idle clock (failure ignore-progress, leehack/mcp_dart#106).
	IgnoreProgress bool `json:"ignoreProgress,omitempty"`
	// ForgetResumeToken, when true under 2025-11-25, makes a resumed stream
	// that drops again before a new event arrives be resumed without
	// Last-Event-ID: the client forgot the position it resumed from, the
	// server replays nothing and the request hangs until its timeout
	// (failure forget-resume-token, modelcontextprotocol/typescript-sdk#2499). No effect under
	// 2026-07-28, which has no resumption.
	ForgetResumeToken bool `json:"forgetResumeToken,omitempty"`
	// Timeouts states the client's timeout policy for tools/call requests
	// (DOMAIN.md §2: a request must have idle > 0): TimeoutsRequired (every
	// call carries an idle or a maximum timeout, from the client's defaults
	// or its own), TimeoutsNone (broken: the client sends every request with
	// no timeout at all, whatever the defaults and the steps say; failure
	// no-timeout, anthropics/claude-code#69593), or "" (the default: not
	// stated). Rule request-has-timeout judges every call once a policy or
	// any timeout is stated, and does not apply to a scenario that states
	// neither (see the package doc). Omitted when "".
	Timeouts string `json:"timeouts,omitempty"`

	// The client's decisions (SCENARIO.md, "The client decides when it
	// gives up, retries and resumes"). Nil or false is correct for each.

	// Retry, when not nil, re-sends a call that ended for the client for
	// one of Retry.On (RetryPolicy). Nil: the client never retries on its
	// own (a scripted retry step still does).
	Retry *RetryPolicy `json:"retry,omitempty"`
	// CancelOnAbandon false (broken) makes the client give up on a call at
	// its timeout without telling the server: no cancellation, no closed
	// stream (failure abandon-silently, modelcontextprotocol/python-sdk#1458,
	// openai/codex#26956). Nil means true.
	CancelOnAbandon *bool `json:"cancelOnAbandon,omitempty"`
	// AwaitResponseAfterCancel, when true, makes the client keep waiting
	// for the response to a request it cancelled: the call never ends for
	// it (failure await-after-cancel, openai/codex#20925).
	AwaitResponseAfterCancel bool `json:"awaitResponseAfterCancel,omitempty"`
	// CancelAfterFirstEvent, when true on Streamable HTTP, holds the
	// client's cancellation until the request's response stream has
	// delivered its first SSE event; the headers alone do not count
	// (failure cancel-blocked, modelcontextprotocol/rust-sdk#1193).
	CancelAfterFirstEvent bool `json:"cancelAfterFirstEvent,omitempty"`
	// OmitLastEventID, when true under 2025-11-25 on Streamable HTTP, makes
	// the client resume a dropped stream with a GET that carries no
	// Last-Event-ID: the server replays nothing (failure
	// resume-without-last-event-id, modelcontextprotocol/inspector#723).
	OmitLastEventID bool `json:"omitLastEventId,omitempty"`
	// HeaderMismatch (broken when set, 2026-07-28 on Streamable HTTP)
	// names the request header the client writes so that it disagrees
	// with the body: HeaderMismatchProtocolVersion (says 2025-11-25 while
	// _meta says 2026-07-28), HeaderMismatchMethod (names another
	// method), HeaderMismatchName (left out), on the POST of every
	// tools/call (the client's other requests keep their headers). The
	// server refuses each such call with HTTP 400 and HeaderMismatch
	// (-32020) and runs nothing (2026-07-28 Streamable HTTP, "Server
	// Validation"). "" (the default) for none; no effect on stdio or under
	// 2025-11-25.
	HeaderMismatch string `json:"headerMismatch,omitempty"`
	// ClaimProtocolVersion (broken when set, 2026-07-28) is the revision
	// the client names in every tools/call's _meta and MCP-Protocol-Version
	// instead of 2026-07-28: one the server does not implement, which it
	// refuses with UnsupportedProtocolVersion (-32022, HTTP 400 on
	// Streamable HTTP) listing the ones it speaks. At most 32 characters;
	// "" or absent (the default) for the scenario's revision; no effect under
	// 2025-11-25, which negotiates its revision at initialize.
	ClaimProtocolVersion string `json:"claimProtocolVersion,omitempty"`
	// ResumeDroppedCalls false (broken) under 2025-11-25 leaves a dropped
	// tools/call stream unresumed: the call hangs (failure
	// dropped-call-not-resumed, zed-industries/zed#56775). Nil means true.
	ResumeDroppedCalls *bool `json:"resumeDroppedCalls,omitempty"`
	// SkipRefetch, when true, makes the client keep its cached lists after
	// it reopens a dropped listen stream and refetch nothing (failure
	// skip-refetch, docker/docker-agent#2244).
	SkipRefetch bool `json:"skipRefetch,omitempty"`
}

// RetryPolicy is client.policy.retry (SCENARIO.md, "The client decides
// when it gives up, retries and resumes"): a call that ended for the
// client for one of On is sent again DelayMs later under a new JSON-RPC id
// "<id>-r1", "<id>-r2", ... (RetryID; always a string), with the same
// method, arguments and per-call timeouts, a new progress token
// "<token>-r1" if it had one and, when SameKey is false, a fresh
// idempotency key "<key>-r1" (a client that mints a key per attempt). At
// most Max retries follow one call. A call that got a result is never
// retried.
type RetryPolicy struct {
	// On lists the endings that are retried, each a RetryOn* value:
	// default all three.
	On []string `json:"on"`
	// Max is how many times one call is retried: 1..MaxRetries, default 1.
	Max int `json:"max"`
	// DelayMs is the wait after the call ended, in virtual ms:
	// 0..MaxDurationMs, default 100.
	DelayMs int64 `json:"delayMs"`
	// SameKey keeps the call's idempotency key on every retry; default
	// true.
	SameKey bool `json:"sameKey"`
}

// CancelsOnAbandon reports whether the client tells the server when it
// gives up on a call (CancelOnAbandon; nil means true).
func (p *ClientPolicy) CancelsOnAbandon() bool { return On(p.CancelOnAbandon) }

// ResumesDroppedCalls reports whether, under 2025-11-25, the client
// resumes a dropped tools/call stream (ResumeDroppedCalls; nil means
// true).
func (p *ClientPolicy) ResumesDroppedCalls() bool { return On(p.ResumeDroppedCalls) }

// Values of RetryPolicy.On: how a call ended for the client.
const (
	// RetryOnTimeout: its idle or maximum timeout fired.
	RetryOnTimeout = "timeout"
	// RetryOnError: the server answered with a JSON-RPC error.
	RetryOnError = "error"
	// RetryOnDisconnect: its stream broke under it.
	RetryOnDisconnect = "disconnect"
)

// MaxRetries bounds client.policy.retry.max: 10 retries of one call.
const MaxRetries = 10

// RetryID is the id of the n-th (from 1) retry a retry policy makes of
// the call whose id is orig: the string "<orig>-r<n>", orig as a person
// reads it without quotes ("41-r1" for 41 and for "41").
func RetryID(orig ID, n int) ID {
	text := orig.Raw()
	var str string
	if json.Unmarshal([]byte(text), &str) == nil {
		text = str
	}
	return NewStringID(text + "-r" + strconv.Itoa(n))
}

// Retries reports whether p retries a call that ended for the client
// for reason (a RetryOn* value); nil p retries nothing.
func (p *RetryPolicy) Retries(reason string) bool {
	return p != nil && slices.Contains(p.On, reason)
}

// Values of ClientPolicy.Timeouts.
const (
	TimeoutsRequired = "required"
	TimeoutsNone     = "none"
)

// Server configures the MCP server.
type Server struct {
	Policy ServerPolicy `json:"policy"`
	// SSEHeaders, when false, makes the server omit the SSE response headers
	// of DOMAIN.md §8 (Cache-Control: no-cache, X-Accel-Buffering: no), so a
	// proxy buffers the stream; nil means true.
	SSEHeaders *bool `json:"sseHeaders,omitempty"`
	// PollIntervalMs is the tasks/get polling interval the server asks for
	// in the tasks it creates; 0 means the default, 500 ms.
	PollIntervalMs int64 `json:"pollIntervalMs,omitempty"`
	// KeepaliveEveryMs is the interval of SSE keep-alive comments (":\r\n")
	// on open response streams, Streamable HTTP only; 0 = none. The first
	// comes KeepaliveEveryMs after a stream opens, or after a 2025-11-25
	// resumption re-attaches it (a resumed stream restarts its keep-alive
	// as a fresh one does). Keep-alive is not progress (DOMAIN.md §8).
	KeepaliveEveryMs int64 `json:"keepaliveEveryMs,omitempty"`
	// Handlers describe the work a tools/call starts when its request
	// reaches the server, keyed by tool name, "*" for any tool not named
	// (SCENARIO.md, "Handlers"; DOMAIN.md §1, the server's side of a
	// cancellation). At most MaxHandlers; omitted when absent.
	Handlers map[string]Handler `json:"handlers,omitempty"`
	// Resources are the capacities of the named resources handlers hold
	// (Handler.Holds): 1..MaxResourceCapacity each, at most MaxHandlers
	// names; a resource a handler names and this leaves out has capacity
	// 1. Omitted when absent.
	Resources map[string]int `json:"resources,omitempty"`
}

// Handler is the work one tool's call does at the server (SCENARIO.md,
// "Handlers: the server decides when work ends"). Times are virtual ms of
// work, counted from when the handler starts: the request's arrival, or
// when it gets the resource it Holds (waiting is not work).
type Handler struct {
	// WorkMs (required, 1..MaxDurationMs) is how long the handler works;
	// then it completes with Result or fails with Error. A ledger tool's
	// side effect commits at completion.
	WorkMs int64 `json:"workMs"`
	// ProgressEveryMs (1..MaxDurationMs; 0, the default, none) sends
	// progress 1, 2, ... n at k x ProgressEveryMs of work for every k with
	// k x ProgressEveryMs < WorkMs, total n, when the request carries a
	// progress token; at most MaxProduceCount updates a call.
	ProgressEveryMs int64 `json:"progressEveryMs,omitempty"`
	// CheckpointEveryMs (0..MaxDurationMs; 0, the default: the handler
	// notices a cancellation the moment it arrives) is how often the
	// handler looks for a cancellation: every that many ms of work, and
	// always at the end of the work, before the side effect commits.
	CheckpointEveryMs int64 `json:"checkpointEveryMs,omitempty"`
	// Result is the completion's result object (default {"content": []});
	// Error, when set, makes the handler fail instead. Not both.
	Result json.RawMessage `json:"result,omitempty"`
	Error  *HandlerError   `json:"error,omitempty"`
	// Holds names a resource the handler holds from its start to its end
	// (Server.Resources gives its capacity, default 1).
	Holds string `json:"holds,omitempty"`
}

// HandlerError is the JSON-RPC error a failing handler answers with:
// Code a 32-bit integer, Message at most MaxTextLen characters.
type HandlerError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// AnyTool is the key of Server.Handlers that describes every tool without
// a handler of its own.
const AnyTool = "*"

// HandlerFor returns the handler a call of tool name runs: its own, else
// AnyTool's; ok false when neither is configured.
func (s *Server) HandlerFor(name string) (Handler, bool) {
	if h, ok := s.Handlers[name]; ok {
		return h, true
	}
	h, ok := s.Handlers[AnyTool]
	return h, ok
}

// ServerPolicy holds the server's switches; the zero value is correct.
type ServerPolicy struct {
	// RespondAfterCancel, when true, makes the server keep sending progress
	// and the response after it observed a cancellation (DOMAIN.md §11).
	RespondAfterCancel bool `json:"respondAfterCancel"`
	// DedupeBy is what the server deduplicates ledger calls by (DOMAIN.md
	// §4): "idempotency-key" (the default, "" here), "rpc-id" (broken: a
	// retry with a new JSON-RPC id runs again) or "none".
	DedupeBy string `json:"dedupeBy,omitempty"`
	// AtomicLedger false (broken) runs check-then-act in separate
	// transactions; nil means true: one BEGIN IMMEDIATE transaction.
	AtomicLedger *bool `json:"atomicLedger,omitempty"`
	// DefensiveCopy false (broken) returns the one stored result object to
	// every caller, so a caller's mutation corrupts later replays; nil = true.
	DefensiveCopy *bool `json:"defensiveCopy,omitempty"`
	// Fingerprint false (broken) skips comparing argument fingerprints, so
	// one key aliases two intents; nil = true.
	Fingerprint *bool `json:"fingerprint,omitempty"`
	// IgnoreDisconnect, when true, makes the server never observe the client
	// closing a response stream: the handler runs on, its side effects
	// happen and its writes go into a closed stream (failure
	// disconnect-unobserved, modelcontextprotocol/rust-sdk#857).
	IgnoreDisconnect bool `json:"ignoreDisconnect,omitempty"`
	// ReplayAllStreams, when true under 2025-11-25, makes the server's event
	// store replay, on a GET with Last-Event-ID, every event written after
	// it on any stream of the session, not only the resumed stream's: the
	// client gets other streams' events on this one, most of them again
	// (failure replay-other-streams, modelcontextprotocol/servers#4087). No effect under
	// 2026-07-28.
	ReplayAllStreams bool `json:"replayAllStreams,omitempty"`
	// HandlerIgnoresCancel, when true, makes the handler never observe a
	// cancellation (a swallowed CancelledError, a context never consulted):
	// its work and side effects run to the end; whether its result reaches
	// the wire still follows RespondAfterCancel (failure cancel-swallowed,
	// hahwul/gori#1103, apify/apify-mcp-server#763).
	HandlerIgnoresCancel bool `json:"handlerIgnoresCancel,omitempty"`
	// ReleaseOnCancel false (broken) makes a cancelled handler keep its
	// Holds resource (no finally): the next call that needs it waits until
	// its own client gives up (failure resource-leaked-on-cancel); nil
	// means true.
	ReleaseOnCancel *bool `json:"releaseOnCancel,omitempty"`
	// HoldNotifications, when true, makes the server's transport write a
	// request's notifications only when its handler returns (failure
	// notifications-held, mastra-ai/mastra#14782): the progress a handler
	// of server.handlers makes (scripted progress steps go out when the
	// script says); a handler stopped by a cancellation never writes what
	// was held.
	HoldNotifications bool `json:"holdNotifications,omitempty"`
	// RouteByIDOnly, when true, makes the server match responses to
	// requests by JSON-RPC id alone: two requests in flight with one id
	// get each other's answers (failure cross-wired-response,
	// modelcontextprotocol/typescript-sdk#2433,
	// modelcontextprotocol/python-sdk#3060). The second request is a raw
	// send step; on Streamable HTTP it takes over the id's route and the
	// first request's answer goes out on its stream (the duplicate's own
	// work is not simulated). Correct (false): the server refuses the
	// duplicate with -32600 on the duplicate's own stream. No effect on
	// stdio, where one pipe carries every response.
	RouteByIDOnly bool `json:"routeByIdOnly,omitempty"`
	// ReplayNothing, when true under 2025-11-25, makes the server's event
	// store unable to map a Last-Event-ID to its stream: a resumed stream
	// replays nothing (modelcontextprotocol/typescript-sdk#943).
	ReplayNothing bool `json:"replayNothing,omitempty"`
	// AsyncInitialized, when true under 2025-11-25, makes the server
	// acknowledge notifications/initialized before applying it: a request
	// sent right after it is rejected (tachyonmcp/tachyon#11).
	AsyncInitialized bool `json:"asyncInitialized,omitempty"`
}

// On reports a policy switch whose nil value means true.
func On(b *bool) bool { return b == nil || *b }

// Ledger configures the idempotency ledger (DOMAIN.md §4), present when
// tools have side effects. Replicas > 1 runs that many server replicas,
// each taking ledger calls in turn; Shared false (broken) gives each its
// own database, so a retry on another replica forgets the commit.
type Ledger struct {
	Replicas int  `json:"replicas"` // default 1, at most 8
	Shared   bool `json:"shared"`   // default true
}

// Step is one timed action of the script. Do names the verb; which other
// fields are allowed depends on it (see Verbs). Unset fields are omitted
// when encoded.
type Step struct {
	At int64 `json:"at"` // virtual ms, >= 0
	Do Verb  `json:"do"` // the verb

	ID            *ID             `json:"id,omitempty"`
	Method        string          `json:"method,omitempty"`
	Name          string          `json:"name,omitempty"`
	Arguments     json.RawMessage `json:"arguments,omitempty"`
	ProgressToken *ID             `json:"progressToken,omitempty"`
	IdleTimeoutMs *int64          `json:"idleTimeoutMs,omitempty"`
	MaxTimeoutMs  *int64          `json:"maxTimeoutMs,omitempty"`
	SideEffect    *bool           `json:"sideEffect,omitempty"`
	Reason        *string         `json:"reason,omitempty"`
	Of            *ID             `json:"of,omitempty"`
	From          string          `json:"from,omitempty"` // send: "client" (default) or "server"
	Progress      *float64        `json:"progress,omitempty"`
	Total         *float64        `json:"total,omitempty"`
	// Message is the raw JSON of a send step, or the text of a progress
	// step's message (a JSON string), or a fail step's error message.
	Message json.RawMessage `json:"message,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Code    *int64          `json:"code,omitempty"`
	// Filter is a listen step's notification filter (a JSON object such as
	// {"toolsListChanged": true, "resourceSubscriptions": ["file:///a"]}).
	Filter json.RawMessage `json:"filter,omitempty"`
	// Listen names the listen stream a notify step sends on.
	Listen *ID `json:"listen,omitempty"`
	// Params are a notify step's notification params.
	Params json.RawMessage `json:"params,omitempty"`
	// Affected lists what a drop step's client must refetch: resource URIs
	// (containing "://"), task ids written "tasks/<id>", or tool names.
	Affected []string `json:"affected,omitempty"`
	// Task, on a call, asks the server for a durable task with this id; on
	// task-get, task-cancel, checkpoint and finish-task it names the task.
	Task   string `json:"task,omitempty"`
	TaskID string `json:"taskId,omitempty"`
	// EveryMs and Count describe a produce step: Count progress values
	// (FromValue, FromValue+1, ...) every EveryMs ms, starting at At: a production
	// rate one control can change.
	EveryMs   int64    `json:"everyMs,omitempty"`
	Count     int      `json:"count,omitempty"`
	FromValue *float64 `json:"fromValue,omitempty"`
	// Annotations, on a call, are the tool's annotations as the server
	// advertises them ({"readOnlyHint": true, "idempotentHint": ...}):
	// untrusted hints shown beside the retry class, never used to decide it
	// (DOMAIN.md §5).
	Annotations json.RawMessage `json:"annotations,omitempty"`
	// Connections and Call describe a race step: Connections independent
	// ledger connections start the same Call behind a barrier.
	Connections int   `json:"connections,omitempty"`
	Call        *Step `json:"call,omitempty"`
	// Set is a mutate-result step's edit: members to overwrite in the
	// result object the caller got back for request Of.
	Set json.RawMessage `json:"set,omitempty"`
}

// ID is a JSON-RPC id or a progress token: a string or an integer, kept
// exactly as given, so 7 and "7" are different. Its value is the JSON text
// of the token (`7` or `"7"`).
type ID struct{ raw string }

// NewIntID returns the integer id n.
func NewIntID(n int64) ID { return ID{strconv.FormatInt(n, 10)} }

// NewStringID returns the string id s. Its JSON text escapes what JSON
// requires and nothing more: not <, > and & (json.Marshal's HTML escaping
// made an id a<b show as "a\u003cb" on every page and in every trace; the
// places that put an id in HTML escape it there).
func NewStringID(s string) ID {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return ID{strings.TrimSuffix(b.String(), "\n")}
}

// Raw returns the id's JSON text, e.g. `7` or `"p-7"`: what code puts
// into a JSON-RPC message or uses as a map key (7 and "7" are different
// keys, as they are different requests).
func (id ID) Raw() string { return id.raw }

// String makes an ID a fmt.Stringer for notes, errors and pages. It returns
// the same JSON text as Raw, quotes and all (7 or "7"): a reader must be
// able to tell the integer request from the string one, so an id is shown
// exactly as the wire writes it. Raw is the name code uses when it means
// the JSON; String is what %s and %v print.
func (id ID) String() string { return id.raw }

// IsZero reports whether id was never set.
func (id ID) IsZero() bool { return id.raw == "" }

// MarshalJSON writes the id exactly as it was given.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// UnmarshalJSON accepts a JSON string or integer and rejects anything else
// with ErrBadID.
func (id *ID) UnmarshalJSON(b []byte) error {
	v, err := parseID(b)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// Proxy models an HTTP intermediary (DOMAIN.md §8). It buffers a response
// stream when Buffering is on, unless it honours the server's
// "X-Accel-Buffering: no" header (HonorsNoBuffering, default true) and the
// server sends it (server.sseHeaders, default true). A buffering proxy holds
// bytes until FlushBytes are held or the stream ends. IdleCloseMs > 0 closes
// a stream through which no byte passed for that long (keep-alive comments
// count as bytes). Times in ms, sizes in bytes.
type Proxy struct {
	Buffering         bool  `json:"buffering"`
	FlushBytes        int   `json:"flushBytes"`  // default 4096
	IdleCloseMs       int64 `json:"idleCloseMs"` // 0 = never
	HonorsNoBuffering *bool `json:"honorsNoBuffering,omitempty"`
}

// Buffer configures the server's SSE buffer for each response stream
// (DOMAIN.md §7). Capacity is in events: 0 = unbounded, else >= 2 (default
// 3, the reference). Policy is "evict-progress" (default, the reference) or
// "drop-newest" (broken: a full queue refuses what comes next).
type Buffer struct {
	Capacity int    `json:"capacity"`
	Policy   string `json:"policy"`
}

// DefaultBuffer is the buffer "buffer": {} describes: capacity 3, policy
// "evict-progress", the reference (DOMAIN.md §7).
func DefaultBuffer() Buffer { return Buffer{Capacity: 3, Policy: "evict-progress"} }

// Consumer is the client draining a buffered stream: Batch events every
// DrainEveryMs ms (defaults 100 ms and 1 event).
type Consumer struct {
	DrainEveryMs int64 `json:"drainEveryMs"`
	Batch        int   `json:"batch"`
}

// Schema is the JSON Schema (draft 2020-12) of the scenario format, served
// by the site as scenario.schema.json.
//
//go:embed scenario.schema.json
var Schema []byte
