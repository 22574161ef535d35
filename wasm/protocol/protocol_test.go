package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule: a request read in the worker is the request the page wrote, field
// for field (Fields, ReadRequest), for every page.
func TestRequestsRoundTrip(t *testing.T) {
	for _, req := range []Request{
		PlaygroundRequest{Text: `{"mcplab":1}`, Controls: true},
		PlaygroundRequest{Text: "not json"},
		LabRequest{Text: "{}", Shown: "timeline-lanes", ShownKnown: true},
		LabRequest{Text: "{}", Shown: "", ShownKnown: true},
		LabRequest{Text: "{}", Adopt: true},
		ImportRequest{Text: "log", Side: "client", Observer: "proxy", Zone: "UTC", Latency: "10", MaxTimeout: "60000", Redact: true, Window: 3},
		ImportRequest{Text: "log", Link: true},
		ReviewRequest{Action: ReviewStart, Text: "{}", Op: "7", OpMayBeStale: true, LinkBase: "https://lab/playground/"},
		ReviewRequest{Action: ReviewCalls, Text: "{}"},
		ReviewRequest{Action: ReviewStep, Token: 4, Root: "../"},
		ExploreRequest{Action: ExplorePart, Text: "{}", Part: 2, Parts: 4, LinkBase: "../playground/"},
		ExploreRequest{Action: ExplorePart, Text: "{}", Part: -1, Parts: 4},
		ExploreRequest{Action: ExploreRun, Text: "{}", Values: []string{"300", "10"}},
	} {
		t.Run(fmt.Sprintf("%s/%T", req.Page(), req), func(t *testing.T) {
			got, err := ReadRequest(Map(req.Fields()))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, req) {
				t.Errorf("read %#v, want %#v", got, req)
			}
		})
	}
}

// Rule (worker.js's first): a scenario page's first request is, field for
// field, the request app.js asks the worker to run early, {page: "lab",
// text, adopt: true}, so the early run answers it.
func TestFirstLabRequestIsTheWarmRequest(t *testing.T) {
	got := LabRequest{Text: "{}", Adopt: true}.Fields()
	want := map[string]any{"page": "lab", "text": "{}", "adopt": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields %v, want %v", got, want)
	}
}

// Rule: an object naming no known page is an error, never a request.
func TestReadRequestRefusesUnknownPage(t *testing.T) {
	for _, o := range []Map{{}, {"page": "explorer"}, {"page": 3.0}} {
		if r, err := ReadRequest(o); err == nil {
			t.Errorf("ReadRequest(%v) = %#v, want an error", o, r)
		}
	}
}

// Rule: the error kind travels with the reply, and app.js's own answers
// (stopped past a budget, the worker failed) read as KindWorkerStopped.
func TestReadError(t *testing.T) {
	place := Place{Path: "steps[3].at", Line: 4, Col: 9, Start: 40, End: 42}
	for _, tc := range []struct {
		name string
		o    Map
		want *Error
	}{
		{"no error", Map{"out": map[string]any{}}, nil},
		{"a run past its budget (app.js)", Map{"stopped": true, "budgetMs": 20000.0}, &Error{Kind: KindWorkerStopped, Message: "stopped past its budget", BudgetMs: 20000}},
		{"the worker failed (app.js)", Map{"error": "the simulator worker stopped: x", "worker": true}, &Error{Kind: KindWorkerStopped, Message: "the simulator worker stopped: x"}},
		{"worker.js's own error has no kind", Map{"error": "internal error: boom"}, &Error{Kind: KindInternal, Message: "internal error: boom"}},
		{"a bound", Map{"error": "past", "kind": "bound"}, &Error{Kind: KindBound, Message: "past"}},
		{"a located error", Map{"error": "bad", "kind": "invalid", "place": map[string]any{"path": "steps[3].at", "line": 4.0, "col": 9.0, "start": 40.0, "end": 42.0}}, &Error{Kind: KindInvalid, Message: "bad", Place: place}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReadError(tc.o); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ReadError = %#v, want %#v", got, tc.want)
			}
		})
	}
}

// Rule: KindOf tells a bound (*trace.BoundError) and a missing ledger
// (engine.ErrNoLedger) from an invalid input, wrapped or not.
func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want Kind
	}{
		{&trace.BoundError{Bound: "MaxEvents", Err: trace.ErrTooLarge}, KindBound},
		{fmt.Errorf("run: %w", &trace.BoundError{Bound: "MaxEvents", Err: trace.ErrTooLarge}), KindBound},
		{ledger.ErrNoLedger, KindNoLedger},
		{fmt.Errorf("steps[0]: %w", ledger.ErrNoLedger), KindNoLedger},
		{errors.New("steps[3].at: must be >= 0"), KindInvalid},
	} {
		if got := KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// decode parses a reply's JSON as the page's bridge does (JSON.parse).
func decode(t *testing.T, r Reply) Map {
	t.Helper()
	b := r.AppendJSON(nil)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%T wrote %s: %v", r, b, err)
	}
	return m
}

