package jsonrpc

import (
	"encoding/json"
	"strconv"
)

// What a server refuses before it handles a request, and the GET a
// 2025-11-25 client opens a stream with (DOMAIN.md, "The two protocol
// eras"; SCENARIO.md, "The wire of each revision").

// HTTP headers of a client's GET and of a resumption (2025-11-25
// Streamable HTTP, "Listening for Messages from the Server",
// "Resumability and Redelivery").
const (
	HeaderAccept      = "Accept"
	HeaderLastEventID = "Last-Event-ID"
	// EventStream is the media type a GET accepts and an SSE stream has.
	EventStream = "text/event-stream"
)

// StatusBadRequest is the HTTP status of a 2026-07-28 refusal
// (HeaderMismatchError, UnsupportedProtocolVersionError: "For HTTP, the
// response status code MUST be 400 Bad Request"), as an event's status.
const StatusBadRequest = "400"

// Supported are the revisions the simulated 2026-07-28 server speaks, as
// UnsupportedProtocolVersionError's data.supported lists them.
var Supported = []string{Revision20260728}

// claimed is the revision the client's request for method names: for a
// tools/call Claims, else the era's own.
func (e Era) claimed(method string) string {
	if e.Claims != "" && e.Stateless() && method == MethodToolsCall {
		return e.Claims
	}
	return e.version()
}

// mismatch rewrites the header Mismatch names in h, the headers of a POST
// of method, so that it disagrees with the body, on a tools/call only (the
// lab's other requests keep their headers): MCP-Protocol-Version says
// 2025-11-25 (a client that upgraded its body, not its transport),
// Mcp-Method says tools/list, and Mcp-Name is left out (a client that does
// not write it yet; a missing required header is a mismatch too). Nothing
// for "".
func (e Era) mismatch(h map[string]string, method string) {
	if method != MethodToolsCall {
		return
	}
	switch e.Mismatch {
	case HeaderProtocolVersion:
		h[HeaderProtocolVersion] = Revision20251125
	case HeaderMethod:
		h[HeaderMethod] = "tools/list"
	case HeaderName:
		delete(h, HeaderName)
	}
}

// GetHeaders are the request headers of a 2025-11-25 client's GET on
// the MCP endpoint: Accept text/event-stream, MCP-Protocol-Version,
// Mcp-Session-Id when session is not "", and Last-Event-ID when
// lastEventID is not "" (a resumption).
func (e Era) GetHeaders(session, lastEventID string) map[string]string {
	h := map[string]string{HeaderAccept: EventStream, HeaderProtocolVersion: e.version()}
	if session != "" {
		h[HeaderSessionID] = session
	}
	if lastEventID != "" {
		h[HeaderLastEventID] = lastEventID
	}
	return h
}

// Refusal is a 2026-07-28 server's validation of request msg as it
// arrives with headers (nil on stdio), before it handles it: ok with the
// error response when it refuses it. In order (2026-07-28
// basic/transports/streamable-http, "Request Metadata" and "Server
// Validation"): on Streamable HTTP a required header (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name for tools/call, resources/read and prompts/get)
// missing, or one that disagrees with the body (_meta's protocolVersion,
// method, params.name or params.uri), is HeaderMismatchError -32020; then
// a revision the server does not implement is
// UnsupportedProtocolVersionError -32022 with data {requested, supported}.
// On Streamable HTTP both come with HTTP 400 (StatusBadRequest). Under
// 2025-11-25, for a notification and for anything unreadable: not ok.
func (e Era) Refusal(msg json.RawMessage, headers map[string]string) (json.RawMessage, bool) {
	m, err := Parse(msg)
	if !e.Stateless() || err != nil || m.Kind != Request {
		return nil, false
	}
	body := map[string]string{HeaderProtocolVersion: metaVersion(msg), HeaderMethod: m.Method, HeaderName: nameOf(msg, m.Method)}
	if headers != nil {
		for _, h := range [...]string{HeaderProtocolVersion, HeaderMethod, HeaderName} {
			v, have := headers[h]
			switch {
			case h == HeaderName && body[h] == "":
				continue // the method takes no Mcp-Name
			case !have:
				return NewError(m.ID, ErrorObject{Code: CodeHeaderMismatch, Message: "Header mismatch: required header " + h + " is missing"}), true
			case v != body[h]:
				return NewError(m.ID, ErrorObject{Code: CodeHeaderMismatch, Message: "Header mismatch: " + h + " header value " + strconv.Quote(v) + " does not match body value " + strconv.Quote(body[h])}), true
			}
		}
	}
	if v := body[HeaderProtocolVersion]; !supported(v) {
		data := Marshal(struct {
			Requested string   `json:"requested"`
			Supported []string `json:"supported"`
		}{v, Supported})
		return NewError(m.ID, ErrorObject{Code: CodeUnsupportedProtocolVersion, Message: "Unsupported protocol version: " + strconv.Quote(v), Data: data}), true
	}
	return nil, false
}

func supported(v string) bool {
	for _, s := range Supported {
		if s == v {
			return true
		}
	}
	return false
}

// metaVersion is params._meta's protocolVersion of msg, "" when absent.
func metaVersion(msg json.RawMessage) string {
	var p struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &p) != nil {
		return ""
	}
	var v string
	_ = json.Unmarshal(p.Params.Meta[MetaProtocolVersion], &v)
	return v
}

// RefusalNote is the note of a 2026-07-28 server refusing request id with
// resp (a Refusal); http: with HTTP 400.
func RefusalNote(id string, resp json.RawMessage, http bool) string {
	var r struct {
		Error ErrorObject `json:"error"`
	}
	_ = json.Unmarshal(resp, &r)
	code, status := r.Error.Code, ""
	if http {
		status = "HTTP 400 and "
	}
	if code == CodeHeaderMismatch {
		return "The server refuses request " + id + " with " + status + "HeaderMismatch (-32020): its headers disagree with its body, which proxies and gateways route on; it runs nothing."
	}
	return "The server refuses request " + id + " with " + status + "UnsupportedProtocolVersion (-32022): it does not speak the revision the request names, and lists the ones it does; it runs nothing."
}

// EraOf is the wire of revision with a client that claims claims and
// writes the header mismatch names wrong ("" for neither; Era).
func EraOf(revision, claims, mismatch string) Era {
	return Era{Revision: revision, Claims: claims, Mismatch: mismatch}
}
