package entry_test

import (
	"bytes"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
)

// withLedger links the SQLite ledger, as the site's binaries do.
var withLedger = engine.Options{OpenLedger: sqlite.NewMemory}

// mutateWithoutLedger is a fuzzer's panic: mutate-result in a scenario with
// no ledger (main dereferenced a nil ledger and the CLI exited 2).
const mutateWithoutLedger = `{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":1,"do":"mutate-result","of":1}]}`

// deepArguments is a hostile amplification link as a document: call
// arguments nested 9,990 deep (main wrote 600 MB of trace and held 2.6 GB).
var deepArguments = `{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"arguments":{"a":` +
	strings.Repeat("[", 9990) + strings.Repeat("]", 9990) + `}}]}`

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestEntryRefusesIssue12Inputs: through the one entry, both reproductions
// of hostile input are located scenario errors, found before anything runs, in
// at most 1 MiB of allocation (main: a panic, and 2.6 GB).
func TestEntryRefusesIssue12Inputs(t *testing.T) {
	for _, tc := range []struct{ name, in, path string }{
		{"mutate-result without a ledger", mutateWithoutLedger, "steps[1].do"},
		{"arguments nested 9,990 deep", deepArguments, "steps[0].arguments.a" + strings.Repeat("[0]", scenario.MaxDepth-4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out []byte
			var err error
			n := allocated(func() { out, err = entry.RunJSON([]byte(tc.in), entry.Document{Options: withLedger}) })
			var e *scenario.Error
			if !errors.As(err, &e) || e.Path != tc.path || e.Line == 0 || out != nil {
				t.Fatalf("err = %v (%d bytes out), want a located scenario error at %s", err, len(out), tc.path)
			}
			if n > 1<<20 {
				t.Errorf("refusing it allocated %d bytes, want <= 1 MiB", n)
			}
		})
	}
}

// panicStore is a ledger whose every use panics: a stand-in for a bug.
type panicStore struct{}

func (panicStore) Connect() (ledger.Conn, error) { panic("ledger bug") }
func (panicStore) Close() error                  { return nil }

// TestEntryRecoversPanics: a panic inside a run (here, in the ledger) comes
// back as an *InternalError matching ErrInternal, not a scenario error,
// with a message that asks for a report; no trace comes with it
// (ARCHITECTURE.md: the engine never takes a process or a tab down).
func TestEntryRecoversPanics(t *testing.T) {
	ex := firstLedgerExample(t)
	doc := entry.Document{Options: engine.Options{OpenLedger: func() (ledger.Store, error) { return panicStore{}, nil }}}
	out, err := entry.RunJSON(ex.JSON, doc)
	var ie *entry.InternalError
	if !errors.As(err, &ie) || !errors.Is(err, entry.ErrInternal) || out != nil {
		t.Fatalf("err = %v (%T), %d bytes; want an *InternalError and no trace", err, err, len(out))
	}
	var se *scenario.Error
	if errors.As(err, &se) {
		t.Errorf("an internal error matches *scenario.Error")
	}
	if ie.Value != "ledger bug" || !strings.Contains(err.Error(), "report") || len(ie.Stack) == 0 {
		t.Errorf("internal error %q (value %v, %d bytes of stack), want the panic value and a request for a report", err, ie.Value, len(ie.Stack))
	}
}

func firstLedgerExample(t *testing.T) examples.Example {
	t.Helper()
	for _, ex := range examples.All() {
		if bytes.Contains(ex.JSON, []byte(`"ledger"`)) {
			return ex
		}
	}
	t.Fatal("no built-in scenario has a ledger")
	return examples.Example{}
}

