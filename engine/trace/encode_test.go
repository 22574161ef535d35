package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// Encode's layout is json.Indent's ("", "  ") byte for byte: the golden
// traces depend on it. Whitespace outside strings goes, as json.Indent
// drops it (indent also drops it at the end, where json.Indent keeps it).
func TestIndentMatchesStdlib(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[1,2,{"c":null}]}`,
		`{"s":"q\"uo{te}[],:","t":"back\\\\slash\\","u":"\u00e9<>&"}`,
		`[[[[]]],[{}],"x",-1.5e3,true,false]`,
		" { \"a\" :\t[ 1 ,\r\n{ } ] , \"b c\" : \" x \" }",
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(in), "", "  "); err != nil {
			t.Fatal(err)
		}
		got, err := indent([]byte(in), 32<<20)
		if err != nil || string(got) != want.String() {
			t.Errorf("indent(%s) = %q, %v; want %q", in, got, err, want.String())
		}
	}
}

// a payload nested 9,990 deep indents to about 100 MB; Encode
// stops at 32<<20 with ErrTooLarge instead of writing it.
func TestIndentStopsAtTheBound(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 9990) + `1` + strings.Repeat(`}`, 9990)
	out, err := indent([]byte(deep), 32<<20)
	if !errors.Is(err, ErrTooLarge) || out != nil {
		t.Fatalf("indent of a 9,990-deep value: %d bytes, %v; want ErrTooLarge and no bytes", len(out), err)
	}
}

// reference is the encoding Encode must equal byte for byte: encoding/json
// with HTML escaping off, laid out by json.Indent with two spaces (how the
// golden traces were first written).
func reference(t *testing.T, tr *Trace) string {
	t.Helper()
	var compact, out bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tr); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// Encode writes events, requests and checks by hand: every member, empty
// or set, every escape encoding/json makes in a string (quotes, controls,
// invalid UTF-8, U+2028/9, and HTML characters left alone), sorted
// headers, compacted raw messages nested at their depth, and nil against
// empty slices, must come out as encoding/json writes them.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	id := scenario.NewStringID("p-<7>")
	num := scenario.NewIntID(7)
	at, yes, no := int64(42), true, false
	step0 := 0 // step 0 is written: a skip of the first step names it
	cause, reason := CauseClient, "tab \t closed \"now\" \u2028\u2029 \x01 \xff é <&>"
	full := &Trace{
		Mcplab:   1,
		Scenario: &scenario.Scenario{Mcplab: 1, Title: "t <&>"},
		Events: []Event{
			{Seq: 0, At: 0, Actor: ActorClient, Type: TypeSend, ID: &num, From: ActorClient, To: ActorServer, Wire: 1,
				Message: json.RawMessage("{ \"jsonrpc\" : \"2.0\", \"params\": {\"a\": [1, {}, [], \"x\\\"}\"], \"b\": {\"c\": null}} }"),
				Note:    reason},
			{Seq: 1, At: 10, Actor: ActorServer, Type: TypeDeliver, ID: &id, TaskID: "t1", SentAt: &at, Signal: "close-stream",
				Status: "done", Cause: cause, Restarts: RestartsIdleMax, Headers: map[string]string{"b": "2", "a": "1", "Mcp-Session-Id": "s\n"},
				Key: "k", Fingerprint: "f", Message: json.RawMessage(`[]`), Within: &Span{From: 3, To: 9}, Session: "s-1", EventID: "7\"\n", Line: 12, Resource: "db-<lock>"},
			{Seq: 2, At: 10, Actor: ActorServer, Type: TypeSkip, ID: &num, Step: &step0, Note: "why"},
			{Seq: 3, At: 11, Actor: "", Type: ""},
		},
		Requests: []Request{
			{ID: num, Method: "tools/call", Name: "crunch", State: "completed", Cause: &cause, Reason: &reason,
				Signal: &cause, Response: json.RawMessage(`{"result":{}}`), ClientOutcome: OutcomeResult, RetryClass: RetrySafe,
				SentAt: 3, EndedAt: &at, Hints: json.RawMessage(`{"readOnlyHint":true}`), RetryOf: &id,
				IdleTimeoutMs: 5, MaxTimeoutMs: 6, WastedWorkMs: 40, Outcome: OutcomeCompletionWins,
				ClientStates: []StateChange{{At: 3, State: ClientWaiting}, {At: 42, State: "q\"<&>"}},
				ServerStates: []StateChange{}},
			{Method: "ping", ServerStates: []StateChange{{At: 4, State: StateInProgress}}},
		},
		Tasks:       []Task{{TaskID: "t1", Status: "working", History: [][2]any{{int64(1), "working"}}}},
		Buffers:     []Buffer{},
		Ledger:      Ledger{Executions: 1, Records: []LedgerRecord{{Key: "k", Result: json.RawMessage(`{"a": 1}`)}}},
		Reconnects:  []Reconnect{{PreviousID: "l1", NewID: "l2", Refetch: []string{"tools/list"}}},
		Herd:        &HerdResult{Strategy: "x", Buckets: [][2]int64{{0, 1}}},
		HerdCompare: []HerdResult{{Strategy: "y"}},
		Checks: []Check{
			{Rule: "a", OK: &yes, Detail: "d", Events: []int{0, 2}},
			{Rule: "b", OK: &no},
			{Rule: "c", Events: []int{}},
		},
		EndMs:   11,
		Source:  &Source{Format: "jsonl", Clock: "ms", Protocol: "2025-11-25", ProtocolFrom: "the header line"},
		Skipped: []Skip{{Step: 0, Reason: "a <reason>"}},
	}
	// A delivery shares its send's message bytes (Encode copies what it
	// wrote for the send).
	full.Events = append(full.Events, Event{Seq: 4, At: 12, Actor: ActorServer, Type: TypeDeliver, Message: full.Events[0].Message},
		Event{Seq: 5, At: 13, Actor: ActorClient, Type: TypeSend, HTTPMethod: HTTPGet, Headers: map[string]string{"Accept": "text/event-stream"}})
	// Every member of the trace, an event, a request and a check is set somewhere
	// above: a member added to those types fails here until Encode writes
	// it and this trace sets it.
	for _, rows := range []any{[]Trace{*full}, full.Events, full.Requests, full.Checks} {
		v := reflect.ValueOf(rows)
		for f := 0; f < v.Type().Elem().NumField(); f++ {
			set := false
			for i := 0; i < v.Len(); i++ {
				set = set || !v.Index(i).Field(f).IsZero()
			}
			if !set {
				t.Errorf("no %s in the test trace sets %s: set it, and make Encode write it", v.Type().Elem().Name(), v.Type().Elem().Field(f).Name)
			}
		}
	}
	for name, tr := range map[string]*Trace{
		"every member": full,
		"nil slices":   {Mcplab: 1},
		"empty slices": {Mcplab: 1, Events: []Event{}, Requests: []Request{}, Checks: []Check{}, Tasks: []Task{}},
	} {
		got, err := Encode(tr, 32<<20)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := reference(t, tr); string(got) != want {
			t.Errorf("%s: Encode =\n%s\nwant (encoding/json + json.Indent)\n%s", name, got, want)
		}
	}
}

// The bound holds on Encode's own output, not only on indented payloads:
// a trace of many events past the limit fails with ErrTooLarge and no bytes.
func TestEncodeStopsAtTheBound(t *testing.T) {
	tr := &Trace{Mcplab: 1, Events: make([]Event, 10_000)}
	out, err := Encode(tr, 100_000)
	if !errors.Is(err, ErrTooLarge) || out != nil {
		t.Fatalf("Encode of 10,000 events under a 100,000-byte bound: %d bytes, %v; want ErrTooLarge and no bytes", len(out), err)
	}
}
