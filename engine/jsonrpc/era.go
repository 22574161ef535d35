package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The wire of each protocol revision (DOMAIN.md, "The two protocol
// eras"; SCENARIO.md, "The wire of each revision"). The builders above
// write what both revisions share; [Era.Request] and [Era.Result] add what
// 2026-07-28 requires of every request and result, and [Era.PostHeaders]
// the HTTP request headers each revision requires of a POST. Under
// 2025-11-25 messages stay as that revision's schema has them.

// Protocol revisions, as their version strings.
const (
	// Revision20251125 is the stateful revision: initialize, sessions, ping.
	Revision20251125 = "2025-11-25"
	// Revision20260728 is the stateless revision: every request carries
	// its version and capabilities in params._meta.
	Revision20260728 = "2026-07-28"
)

// The params._meta and result._meta members 2026-07-28 defines
// (schema RequestMetaObject, ResultMetaObject).
const (
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// HTTP request headers of a Streamable HTTP POST (transports,
// "Streamable HTTP": protocol version header, session header; 2026-07-28
// adds the standard request headers Mcp-Method and Mcp-Name).
const (
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
)

// Lifecycle methods of 2025-11-25 (basic/lifecycle).
const (
	MethodInitialized = "notifications/initialized"
	MethodPing        = "ping"
)

// Result types of 2026-07-28 (schema ResultType; the tasks extension's
// task handle).
const (
	ResultComplete = "complete"
	ResultTask     = "task"
)

// The peers' names on the wire (schema Implementation: name and version
// required).
var (
	clientInfo = json.RawMessage(`{"name":"mcplab-client","version":"1.0.0"}`)
	serverInfo = json.RawMessage(`{"name":"mcplab-server","version":"1.0.0"}`)
)

// ClientInfo and ServerInfo are the simulated client's and server's
// Implementation objects ({"name","version"}), as initialize and the
// 2026-07-28 _meta members carry them.
func ClientInfo() json.RawMessage { return clientInfo }

// ServerInfo: see [ClientInfo].
func ServerInfo() json.RawMessage { return serverInfo }

// Era is one protocol revision's wire: Revision is Revision20251125 or
// Revision20260728 (anything else writes as 2026-07-28, the lab's
// current revision).
type Era struct {
	Revision string
	// Claims is the revision a 2026-07-28 client names in params._meta
	// and MCP-Protocol-Version when it is not Revision ("" for Revision):
	// one the server may not speak (client.policy.claimProtocolVersion).
	Claims string
	// Mismatch names the request header (HeaderProtocolVersion,
	// HeaderMethod or HeaderName) a 2026-07-28 client writes with a
	// value that disagrees with the body ("" for none;
	// client.policy.headerMismatch).
	Mismatch string
}

// Stateless reports whether the era is 2026-07-28's: no initialize, no
// sessions, every request self-describing.
func (e Era) Stateless() bool { return e.Revision != Revision20251125 }

func (e Era) version() string {
	if e.Stateless() {
		return Revision20260728
	}
	return Revision20251125
}

// Request returns the client request msg as the era writes it: under
// 2026-07-28 its params._meta gains protocolVersion, clientCapabilities
// ({}: the simulated client declares none) and clientInfo, after the
// members it has (a request without params gets params {"_meta":...});
// under 2025-11-25, and for anything that is not a request object, msg
// unchanged.
func (e Era) Request(msg json.RawMessage) json.RawMessage {
	if !e.Stateless() {
		return msg
	}
	env, ps, ok := requestParams(msg)
	if !ok || env.get("id") == nil {
		return msg
	}
	meta := json.RawMessage(`{}`)
	if m := ps.get("_meta"); m != nil {
		meta = m
	}
	ms, ok := orderedMembers(meta)
	if !ok {
		return msg
	}
	var method string
	_ = json.Unmarshal(env.get("method"), &method)
	ms = ms.add(MetaProtocolVersion, Marshal(e.claimed(method)))
	ms = ms.add(MetaClientCapabilities, json.RawMessage(`{}`))
	ms = ms.add(MetaClientInfo, clientInfo)
	ps = ps.set("_meta", ms.object())
	return env.set("params", ps.object()).object()
}

// cacheable are the methods whose 2026-07-28 results are a
// CacheableResult (ttlMs and cacheScope required).
var cacheable = [...]string{"tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read", MethodDiscover}

// Cacheable reports whether method's 2026-07-28 result carries ttlMs and
// cacheScope (schema CacheableResult).
func Cacheable(method string) bool {
	for _, m := range cacheable {
		if m == method {
			return true
		}
	}
	return false
}

// Result returns the server's response msg to a request for method with
// id (JSON text) as the era writes it: under 2026-07-28 a result gains
// resultType "complete" (unless it names one, as a task handle's "task"
// does), ttlMs 0 and cacheScope "private" for a cacheable method (the
// lab's lists may change at any step, so nothing is fresh), and
// _meta.serverInfo (a subscriptions/listen result also its
// subscriptionId, which the schema requires); an error response, the
// 2025-11-25 era and anything unreadable come back unchanged.
func (e Era) Result(method, id string, msg json.RawMessage) json.RawMessage {
	if !e.Stateless() {
		return msg
	}
	env, ok := orderedMembers(msg)
	if !ok {
		return msg
	}
	res := env.get("result")
	if res == nil {
		return msg
	}
	rs, ok := orderedMembers(res)
	if !ok {
		return msg
	}
	rs = rs.add("resultType", Marshal(ResultComplete))
	if Cacheable(method) {
		rs = rs.add("ttlMs", json.RawMessage(`0`))
		rs = rs.add("cacheScope", Marshal("private"))
	}
	meta := json.RawMessage(`{}`)
	if m := rs.get("_meta"); m != nil {
		meta = m
	}
	ms, ok := orderedMembers(meta)
	if !ok {
		return msg
	}
	ms = ms.add(MetaServerInfo, serverInfo)
	if method == MethodListen && id != "" {
		ms = ms.add(SubscriptionIDKey, json.RawMessage(id))
	}
	rs = rs.set("_meta", ms.object())
	return env.set("result", rs.object()).object()
}

// PostHeaders are the HTTP request headers of the POST that carries the
// client's msg (a request or notification): MCP-Protocol-Version on every
// one (under 2025-11-25 all but initialize, which negotiates it);
// Mcp-Session-Id when session is not "" (2025-11-25; not on initialize,
// which opens a new session); under 2026-07-28
// Mcp-Method and, for tools/call and prompts/get (params.name) and
// resources/read (params.uri), Mcp-Name. nil for msg that is not JSON-RPC.
func (e Era) PostHeaders(msg json.RawMessage, session string) map[string]string {
	m, err := Parse(msg)
	if err != nil || m.Method == "" {
		return nil
	}
	h := map[string]string{}
	if e.Stateless() || m.Method != MethodInitialize {
		h[HeaderProtocolVersion] = e.claimed(m.Method)
	}
	if session != "" && !e.Stateless() && m.Method != MethodInitialize {
		h[HeaderSessionID] = session
	}
	if e.Stateless() {
		h[HeaderMethod] = m.Method
		if name := nameOf(msg, m.Method); name != "" {
			h[HeaderName] = name
		}
		e.mismatch(h, m.Method)
	}
	return h
}

// nameOf is the Mcp-Name of a request for method: params.name of
// tools/call and prompts/get, params.uri of resources/read, "" otherwise.
func nameOf(msg json.RawMessage, method string) string {
	key := ""
	switch method {
	case MethodToolsCall, "prompts/get":
		key = "name"
	case "resources/read":
		key = "uri"
	default:
		return ""
	}
	var p struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &p) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(p.Params[key], &s) != nil {
		return ""
	}
	return s
}

// member is one member of a JSON object, its value as compact JSON text.
type member struct {
	key   string
	value json.RawMessage
}

// object is a JSON object's members in the order they were written.
type object []member

// requestParams reads msg as a request object (a "method" member): its
// members and those of its params ({} when it has none), in order; false
// when msg or its params is not an object, or msg names no method.
func requestParams(msg json.RawMessage) (env, params object, ok bool) {
	env, ok = orderedMembers(msg)
	if !ok || env.get("method") == nil {
		return object{}, object{}, false
	}
	raw := json.RawMessage(`{}`)
	if p := env.get("params"); p != nil {
		raw = p
	}
	params, ok = orderedMembers(raw)
	return env, params, ok
}

// orderedMembers reads obj (a JSON object) keeping its members' order; ok is
// false for anything that is not an object.
func orderedMembers(obj json.RawMessage) (object, bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var ms object
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		ms = append(ms, member{key, v})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	return ms, true
}

// get returns the value of key, nil when absent.
func (o object) get(key string) json.RawMessage {
	for _, m := range o {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// add appends key with value unless o has key already.
func (o object) add(key string, value json.RawMessage) object {
	if o.get(key) != nil {
		return o
	}
	return append(o, member{key, value})
}

// set replaces key's value, or appends it when absent.
func (o object) set(key string, value json.RawMessage) object {
	for i := range o {
		if o[i].key == key {
			o[i].value = value
			return o
		}
	}
	return append(o, member{key, value})
}

// object writes o as compact JSON in its order.
func (o object) object() json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(Marshal(m.key))
		b.WriteByte(':')
		var c bytes.Buffer
		if json.Compact(&c, m.value) == nil {
			b.Write(c.Bytes())
		} else {
			b.Write(m.value)
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// Post is what a client puts on the wire for msg: a request the client
// built (built; a scenario's raw message goes out as written) as
// [Era.Request] writes it, and on Streamable HTTP (http) the POST's
// headers, [Era.PostHeaders] with session, joined by those of have (which
// win: a tasks/* request's Mcp-Name is its taskId). On stdio headers is
// have unchanged.
func (e Era) Post(msg json.RawMessage, built, http bool, session string, have map[string]string) (json.RawMessage, map[string]string) {
	if built {
		msg = e.Request(msg)
	}
	if !http {
		return msg, have
	}
	h := e.PostHeaders(msg, session)
	if h == nil {
		h = map[string]string{}
	}
	for k, v := range have {
		h[k] = v
	}
	if len(h) == 0 {
		return msg, have
	}
	return msg, h
}

// CodeInvalidRequest is JSON-RPC's "Invalid Request" (JSON-RPC 2.0 §5.1),
// which a 2025-11-25 server answers a request with before its session is
// initialized.
const CodeInvalidRequest = -32600

// NewInitialize builds 2025-11-25's initialize request with id (JSON
// text): the client offers that revision, declares no capabilities and
// names itself (basic/lifecycle, "Initialization").
func NewInitialize(id string) json.RawMessage {
	return NewRequest(id, MethodInitialize, Marshal(struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}{Revision20251125, json.RawMessage(`{}`), clientInfo}))
}

// NewInitializeResult builds the server's answer to initialize id: the
// revision it agrees to, the capabilities c it declares and its name.
func NewInitializeResult(id string, c Capabilities) json.RawMessage {
	return NewResult(id, Marshal(struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ServerInfo      json.RawMessage `json:"serverInfo"`
	}{Revision20251125, c.JSON(), serverInfo}))
}

// NewInitialized builds notifications/initialized, which the client sends
// once it has the initialize result and before any other request.
func NewInitialized() json.RawMessage { return NewNotification(MethodInitialized, nil) }

// Errors 2026-07-28 defines for a request the server cannot take in its
// revision; on Streamable HTTP both come with HTTP 400 Bad Request
// (basic/transports/streamable-http, "Request Metadata").
const (
	// CodeHeaderMismatch is HeaderMismatchError: the HTTP headers
	// disagree with the body (MCP-Protocol-Version with params._meta's
	// protocolVersion, Mcp-Method with method, Mcp-Name with params.name
	// or params.uri), or a required one is missing or malformed.
	CodeHeaderMismatch = -32020
	// CodeUnsupportedProtocolVersion is UnsupportedProtocolVersionError:
	// the server does not implement the requested revision; error.data
	// holds "requested" and "supported" (the revisions it speaks).
	CodeUnsupportedProtocolVersion = -32022
)
