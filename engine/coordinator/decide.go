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

// NextRetry is the retry policy p deciding on a call that ended for the
// client as c says, done retries of it made so far: the number (from 1)
// of the retry it sends, and ok false when it sends none (no policy, an
// ending p does not retry, or p.Max reached).
func NextRetry(p *scenario.RetryPolicy, c *Client, done int) (n int, ok bool) {
	if !p.Retries(c.Ending()) || done >= p.Max {
		return 0, false
	}
	return done + 1, true
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
	var m map[string]json.RawMessage
	var key string
	if json.Unmarshal(args, &m) != nil || json.Unmarshal(m["idempotencyKey"], &key) != nil {
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
// and on Streamable HTTP its stream stays open. ok false when the request
// had already ended.
func (c *Client) Abandon(now int64, id, cause string) (e trace.Event, ok bool) {
	if !c.Pending() {
		return e, false
	}
	c.End(now, trace.OutcomeAbandoned, cause)
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeAbandon, Cause: cause,
		Note: "Policy cancelOnAbandon false: the client gives up on request " + id + " and sends no cancellation; the server is never told and works on for nobody (modelcontextprotocol/python-sdk#1458)."}, true
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

// CancelBlocked reports whether a client with policy cancelAfterFirstEvent
// (on) must hold its cancellation of a request: on Streamable HTTP (http)
// until the response stream has delivered its first SSE event (heard);
// the headers alone do not count (modelcontextprotocol/rust-sdk#1193).
func CancelBlocked(on, http, heard bool) bool { return on && http && !heard }

// BlockedEvent is the client deciding to cancel request id (for cause)
// but holding the cancellation until its stream first speaks (failure
// cancel-blocked).
func BlockedEvent(id, cause string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeBlocked, Cause: cause,
		Note: "Policy cancelAfterFirstEvent: the client decides to cancel request " + id + ", but its response stream has delivered no SSE event yet, so the cancellation waits for one (modelcontextprotocol/rust-sdk#1193)."}
}