// Rule: what the worker writes is what the page reads: each reply's JSON
// read back by its Read function gives the reply (less the HTML the page
// takes as it is), and Failed is true exactly when it holds an error.
func TestRepliesRoundTrip(t *testing.T) {
	bad := &Error{Kind: KindInvalid, Message: `steps[0].at: "x" <is> not a number`, Place: Place{Path: "steps[0].at", Line: 2, Col: 3, Start: 5, End: 8}}
	t.Run("playground", func(t *testing.T) {
		for _, r := range []PlaygroundReply{
			{Title: "A", Fragment: "s=abc"},
			{Err: bad, Fragment: "s=t"},
			{Err: &Error{Kind: KindNoLedger, Message: "needs SQLite"}, Canon: `{"ledger":{}}`},
		} {
			if got := ReadPlaygroundReply(decode(t, r)); !reflect.DeepEqual(got, r) {
				t.Errorf("read %#v, want %#v", got, r)
			}
			if r.Failed() != (r.Err != nil) {
				t.Errorf("%#v: Failed %v", r, r.Failed())
			}
		}
	})
	t.Run("import", func(t *testing.T) {
		r := ImportReply{HeadSum: "12:ab", Out: &Output{}, Window: Window{Index: 1, Count: 3, First: 251, Last: 500, Total: 700}, Fragment: "s=z"}
		got := ReadImportReply(decode(t, r))
		r.Out = nil
		if !reflect.DeepEqual(got, r) {
			t.Errorf("read %#v, want %#v", got, r)
		}
		link := ImportReply{Fragment: "s=only"}
		if m := decode(t, link); len(m) != 1 || m["fragment"] != "s=only" {
			t.Errorf("a link reply is %v, want {fragment} alone", m)
		}
	})
	t.Run("lab adopt", func(t *testing.T) {
		r := LabAdopt{Keys: []string{"headline", "timeline"}, Fragment: "s=q"}
		got, ok := ReadLabAdopt(decode(t, r))
		if !ok || !reflect.DeepEqual(got, r) {
			t.Errorf("read %#v (%v), want %#v", got, ok, r)
		}
		if _, ok := ReadLabAdopt(decode(t, LabPicture{Out: &Output{}})); ok {
			t.Error("a picture read as an adopt")
		}
	})
	t.Run("review", func(t *testing.T) {
		st := ReviewStarted{Token: 2, Parts: []string{"a", "b"}, Ops: []string{"7", "8"}, Op: "8", Fragment: "s=r", Title: "T"}
		if got := ReadReviewStarted(decode(t, st)); !reflect.DeepEqual(got, st) {
			t.Errorf("read %#v, want %#v", got, st)
		}
		noCall := ReviewStarted{Err: bad, Ops: []string{"7"}}
		if got := ReadReviewStarted(decode(t, noCall)); !reflect.DeepEqual(got, noCall) {
			t.Errorf("read %#v, want %#v", got, noCall)
		}
		calls := ReviewCallList{Ops: []string{"1"}}
		if got := ReadReviewCallList(decode(t, calls)); !reflect.DeepEqual(got, calls) {
			t.Errorf("read %#v, want %#v", got, calls)
		}
		prog := ReviewProgress{Step: 5, Runs: 25, Done: true, HTML: "<section></section>", Markdown: "# r"}
		if got := ReadReviewProgress(decode(t, prog)); !reflect.DeepEqual(got, prog) {
			t.Errorf("read %#v, want %#v", got, prog)
		}
	})
}

// Rule: an Output's JSON is the shape the pane and app.js's mcplabMorph
// read: parts with key, later, html and sum, views with id, html and
// sum, and a pending block or view without HTML.
func TestOutputShape(t *testing.T) {
	out := &Output{
		Attrs: [][2]string{{"data-end-ms", "900"}},
		Shell: `<div id="output"></div>`,
		Parts: []Part{
			{Key: "headline", HTML: "<h2>\"A\"</h2>", Sum: "12:1"},
			{Key: "timeline", HTML: "<div>" + ViewSlot + "</div>", Sum: "9:2", Views: []View{{ID: "lanes", HTML: "<svg/>", Sum: "6:3"}, {ID: "flat", Pending: true}}},
			{Key: "tables", Later: true, Pending: true},
		},
	}
	m := decode(t, LabPicture{Out: out})
	want := `{"attrs":[["data-end-ms","900"]],"parts":[{"html":"\u003ch2\u003e\"A\"\u003c/h2\u003e","key":"headline","later":false,"sum":"12:1","views":[]},{"html":"\u003cdiv\u003e\u003c!--mcplab-view--\u003e\u003c/div\u003e","key":"timeline","later":false,"sum":"9:2","views":[{"html":"\u003csvg/\u003e","id":"lanes","sum":"6:3"},{"id":"flat","pending":true}]},{"key":"tables","later":true,"pending":true,"views":[]}],"shell":"\u003cdiv id=\"output\"\u003e\u003c/div\u003e"}`
	got, err := json.Marshal(m["out"])
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("out =\n%s\nwant\n%s", got, want)
	}
}
