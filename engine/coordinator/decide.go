package coordinator

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The client's decisions (SCENARIO.md, "The client decides when it gives
// up, retries and resumes"): when it retries a call that ended for it
// (client.policy.retry), and the broken clients of the field: one that
// gives up without telling the server, one that keeps waiting after its
// own cancel, one whose cancel waits for the response stream to speak.

// Ending is how the call ended for the client, as client.policy.retry.on
// names it: scenario.RetryOnTimeout (its idle or maximum timeout),
// scenario.RetryOnDisconnect (its stream broke under it),
// scenario.RetryOnError (the server answered with a JSON-RPC error), or ""
// when nothing the policy retries ended it: a result (a call that got its
// answer is never retried), the client's own cancel, a torn-down session
// (the server was not at fault), or a call still pending.
func (c *Client) Ending() string {
	switch {
	case c.Outcome == trace.OutcomeError && c.Cause != trace.CauseSessionTeardown:
		return scenario.RetryOnError
	case c.Outcome != trace.OutcomeAbandoned:
		return ""
	case c.Cause == trace.CauseIdleTimeout || c.Cause == trace.CauseMaxTimeout:
		return scenario.RetryOnTimeout
	case c.Cause == trace.CauseDisconnect:
		return scenario.RetryOnDisconnect
	}
	return ""
}

// Retry is a retry the retry policy sends (client.policy.retry): the N-th
// (from 1) of its call, under ID ("<root>-r<N>"), DelayMs after the call
// ended, with progress token Token ("<token>-r<N>", nil when the call had
// none), arguments Args (RetryArguments) and the note of its send.
type Retry struct {
	N       int
	ID      scenario.ID
	DelayMs int64
	Token   *scenario.ID
	Args    json.RawMessage
	Note    string
}

// PlanRetry is the retry policy p deciding, once, on request id (as
// notes say it), which has just ended for the client as c says: a retry of
// root (the call a call step sent, whose id, arguments and token a retry
// derives from), *done retries of it made so far (counted up when ok), or
// ok false when it sends none: no policy, an ending p does not retry
// (Ending: never a result), p.Max reached, or c decided already (a late
// response to a call that timed out is no second ending). effect is the
// call's side effect (a keyed mutation's retry note says the key goes
// along).
func (c *Client) PlanRetry(p *scenario.RetryPolicy, done *int, root scenario.ID, id string, args json.RawMessage, token *scenario.ID, effect *bool) (Retry, bool) {
	ending := c.Ending()
	if c.retryDecided || !p.Retries(ending) || *done >= p.Max {
		return Retry{}, false
	}
	c.retryDecided = true
	*done++
	r := Retry{N: *done, ID: scenario.RetryID(root, *done), DelayMs: p.DelayMs, Token: RetryProgressToken(token, *done), Args: RetryArguments(args, *done, p.SameKey)}
	_, keyed := idempotencyKey(args)
	r.Note = PolicyRetryNote(id, r.ID.String(), ending, p.DelayMs, keyed && effect != nil && *effect, !p.SameKey)
	return r, true
}

// RetryProgressToken is the progress token of a policy's n-th retry of a
// call whose token was token: "<token>-r<n>" (scenario.RetryID), nil when
// the call had none.
func RetryProgressToken(token *scenario.ID, n int) *scenario.ID {
	if token == nil {
		return nil
	}
	t := scenario.RetryID(*token, n)
	return &t
}

// RetryArguments are the arguments of a policy's n-th retry of a call
// whose arguments were args: the same, or, when sameKey is false and args
// carry an idempotencyKey string, that key replaced by "<key>-r<n>" (a
// client that mints a key per attempt: DOMAIN.md §4, the retry is a new
// intent to the ledger). The rewritten object's members are in key order.
func RetryArguments(args json.RawMessage, n int, sameKey bool) json.RawMessage {
	if sameKey {
		return args
	}
	key, ok := idempotencyKey(args)
	var m map[string]json.RawMessage
	if !ok || json.Unmarshal(args, &m) != nil {
		return args
	}
	m["idempotencyKey"], _ = json.Marshal(key + "-r" + strconv.Itoa(n)) // a string always encodes
	out, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return out
}

// PolicyRetryNote is the note of the retry policy re-sending call orig as
// id after it ended (ending, a RetryOn* value) and delayMs ms passed;
// keyed tells whether the call carries an idempotency key, fresh whether
// the retry mints a new one.
func PolicyRetryNote(orig, id, ending string, delayMs int64, keyed, fresh bool) string {
	why := "timed out"
	switch ending {
	case scenario.RetryOnError:
		why = "failed with an error"
	case scenario.RetryOnDisconnect:
		why = "lost its stream"
	}
	note := "Retry policy: request " + orig + " " + why + ", so " + strconv.FormatInt(delayMs, 10) + " ms later the client sends it again as request " + id
	switch {
	case keyed && fresh:
		return note + " with a fresh idempotency key: to the ledger that is a new intent."
	case keyed:
		return note + " with the same idempotency key."
	}
	return note + ": a new JSON-RPC id is not deduplication."
}

