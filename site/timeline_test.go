package site

// Reading the timeline SVG a page shows and comparing it with a trace.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// svgArrow and svgMark are what the timeline SVG says about one wire
// message (an arrow) or one other event (a mark), read from its data-
// attributes.
type svgArrow struct {
	Wire       int    `json:"wire"`
	Seq        int    `json:"seq"`        // the send (or close-stream) event
	DeliverSeq int    `json:"deliverSeq"` // -1 if never delivered
	Delivered  bool   `json:"delivered"`
	DropSeq    int    `json:"dropSeq"` // -1 unless lost in transit
	Dropped    bool   `json:"dropped"`
	From       string `json:"from"`
	To         string `json:"to"`
	Method     string `json:"method"`
	Signal     string `json:"signal"`
}

type svgMark struct {
	Seq  int    `json:"seq"`
	Type string `json:"type"`
}

type svgTimeline struct {
	Found  bool       `json:"found"`
	Arrows []svgArrow `json:"arrows"`
	Marks  []svgMark  `json:"marks"`
}

// readTimelineJS reads #timeline's arrows ([data-type="wire"]) and marks
// (every other element with data-seq) with the page's own JavaScript.
const readTimelineJS = `(() => {
  const svg = document.getElementById("timeline");
  if (!svg) return {found: false, arrows: [], marks: []};
  const num = (v, d) => v === undefined || v === null || v === "" ? d : Number(v);
  const arrows = Array.from(svg.querySelectorAll('[data-type="wire"]')).map(e => ({
    wire: num(e.dataset.wire, 0), seq: num(e.dataset.seq, -1), deliverSeq: num(e.dataset.deliverSeq, -1),
    delivered: e.dataset.delivered === "true", dropSeq: num(e.dataset.dropSeq, -1), dropped: e.dataset.dropped === "true", from: e.dataset.from || "", to: e.dataset.to || "",
    method: e.dataset.method || "", signal: e.dataset.signal || "",
  }));
  const marks = Array.from(svg.querySelectorAll('[data-seq]:not([data-type="wire"])')).map(e => ({
    seq: num(e.dataset.seq, -1), type: e.dataset.type || "",
  }));
  return {found: true, arrows, marks};
})()`

// readTimeline reads the timeline through JavaScript.
func readTimeline(t *testing.T, ctx context.Context) svgTimeline {
	t.Helper()
	return evalJSON[svgTimeline](t, ctx, readTimelineJS)
}

// messageMethod is the JSON-RPC method of a wire message, "" if none.
func messageMethod(m json.RawMessage) string {
	var v struct {
		Method string `json:"method"`
	}
	if len(m) == 0 || json.Unmarshal(m, &v) != nil {
		return ""
	}
	return v.Method
}

// compareTimeline checks the rule the timeline promises: every event of the
// trace is drawn exactly once, with its type. An event with a wire number is
// one end of that wire's arrow (its send or close-stream at data-seq, its
// delivery at data-deliver-seq or its loss in transit at data-drop-seq), and
// carries its method and signal; any
// other event is a mark with the same data-seq and data-type. There is one
// arrow per wire, and as many deliver events as delivered arrows plus
// deliver marks (a second delivery of one wire is a mark).
func compareTimeline(tr *trace.Trace, tl svgTimeline) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if !tl.Found {
		return []string{"the page has no #timeline"}
	}
	events := map[int]trace.Event{}
	wires := map[int]bool{}
	delivers := 0
	for _, e := range tr.Events {
		events[e.Seq] = e
		if e.Wire > 0 {
			wires[e.Wire] = true
		}
		if e.Type == trace.TypeDeliver {
			delivers++
		}
	}
	drawn := map[int]int{} // seq -> times drawn
	arrowsByWire := map[int]int{}
	deliveredArrows, deliverMarks := 0, 0
	for _, a := range tl.Arrows {
		arrowsByWire[a.Wire]++
		if !wires[a.Wire] {
			bad("arrow for wire %d, which no event of the trace has", a.Wire)
		}
		if a.Seq >= 0 {
			drawn[a.Seq]++
			e, ok := events[a.Seq]
			switch {
			case !ok:
				bad("arrow of wire %d starts at seq %d, not in the trace", a.Wire, a.Seq)
			case e.Wire != a.Wire || e.Type == trace.TypeDeliver:
				bad("arrow of wire %d starts at seq %d, a %s of wire %d", a.Wire, a.Seq, e.Type, e.Wire)
			default:
				if m := messageMethod(e.Message); m != a.Method {
					bad("arrow of wire %d: data-method %q, the message's method is %q", a.Wire, a.Method, m)
				}
				// A stream the network dropped is drawn as a drop, not as a
				// cancel signal; every other close is the signal.
				if e.Signal == trace.SignalCloseStream && e.Actor != trace.ActorNetwork && a.Signal != trace.SignalCloseStream {
					bad("arrow of wire %d is a stream close but has data-signal %q", a.Wire, a.Signal)
				}
			}
		}
		if a.Delivered {
			deliveredArrows++
			drawn[a.DeliverSeq]++
			e, ok := events[a.DeliverSeq]
			if !ok || e.Type != trace.TypeDeliver || e.Wire != a.Wire {
				bad("arrow of wire %d: data-deliver-seq %d is not a delivery of that wire", a.Wire, a.DeliverSeq)
			} else if a.To != string(e.To) {
				bad("arrow of wire %d: data-to %q, delivered to %q", a.Wire, a.To, e.To)
			}
		} else if a.DeliverSeq >= 0 {
			bad("arrow of wire %d is not delivered but has data-deliver-seq %d", a.Wire, a.DeliverSeq)
		}
		if a.Dropped {
			drawn[a.DropSeq]++
			if a.Delivered {
				bad("arrow of wire %d is both delivered and dropped", a.Wire)
			}
			if e, ok := events[a.DropSeq]; !ok || e.Type != trace.TypeDrop || e.Wire != a.Wire {
				bad("arrow of wire %d: data-drop-seq %d is not a drop of that wire", a.Wire, a.DropSeq)
			}
		}
	}
	for w := range wires {
		if arrowsByWire[w] != 1 {
			bad("wire %d has %d arrows, want 1", w, arrowsByWire[w])
		}
	}
	for _, m := range tl.Marks {
		drawn[m.Seq]++
		e, ok := events[m.Seq]
		switch {
		case !ok:
			bad("mark with data-seq %d, not in the trace", m.Seq)
		case string(e.Type) != m.Type:
			bad("mark %d has data-type %q, the event is a %q", m.Seq, m.Type, e.Type)
		}
		if ok && e.Type == trace.TypeDeliver {
			deliverMarks++
		}
	}
	for _, e := range tr.Events {
		if drawn[e.Seq] != 1 {
			bad("event %d (%s %s at %d ms) is drawn %d times, want 1", e.Seq, e.Actor, e.Type, e.At, drawn[e.Seq])
		}
	}
	if deliveredArrows+deliverMarks != delivers {
		bad("%d delivered arrows + %d deliver marks, the trace has %d deliver events", deliveredArrows, deliverMarks, delivers)
	}
	slices.Sort(errs)
	return errs
}
