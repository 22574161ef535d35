package coordinator

import (
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The client sending a call (DOMAIN.md §1–3, §5): the notes of a new
// request and of a retry, the retry's progress token, and the error when a
// token is reused. Ids and tokens are JSON-RPC id texts.

// CallNote is the note of the client sending request id (method, and the
// tool name for tools/call).
func CallNote(id, method, name string) string {
	return "The client sends request " + id + " (" + jsonrpc.Describe(method, name) + ")."
}

// RetryNote is the note of the client retrying request orig as a new
// request id (DOMAIN.md §5): a new JSON-RPC id is not deduplication.
func RetryNote(orig, id string) string {
	return "The client retries request " + orig + " as a new request " + id + ": a new JSON-RPC id is not deduplication."
}

// RetryToken is the progress token of retry id of a request whose token was
// token: the string "<token>-<id>" (each unquoted), so the two never share
// one (DOMAIN.md §3); nil when the request had no token.
func RetryToken(token *scenario.ID, id scenario.ID) *scenario.ID {
	if token == nil {
		return nil
	}
	t := scenario.NewStringID(jsonrpc.Unquote(token.Raw()) + "-" + jsonrpc.Unquote(id.Raw()))
	return &t
}

// CallDeadlines are the two clocks of call step st, sent at now by client
// c (DOMAIN.md §2): Timeouts picks them from c, the request a retry
// inherits them from (inherit, nil for a new call) and the step.
func CallDeadlines(now int64, c *scenario.Client, inherit *Deadlines, st scenario.Step) Deadlines {
	idle, max := Timeouts(c.IdleTimeoutMs, c.MaxTimeoutMs, inherit, st.IdleTimeoutMs, st.MaxTimeoutMs, c.Policy.Timeouts == scenario.TimeoutsNone)
	return NewDeadlines(now, idle, max, c.Policy.ProgressResetsMax)
}

// TokenInUse is the client's error when a new request reuses progress token
// token of active request other: tokens must be unique among active
// requests (DOMAIN.md §3).
func TokenInUse(token, other string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: "Progress token " + token + " is already used by active request " + other + "; tokens must be unique among active requests."}
}

// TearingDown is the client's error when it treats what as a protocol error
// and tears down the session (client.policy lateResponseIsError,
// lateProgressIsError; failure late-message-fatal,
// anthropics/claude-code#51073, modelcontextprotocol/typescript-sdk#2580):
// every call in flight on it fails with an error (Client.TearDown), its
// stream (Streamable HTTP) closed.
func TearingDown(what string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Cause: trace.CauseSessionTeardown,
		Note: "Policy: the client treats " + what + " as a protocol error and tears down the session; every call in flight on it fails."}
}

// TornDownNote is the note of the torn-down session closing request id's
// response stream.
func TornDownNote(id string) string {
	return "The torn-down session closes request " + id + "'s response stream."
}
