package jsonrpc

import (
	"encoding/json"
	"math"
	"testing"
)

// The builders' messages are what encoding/json writes for the same
// envelope, byte for byte (the golden traces hold them): each want is the
// builder's value (envelope, cancelParams, progressParams, callParams)
// through json.Marshal, never the fast writer. Each case mixes the parts
// the fast writer takes as they are with the ones it must hand to
// encoding/json (whitespace between tokens, HTML characters, U+2028,
// non-ASCII and control characters, exponents, -0).
func TestBuildersMatchEncodingJSON(t *testing.T) {
	refEnvelope := func(e envelope) string { return string(Marshal(e)) }
	ids := []string{`7`, `"a-1"`, `"<b&c>"`, `"q\"uote"`, `"\u2028"`, "\"\u2028\"", `-3`, `null`}
	raws := []string{`{}`, `{"a":1}`, `{"text":"x y, z: {w}"}`, `{ "a" : [1, 2] }`, `{"h":"<p>&amp;</p>"}`, "{\"s\":\"\u2029\"}",
		`{"e":"\"\\ <"}`, `[1,{"b":[true,false,null]},"\t"]`, `{"content":[{"type":"text","text":"done"}]}`, `"\u00e9"`}
	strs := []string{"", "plain text", "tab\there", `quote " and \ slash`, "<b>&", "é", "\u2028", "bad \xff"}
	floats := []float64{0, 1, -1, 1.5, 42, 1e20, 1e21, 1.5e21, 1e-6, 1e-7, 123456789.125, math.Copysign(0, -1), 0.1}

	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s:\n got  %s\n want %s", what, got, want)
		}
	}
	for _, id := range ids {
		for _, raw := range raws {
			check("NewRequest "+id+" "+raw, string(NewRequest(id, "tools/list", json.RawMessage(raw))),
				refEnvelope(envelope{JSONRPC: "2.0", ID: json.RawMessage(id), Method: "tools/list", Params: json.RawMessage(raw)}))
			check("NewResult "+id+" "+raw, string(NewResult(id, json.RawMessage(raw))),
				refEnvelope(envelope{JSONRPC: "2.0", ID: json.RawMessage(id), Result: json.RawMessage(raw)}))
			for _, name := range strs {
				for _, token := range []string{"", id} {
					params := Marshal(callParams{name, json.RawMessage(raw), progressMeta(token)})
					check("NewCall "+id+" "+name+" "+raw+" "+token, string(NewCall(id, MethodToolsCall, name, json.RawMessage(raw), token)),
						refEnvelope(envelope{JSONRPC: "2.0", ID: json.RawMessage(id), Method: MethodToolsCall, Params: params}))
				}
			}
		}
		check("NewCall without arguments", string(NewCall(id, MethodToolsCall, "crunch", nil, "")),
			refEnvelope(envelope{JSONRPC: "2.0", ID: json.RawMessage(id), Method: MethodToolsCall, Params: json.RawMessage(`{"name":"crunch","arguments":{}}`)}))
		for _, s := range append(strs, "") {
			reason := &s
			if s == "" {
				reason = nil
			}
			check("NewCancel "+id+" "+s, string(NewCancel(id, reason)),
				refEnvelope(envelope{JSONRPC: "2.0", Method: MethodCancelled, Params: Marshal(cancelParams{json.RawMessage(id), reason})}))
		}
		for _, f := range floats {
			for _, total := range []*float64{nil, &floats[4], &floats[8]} {
				for _, s := range []string{"", "half <done>", "ok"} {
					msg := &s
					if s == "" {
						msg = nil
					}
					check("NewProgress", string(NewProgress(id, f, total, msg)),
						refEnvelope(envelope{JSONRPC: "2.0", Method: MethodProgress, Params: Marshal(progressParams{json.RawMessage(id), f, total, msg})}))
				}
			}
		}
	}
	for _, m := range []string{"ping", "notifications/tools/list_changed", "a<b"} {
		for _, raw := range append(raws, "") {
			check("NewNotification "+m+" "+raw, string(NewNotification(m, json.RawMessage(raw))),
				refEnvelope(envelope{JSONRPC: "2.0", Method: m, Params: json.RawMessage(raw)}))
		}
	}
}

// The common messages take the fast writer: whitespace inside strings and
// a progress value are no reason to fall back to encoding/json.
func TestBuildersTakeTheFastPath(t *testing.T) {
	writeEnvelope := func(id, method string, params, result json.RawMessage) (json.RawMessage, bool) {
		w := newWriter(0)
		w.envelope(id, method, params, result)
		return w.b, w.ok
	}
	if _, ok := writeEnvelope(`"a-1"`, "tools/call", json.RawMessage(`{"name":"crunch","arguments":{"text":"x y"}}`), nil); !ok {
		t.Error("a plain request fell back to encoding/json")
	}
	if _, ok := writeEnvelope(`7`, "", nil, json.RawMessage(`{"content":[{"type":"text","text":"all done"}]}`)); !ok {
		t.Error("a plain result fell back to encoding/json")
	}
	if _, ok := writeEnvelope(`7`, "", nil, json.RawMessage(`{"h":"<b>"}`)); ok {
		t.Error("a result with < took the fast writer; json.Marshal escapes it")
	}
}

// plainID skips json.Valid only for ids raw would append unchanged: an id
// it accepts is valid, compact JSON with none of the characters raw
// refuses, so head writes the same bytes either way (the
// WebAssembly ratio: one json.Valid less per message).
func TestPlainIDOnlyForWhatRawAppendsUnchanged(t *testing.T) {
	for _, c := range []struct {
		id    string
		plain bool
	}{
		{"7", true}, {"0", true}, {"-12", true}, {`"req-1"`, true}, {`""`, true},
		{"", false}, {"-", false}, {"007", false}, {"1.5", false}, {"1e3", false},
		{`"a<b"`, false}, {`"a\"b"`, false}, {`"a\\b"`, false}, {`"é"`, false}, {`"x`, false}, {"null", false},
	} {
		if got := plainID(c.id); got != c.plain {
			t.Errorf("plainID(%q) = %v, want %v", c.id, got, c.plain)
		}
		if !c.plain {
			continue
		}
		viaRaw := newWriter(32)
		viaRaw.b = append(viaRaw.b, `{"jsonrpc":"2.0"`...)
		viaRaw.optionalRaw("id", []byte(c.id))
		fast := newWriter(32)
		fast.head(c.id, "")
		if !viaRaw.ok || string(fast.b) != string(viaRaw.b) {
			t.Errorf("head(%q) wrote %s, raw's path %s (ok %v)", c.id, fast.b, viaRaw.b, viaRaw.ok)
		}
	}
}
