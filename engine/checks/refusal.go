package checks

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// RefusalNotRepeated is the rule that a request a 2026-07-28 server
// refused before handling it, for headers that disagree with its body
// (HeaderMismatch, -32020) or a revision it does not speak
// (UnsupportedProtocolVersion, -32022), is not sent again unchanged:
// the same method, name, revision and headers meet the same refusal.
// The specification tells the client to correct the request or retry
// with a revision the error's data lists as supported
// (basic/transports/streamable-http, "Backward Compatibility", "Client
// Behavior").
const RefusalNotRepeated trace.RuleID = "refusal-not-repeated"

// refusalNotRepeated applies when the server refused a request with
// -32020 or -32022: it fails at each later request of the client whose
// refusal signature (refusalKey) equals a refused one's, and passes when
// every later request changed what was refused (or none followed).
func refusalNotRepeated(v *view) (trace.Check, bool) {
	sent := map[string]int{} // request id text -> its client send event
	refused := map[string]int{}
	var refusals, repeats []int
	for i := range v.ev {
		w := v.msg(i)
		switch {
		case v.clientSends(i) && w.hasID && !w.response && w.method != "":
			key := refusalKey(v.ev[i])
			if _, ok := refused[key]; ok {
				repeats = append(repeats, v.ev[i].Seq)
			}
			if _, ok := sent[w.id]; !ok {
				sent[w.id] = i
			}
		case v.serverSends(i) && w.response && refusalCode(v.ev[i].Message) != 0:
			if j, ok := sent[w.id]; ok {
				refused[refusalKey(v.ev[j])] = i
				refusals = append(refusals, v.ev[i].Seq)
			}
		}
	}
	if len(refusals) == 0 {
		return trace.Check{}, false
	}
	if len(repeats) > 0 {
		return fail(RefusalNotRepeated, fmt.Sprintf("The client sent %d request(s) again unchanged after the server refused them for their headers or protocol version (%s): the same request meets the same 400; it must correct the headers or pick a supported revision.", len(repeats), seqList(repeats)), repeats...), true
	}
	return pass(RefusalNotRepeated, fmt.Sprintf("The server refused %d request(s) for their headers or protocol version, and the client sent none of them again unchanged.", len(refusals)), refusals...), true
}

// refusalCode is the error code of msg when it is a 2026-07-28 refusal
// (jsonrpc.CodeHeaderMismatch, jsonrpc.CodeUnsupportedProtocolVersion),
// else 0.
func refusalCode(msg json.RawMessage) int64 {
	var r struct {
		Error *jsonrpc.ErrorObject `json:"error"`
	}
	if json.Unmarshal(msg, &r) != nil || r.Error == nil {
		return 0
	}
	if c := r.Error.Code; c == jsonrpc.CodeHeaderMismatch || c == jsonrpc.CodeUnsupportedProtocolVersion {
		return c
	}
	return 0
}

// refusalKey is what a server's header and version validation reads of
// the client's request event e: its method, params.name or params.uri,
// params._meta's protocolVersion and its HTTP headers (sorted). A retry
// with a new id, progress token or idempotency key has the same key.
func refusalKey(e trace.Event) string {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string                     `json:"name"`
			URI  string                     `json:"uri"`
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal(e.Message, &m)
	parts := []string{m.Method, m.Params.Name, m.Params.URI, string(m.Params.Meta[jsonrpc.MetaProtocolVersion])}
	var hs []string
	for k, val := range e.Headers {
		hs = append(hs, strings.ToLower(k)+": "+val)
	}
	sort.Strings(hs)
	return strings.Join(append(parts, hs...), "\n")
}
