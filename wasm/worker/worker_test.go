package worker

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// exampleA is a built-in scenario without a ledger.
const exampleA = "a-cancel-then-complete"

func example(t *testing.T, name string) string {
	t.Helper()
	ex, ok := examples.Get(name)
	if !ok {
		t.Fatalf("no built-in %q", name)
	}
	return string(ex.JSON)
}

// ledgerExample is the first built-in scenario with a ledger.
func ledgerExample(t *testing.T) string {
	t.Helper()
	for _, ex := range examples.All() {
		if s, err := scenario.Decode(ex.JSON); err == nil && s.Ledger != nil {
			return string(ex.JSON)
		}
	}
	t.Fatal("no built-in scenario has a ledger")
	return ""
}

// pastEventBound is a valid scenario whose run goes past engine.MaxEvents
// (40 produce steps of 1,000 progress values, about 120,000 events).
func pastEventBound() string {
	steps := []string{`{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"}`}
	for k := 0; k < 40; k++ {
		steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"produce","id":7,"count":1000,"everyMs":1,"fromValue":%d}`, k*1000, k*1000))
	}
	return `{"mcplab":1,"title":"Too many events","protocol":"2026-07-28","transport":"stdio","latencyMs":{"up":10,"down":10},"steps":[` + strings.Join(steps, ",") + `]}`
}

// serve answers req through Serve, as the worker does: the fields the page
// sends, read back by the protocol.
func serve(t *testing.T, s *Server, h Handlers, req protocol.Request) (protocol.Reply, bool) {
	t.Helper()
	return s.Serve(h, protocol.Map(req.Fields()))
}

// Rule: the playground's answer names its error's kind: a run that shows,
// an invalid text located in the text (with the text's link all the
// same), a valid scenario past an engine bound, and a scenario with a
// ledger in a binary without SQLite (with its canonical JSON to reload
// with).
func TestPlaygroundReplies(t *testing.T) {
	s := &Server{}
	h := Handlers{protocol.PagePlayground: s.Playground}
	t.Run("runs", func(t *testing.T) {
		r, more := serve(t, s, h, protocol.PlaygroundRequest{Text: example(t, exampleA), Controls: true})
		pr := r.(protocol.PlaygroundReply)
		if pr.Err != nil || more {
			t.Fatalf("error %v, more %v", pr.Err, more)
		}
		want, _ := scenario.Decode([]byte(example(t, exampleA)))
		if pr.Title != want.Title || pr.Out == nil || len(pr.Out.Parts) == 0 || !strings.HasPrefix(pr.Fragment, "s=") || pr.Controls == "" {
			t.Errorf("title %q (want %q), %d parts, fragment %q, controls %d bytes", pr.Title, want.Title, len(pr.Out.Parts), pr.Fragment, len(pr.Controls))
		}
		for _, p := range pr.Out.Parts {
			if p.Pending || p.Sum != HTMLSum(p.HTML) {
				t.Errorf("part %q: pending %v, sum %q of %d bytes", p.Key, p.Pending, p.Sum, len(p.HTML))
			}
		}
	})
	t.Run("invalid, located", func(t *testing.T) {
		text := "{\n  \"mcplab\": 1,\n  \"steps\": [{\"at\": -5}]\n}"
		pr, _ := serve(t, s, h, protocol.PlaygroundRequest{Text: text})
		e := pr.(protocol.PlaygroundReply).Err
		if e == nil || e.Kind != protocol.KindInvalid || e.Place.Line == 0 {
			t.Fatalf("error %#v, want a located KindInvalid", e)
		}
		if f := pr.(protocol.PlaygroundReply).Fragment; !strings.HasPrefix(f, "s=") {
			t.Errorf("fragment %q, want the text's link", f)
		}
	})
	t.Run("past a bound", func(t *testing.T) {
		pr, _ := serve(t, s, h, protocol.PlaygroundRequest{Text: pastEventBound()})
		if e := pr.(protocol.PlaygroundReply).Err; e == nil || e.Kind != protocol.KindBound || !strings.Contains(e.Message, "MaxEvents") {
			t.Errorf("error %#v, want KindBound naming MaxEvents", e)
		}
	})
	t.Run("no ledger", func(t *testing.T) {
		pr, _ := serve(t, s, h, protocol.PlaygroundRequest{Text: ledgerExample(t)})
		r := pr.(protocol.PlaygroundReply)
		if r.Err == nil || r.Err.Kind != protocol.KindNoLedger || !json.Valid([]byte(r.Canon)) {
			t.Errorf("error %#v, canon %.40q; want KindNoLedger and the canonical JSON", r.Err, r.Canon)
		}
	})
}

// Rule: a scenario page's run comes in two steps: the picture, with the
// tables and the hidden timeline view pending, then the fill, which
// brings exactly what was pending; the page's first run of its own
// scenario is only adopted, by the same block keys.
func TestLabTwoSteps(t *testing.T) {
	s := &Server{}
	h := Handlers{protocol.PageLab: s.Lab}
	text := example(t, exampleA)
	r, more := serve(t, s, h, protocol.LabRequest{Text: text, Shown: "", ShownKnown: true})
	pic := r.(protocol.LabPicture)
	if pic.Err != nil || !more {
		t.Fatalf("first step: error %v, more %v; want the picture and more", pic.Err, more)
	}
	pending := map[string]bool{}
	var keys []string
	for _, p := range pic.Out.Parts {
		keys = append(keys, p.Key)
		if p.Pending {
			pending[p.Key] = true
		}
		for _, v := range p.Views {
			if v.Pending {
				pending[p.Key+"/"+v.ID] = true
			}
		}
	}
	if len(pending) == 0 {
		t.Fatal("the first step left nothing pending")
	}
	fill := s.More().(protocol.LabFill)
	if fill.Err != nil || !strings.HasPrefix(fill.Fragment, "s=") {
		t.Fatalf("fill: error %v, fragment %q", fill.Err, fill.Fragment)
	}
	for _, p := range fill.Fill {
		if p.Sum != "" {
			delete(pending, p.Key)
		}
		for _, v := range p.Views {
			delete(pending, p.Key+"/"+v.ID)
		}
	}
	if len(pending) > 0 {
		t.Errorf("the fill did not bring %v", pending)
	}
	if again := s.More(); !again.Failed() {
		t.Error("a second More answered, want an error: nothing waits")
	}
	ad, more := serve(t, s, h, protocol.LabRequest{Text: text, Adopt: true})
	if a := ad.(protocol.LabAdopt); more || strings.Join(a.Keys, ",") != strings.Join(keys, ",") {
		t.Errorf("adopt keys %v (more %v), want %v", a.Keys, more, keys)
	}
	bad, more := serve(t, s, h, protocol.LabRequest{Text: "{"})
	if e := bad.(protocol.LabPicture).Err; e == nil || e.Kind != protocol.KindInvalid || more {
		t.Errorf("a bad scenario: error %#v, more %v; want KindInvalid in one step", e, more)
	}
}

// Rule: a binary answers only the pages it serves; any other request is a
// KindInternal failure, not a panic.
func TestServeRefusesPagesNotServed(t *testing.T) {
	s := &Server{}
	h := Handlers{protocol.PageLab: s.Lab}
	for _, o := range []protocol.Map{{"page": "playground", "text": "{}"}, {"page": "nope"}, {}} {
		r, more := s.Serve(h, o)
		f, ok := r.(protocol.Failure)
		if !ok || f.Err.Kind != protocol.KindInternal || more {
			t.Errorf("Serve(%v) = %#v, %v; want a KindInternal failure", o, r, more)
		}
	}
}

// Rule: the two steps of a scenario page's run draw, in the end, the same
// blocks and views, byte for byte, as the playground's run in one step.
func TestTwoStepsDrawWhatOneStepDraws(t *testing.T) {
	s := &Server{}
	canon, err := scenario.Canonical([]byte(example(t, exampleA)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(canon) // the playground runs the canonical form
	one := s.Playground(protocol.Map(protocol.PlaygroundRequest{Text: text}.Fields())).(protocol.PlaygroundReply).Out
	pic := s.Lab(protocol.Map(protocol.LabRequest{Text: text, ShownKnown: true}.Fields())).(protocol.LabPicture).Out
	fill := s.More().(protocol.LabFill).Fill
	sums := map[string]string{}
	for _, parts := range [][]protocol.Part{pic.Parts, fill} {
		for _, p := range parts {
			if p.Sum != "" {
				sums[p.Key] = p.Sum
			}
			for _, v := range p.Views {
				if v.Sum != "" {
					sums[p.Key+"/"+v.ID] = v.Sum
				}
			}
		}
	}
	if one.Shell != pic.Shell || len(one.Parts) != len(pic.Parts) {
		t.Fatalf("shells differ or %d parts against %d", len(one.Parts), len(pic.Parts))
	}
	for _, p := range one.Parts {
		if sums[p.Key] != p.Sum {
			t.Errorf("block %s: two steps drew %q, one step %q", p.Key, sums[p.Key], p.Sum)
		}
		for _, v := range p.Views {
			if sums[p.Key+"/"+v.ID] != v.Sum {
				t.Errorf("view %s/%s: two steps drew %q, one step %q", p.Key, v.ID, sums[p.Key+"/"+v.ID], v.Sum)
			}
		}
	}
}