// runner returns the trace JSON of data run by the runner alone, without
// the entry: scenario.Decode, engine.RunWith, engine.Encode.
func runner(t *testing.T, data []byte) []byte {
	t.Helper()
	s, err := scenario.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := engine.RunWith(s, withLedger)
	if err != nil {
		t.Fatal(err)
	}
	out, err := engine.Encode(tr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEntryCanonical: as written, the entry gives the runner's bytes (the
// golden traces); canonical, it gives the trace of the canonical document,
// the one a share link replays, and returns that document.
func TestEntryCanonical(t *testing.T) {
	ex, _ := examples.Get("a-cancel-then-complete")
	asWritten, err := entry.RunJSON(ex.JSON, entry.Document{Options: withLedger})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(asWritten, runner(t, ex.JSON)) {
		t.Errorf("as written, the entry's trace differs from the runner's")
	}
	res, err := entry.Run(ex.JSON, entry.Document{Options: withLedger, Canonical: true})
	if err != nil {
		t.Fatal(err)
	}
	canon, _ := scenario.Canonical(ex.JSON)
	if !bytes.Equal(res.Canonical, canon) {
		t.Errorf("Result.Canonical is not scenario.Canonical of the document")
	}
	got, _ := engine.Encode(res.Trace)
	if !bytes.Equal(got, runner(t, canon)) {
		t.Errorf("the canonical run differs from running the canonical document")
	}
	if bytes.Equal(got, asWritten) {
		t.Errorf("scenario A's payload members are not in sorted order, so the canonical trace must differ")
	}
}

// TestEntryDecode: Decode is Run without the run. As written it returns
// the decoded scenario and no canonical document; canonical, the
// canonical document, its scenario the one Run runs. Neither has a trace.
func TestEntryDecode(t *testing.T) {
	ex, _ := examples.Get("a-cancel-then-complete")
	res, err := entry.Decode(ex.JSON, entry.Document{})
	if err != nil || res.Scenario == nil || res.Canonical != nil || res.Trace != nil {
		t.Fatalf("as written: %+v, %v; want the scenario alone", res, err)
	}
	res, err = entry.Decode(ex.JSON, entry.Document{Canonical: true})
	canon, _ := scenario.Canonical(ex.JSON)
	if err != nil || !bytes.Equal(res.Canonical, canon) || res.Trace != nil {
		t.Fatalf("canonical: %v, %v; want scenario.Canonical of the document and no trace", err, res)
	}
	if want, _ := scenario.Decode(canon); !reflect.DeepEqual(res.Scenario, want) {
		t.Errorf("the canonical Result's scenario is not the canonical document decoded")
	}
}

// TestEntryCanonicalErrorPlacedInTheText: an error only the canonical form
// meets is located in the document as given (Decode's contract), never at
// an offset of the canonical text. 15,000 U+2028 in a call's arguments are
// 45,000 bytes as written and 90,000 canonical (encoding/json writes each
// as \u2028), past scenario.MaxPayloadBytes (64 KiB) only there: the error
// keeps its path and has no place, and scenario.Locate finds the path in
// the document.
func TestEntryCanonicalErrorPlacedInTheText(t *testing.T) {
	doc := []byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"arguments":{"a":"` + strings.Repeat("\u2028", 15000) + `"}}]}`)
	if _, err := entry.Run(doc, entry.Document{}); err != nil {
		t.Fatalf("as written the document runs; got %v", err)
	}
	_, err := entry.Run(doc, entry.Document{Canonical: true})
	var e *scenario.Error
	if !errors.As(err, &e) || !errors.Is(err, scenario.ErrLimit) || e.Path != "steps[0].arguments" {
		t.Fatalf("canonical: %v, want a limit error at steps[0].arguments", err)
	}
	if e.Line != 0 || e.Offset != 0 || e.End != 0 {
		t.Errorf("the error is placed at line %d, bytes %d-%d: a place in the canonical text, not in the document", e.Line, e.Offset, e.End)
	}
	if loc, ok := scenario.Locate(doc, e.Path); !ok || loc.Line != 1 || string(doc[loc.Offset:loc.Offset+5]) != `{"a":` {
		t.Errorf("scenario.Locate(doc, %s) = %+v, %v; want the arguments object", e.Path, loc, ok)
	}
}