// Abandon is the client giving up on request id at now for cause (its
// timeout) without telling the server (client.policy.cancelOnAbandon
// false; failure abandon-silently, modelcontextprotocol/python-sdk#1458,
// openai/codex#26956): the request ends abandoned, no signal goes out,
// and on Streamable HTTP its stream stays open.
func (c *Client) Abandon(now int64, id, cause string) trace.Event {
	c.End(now, trace.OutcomeAbandoned, cause)
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeAbandon, Cause: cause,
		Note: "Policy cancelOnAbandon false: the client gives up on request " + id + " and sends no cancellation; the server is never told and works on for nobody (modelcontextprotocol/python-sdk#1458)."}
}

// AwaitAfterCancel is the client that has just cancelled request id
// keeping waiting for its response (client.policy.awaitResponseAfterCancel;
// failure await-after-cancel, openai/codex#20925): the request is pending
// again, with no deadline left to end it, so only a response that crosses
// the cancellation can. The cancellation's cause and signal stay.
func (c *Client) AwaitAfterCancel(id string) trace.Event {
	c.Outcome, c.EndedAt = trace.OutcomePending, nil
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeAwait,
		Note: "Policy awaitResponseAfterCancel: having cancelled request " + id + ", the client keeps waiting for its response; a server that honours the cancellation sends none, so the call never ends for the client (openai/codex#20925)."}
}

// HoldCancel is the client that has just cancelled request id deciding
// whether the cancellation must wait (hold): with policy
// cancelAfterFirstEvent (on), on Streamable HTTP (http), until the
// response stream has delivered its first SSE event; the headers alone do
// not count (failure cancel-blocked, modelcontextprotocol/rust-sdk#1193).
// A held cancellation (signal, what sends it) leaves the stream read, so
// that event can arrive; e is the blocked event. Hears releases it.
// Otherwise signal is left to the caller to run now.
func (c *Client) HoldCancel(on, http bool, id string, signal func()) (e trace.Event, hold bool) {
	if !on || !http || c.heard {
		return e, false
	}
	c.held, c.heldReading, c.Reading = signal, c.Reading, true
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeBlocked, Cause: c.Cause,
		Note: "Policy cancelAfterFirstEvent: the client decides to cancel request " + id + ", but its response stream has delivered no SSE event yet, so the cancellation waits for one (modelcontextprotocol/rust-sdk#1193)."}, true
}

// Hears is a delivery on the request's stream that reaches the client
// (arrive: a message or a priming event; not a keep-alive comment, not a
// message lost on a closed stream): it returns the cancellation
// HoldCancel held, to send now (once; a no-op when none), the stream then
// read as the cancellation left it.
func (c *Client) Hears(arrive bool) (release func()) {
	if !arrive || c.held == nil {
		c.heard = c.heard || arrive
		return func() {}
	}
	release, c.heard = c.held, true
	c.held, c.Reading = nil, c.heldReading
	return release
}

// idempotencyKey is the idempotencyKey string call arguments carry, ok
// false when they carry none (DOMAIN.md §4).
func idempotencyKey(args json.RawMessage) (key string, ok bool) {
	var a struct {
		Key *string `json:"idempotencyKey"`
	}
	if json.Unmarshal(args, &a) != nil || a.Key == nil {
		return "", false
	}
	return *a.Key, true
}

// SendCancel sends the cancellation of request id on its way: out, the
// signal, runs now or waits for the stream to speak (HoldCancel under
// policy cancelAfterFirstEvent, hold, on Streamable HTTP, http); then,
// under policy awaitResponseAfterCancel (await), a client the cancellation
// ended waits on (AwaitAfterCancel). It returns the events that tell it,
// in order, without ID.
func (c *Client) SendCancel(hold, http, await bool, id string, out func()) []trace.Event {
	var told []trace.Event
	if e, held := c.HoldCancel(hold, http, id, out); held {
		told = append(told, e)
	} else {
		out()
	}
	if await && !c.Pending() {
		told = append(told, c.AwaitAfterCancel(id))
	}
	return told
}

// CancelCause is the cause the server records for a cancellation this
// client sent: the client's own (a deadline's, or the server's for a
// listen stream it ended), else trace.CauseClient, an explicit cancel.
func (c *Client) CancelCause() string {
	if c.Cause != "" {
		return c.Cause
	}
	return trace.CauseClient
}
