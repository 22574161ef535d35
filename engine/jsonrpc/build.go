package jsonrpc

import (
	"encoding/json"
	"fmt"
)

// envelope is a message as the builders write it.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *ErrorObject    `json:"error,omitempty"`
}

// ErrorObject is a JSON-RPC error (JSON-RPC 2.0 §5.1).
type ErrorObject struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Standard error codes (JSON-RPC 2.0 §5.1).
const (
	CodeInvalidParams = -32602
)

// Marshal encodes a value the builders made from valid parts; it panics
// only on a value encoding/json cannot encode, which the builders never
// make (a programming error, not bad input).
func Marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("jsonrpc: encoding %T: %v", v, err))
	}
	return b
}

// NewRequest builds a request with id (its JSON text), method and params
// (nil for none).
func NewRequest(id, method string, params json.RawMessage) json.RawMessage {
	return newEnvelope(id, method, params, nil)
}

// NewNotification builds a notification (no id).
func NewNotification(method string, params json.RawMessage) json.RawMessage {
	return newEnvelope("", method, params, nil)
}

// NewResult builds a response carrying result for request id.
func NewResult(id string, result json.RawMessage) json.RawMessage {
	return newEnvelope(id, "", nil, result)
}

// NewError builds an error response for request id.
func NewError(id string, e ErrorObject) json.RawMessage {
	return Marshal(envelope{JSONRPC: "2.0", ID: json.RawMessage(id), Error: &e})
}

// newEnvelope builds envelope{JSONRPC: "2.0", ID: id, Method: method,
// Params: params, Result: result} ("" and nil for none) as json.Marshal
// writes it.
func newEnvelope(id, method string, params, result json.RawMessage) json.RawMessage {
	return build(32+len(id)+len(method)+len(params)+len(result),
		func(w *writer) { w.envelope(id, method, params, result) },
		func() json.RawMessage {
			return Marshal(envelope{JSONRPC: "2.0", ID: json.RawMessage(id), Method: method, Params: params, Result: result})
		})
}

// cancelParams are notifications/cancelled's params (DOMAIN.md §1).
type cancelParams struct {
	RequestID json.RawMessage `json:"requestId"`
	Reason    *string         `json:"reason,omitempty"`
}

// NewCancel builds notifications/cancelled for requestID (its JSON text)
// with an optional reason (DOMAIN.md §1).
func NewCancel(requestID string, reason *string) json.RawMessage {
	return build(64+len(requestID), func(w *writer) {
		w.head("", MethodCancelled)
		w.params("requestId")
		w.raw([]byte(requestID))
		w.optionalStr("reason", reason)
		w.b = append(w.b, '}', '}')
	}, func() json.RawMessage {
		return NewNotification(MethodCancelled, Marshal(cancelParams{json.RawMessage(requestID), reason}))
	})
}

// progressParams are notifications/progress's params (DOMAIN.md §3).
type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         *float64        `json:"total,omitempty"`
	Message       *string         `json:"message,omitempty"`
}

// NewProgress builds notifications/progress for token (its JSON text)
// with value progress and optional total and message (DOMAIN.md §3).
func NewProgress(token string, progress float64, total *float64, message *string) json.RawMessage {
	return build(112+len(token), func(w *writer) {
		w.head("", MethodProgress)
		w.params("progressToken")
		w.raw([]byte(token))
		w.member("progress")
		w.float(progress)
		if total != nil {
			w.member("total")
			w.float(*total)
		}
		w.optionalStr("message", message)
		w.b = append(w.b, '}', '}')
	}, func() json.RawMessage {
		return NewNotification(MethodProgress, Marshal(progressParams{json.RawMessage(token), progress, total, message}))
	})
}

// callParams are a tools/call request's params; Meta is progressMeta's.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// progressMeta returns the _meta object that carries a progress token
// (its JSON text), or nil for "" (none).
func progressMeta(token string) json.RawMessage {
	if token == "" {
		return nil
	}
	return Marshal(struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	}{json.RawMessage(token)})
}

// NewCall builds the request a client sends for method with the
// scenario's arguments (MCP tools/call and other requests): for tools/call,
// params {"name","arguments" ({} when nil),"_meta"?}; for any other method,
// the arguments object's members plus "_meta" (none when both are absent).
// token is the progress token's JSON text, "" for none; it goes in
// params._meta.progressToken.
func NewCall(id, method, name string, args json.RawMessage, token string) json.RawMessage {
	if method == MethodToolsCall {
		if args == nil {
			args = json.RawMessage(`{}`)
		}
		return build(96+len(id)+len(name)+len(args)+len(token), func(w *writer) {
			w.head(id, MethodToolsCall)
			w.params("name")
			w.str(name)
			w.member("arguments")
			w.raw(args)
			if token != "" {
				w.b = append(w.b, `,"_meta":{"progressToken":`...)
				w.raw([]byte(token))
				w.b = append(w.b, '}')
			}
			w.b = append(w.b, '}', '}')
		}, func() json.RawMessage {
			return NewRequest(id, method, Marshal(callParams{name, args, progressMeta(token)}))
		})
	}
	var params json.RawMessage
	if meta := progressMeta(token); args != nil || meta != nil {
		p := map[string]json.RawMessage{}
		if args != nil {
			_ = json.Unmarshal(args, &p)
		}
		if meta != nil {
			p["_meta"] = meta
		}
		params = Marshal(p)
	}
	return NewRequest(id, method, params)
}

// SubscriptionIDKey is the _meta key that tags every message of a listen
// stream with its subscription id (the listen request's id).
const SubscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

// WithMeta returns params (an object, or nil for none) with
// _meta[key] = value (value is JSON text), keeping the other members and
// the other _meta members. Members come out sorted by name.
func WithMeta(params json.RawMessage, key string, value json.RawMessage) json.RawMessage {
	p := map[string]json.RawMessage{}
	_ = json.Unmarshal(params, &p)
	meta := map[string]json.RawMessage{}
	if m, ok := p["_meta"]; ok {
		_ = json.Unmarshal(m, &meta)
	}
	meta[key] = value
	p["_meta"] = Marshal(meta)
	return Marshal(p)
}

// Describe names a request as notes do: "tools/call <name>" for a tool
// call, else its method.
func Describe(method, name string) string {
	if method == "tools/call" && name != "" {
		return "tools/call " + name
	}
	return method
}

// Unquote returns the string a JSON string literal holds, or s as it is
// when s is not one (an integer id's text).
func Unquote(s string) string {
	var v string
	if json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	return s
}

// ReadPeer reads msg as the simulated peers do: a JSON-RPC object whose
// id, when present and not null, is a string or an integer; ok is false
// for anything else.
func ReadPeer(msg json.RawMessage) (m Message, ok bool) {
	m, err := Parse(msg)
	return m, err == nil && (!m.HasRealID() || m.ID != "")
}

// HasRealID reports whether m has an id that is not null (a request or a
// response, not a notification).
func (m Message) HasRealID() bool { return m.HasID && string(m.RawID) != "null" }

// Completion is the response to request id (JSON text) that a handler's
// completion sends: a result (result, or {"content":[]} when nil) or,
// when e is set, an error; failed says it is one, code its code (0 for a
// result).
func Completion(id string, result json.RawMessage, e *ErrorObject) (msg json.RawMessage, failed bool, code int64) {
	if e != nil {
		return NewError(id, *e), true, e.Code
	}
	if result == nil {
		result = json.RawMessage(`{"content":[]}`)
	}
	return NewResult(id, result), false, 0
}
