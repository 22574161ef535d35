package transcript

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// nested is a tools/call request line of the Go SDK's log whose arguments
// hold a value nested so that the whole message nests depth arrays and
// objects (the message, params and arguments are three of them).
func nested(depth int) string {
	inner := strings.Repeat("[", depth-3) + strings.Repeat("]", depth-3)
	return `write: {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":` + inner + `}}}`
}

// Rule: a recorded message obeys the scenario decoder's
// structural bounds: nesting up to scenario.MaxDepth (64) arrays and
// objects is read, one more is refused, and a member name twice in one
// object is refused at any depth, in every line format; each error names
// the line and the place inside the message.
func TestMessageStructureBounds(t *testing.T) {
	reply := "\n" + `read: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}` + "\n"
	if _, err := Import([]byte(nested(scenario.MaxDepth)+reply), Options{}); err != nil {
		t.Fatalf("a message nested %d deep (the bound) is refused: %v", scenario.MaxDepth, err)
	}
	cases := []struct {
		name, in string
		line     int
		sentinel error
		want     string
	}{
		{"nested one past the bound", `read: {"jsonrpc":"2.0","id":0,"method":"ping"}` + "\n" + nested(scenario.MaxDepth+1) + reply, 2,
			scenario.ErrLimit, "in the message at params.arguments.a[0]"},
		{"duplicate id", `write: {"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x"}}` + reply, 1,
			scenario.ErrDuplicate, `in the message at id: the member "id" appears twice`},
		{"duplicate deep in a result", `write: {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}` + "\n" +
			`read: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a","text":"b"}]}}` + "\n", 2,
			scenario.ErrDuplicate, `in the message at result.content[0].text`},
		{"duplicate in a JSON Lines message", `{"t":1,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call"}}` + "\n", 1,
			scenario.ErrDuplicate, `in the message at method`},
		{"duplicate time of a JSON Lines line", `{"t":1,"from":"client","t":2,"message":{"jsonrpc":"2.0","id":1,"method":"ping"}}` + "\n", 1,
			scenario.ErrDuplicate, `t: the member "t" appears twice`},
		{"duplicate in a stdio tee", `[STDIN] {"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":2}}` + "\n", 1,
			scenario.ErrDuplicate, `in the message at params.a`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import([]byte(c.in), Options{})
			var e *Error
			if !errors.As(err, &e) || e.Line != c.line || !errors.Is(err, ErrTranscript) {
				t.Fatalf("Import = %v, want an error on line %d", err, c.line)
			}
			if !errors.Is(err, c.sentinel) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Import = %v, want %v naming %q", err, c.sentinel, c.want)
			}
		})
	}
}

// Rule: a JSON-RPC batch (an array of messages) where a format
// records one message per line is refused with an error that says it is a
// batch, how many messages it holds and what to write instead, on its
// line; a stdio tee, which carries batches on the wire, still splits one
// into its messages.
func TestBatchSaysSo(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`
	for name, in := range map[string]string{
		"go-sdk":     `write: {"jsonrpc":"2.0","id":0,"method":"ping"}` + "\nwrite: " + batch + "\n",
		"json lines": `{"t":1,"from":"client","message":{"jsonrpc":"2.0","id":0,"method":"ping"}}` + "\n" + `{"t":2,"from":"client","message":` + batch + "}\n",
	} {
		_, err := Import([]byte(in), Options{})
		var e *Error
		if !errors.As(err, &e) || e.Line != 2 {
			t.Fatalf("%s: Import = %v, want an error on line 2", name, err)
		}
		for _, want := range []string{"JSON-RPC batch", "2 messages", "on a line of its own"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: Import = %v, want it to say %q", name, err, want)
			}
		}
	}
	tr, err := Import([]byte("[STDIN] "+batch+"\n"), Options{})
	if err != nil {
		t.Fatalf("a tee's batch: %v", err)
	}
	if len(tr.Requests) != 2 {
		t.Errorf("a tee's batch gave %d requests, want its 2", len(tr.Requests))
	}
}

// Rule: a line whose message is JSON but not an object (a
// number, a string) is refused on its line, naming what it is.
func TestMessageMustBeAnObject(t *testing.T) {
	_, err := Import([]byte(`write: {"jsonrpc":"2.0","id":0,"method":"ping"}`+"\nread: 42\n"), Options{})
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 || !strings.Contains(err.Error(), "42, not a JSON-RPC message") {
		t.Fatalf("Import = %v, want line 2 saying 42 is not a JSON-RPC message", err)
	}
}
