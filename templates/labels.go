package templates

// Label text of the timeline: the short labels and tooltips of arrows and
// marks (what kind of wire message an arrow carries is in wire.go, how a
// label is shortened to fit in format.go).

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// distinctIDs counts the request ids the trace's events mention.
func distinctIDs(tr *trace.Trace) int {
	seen := map[string]bool{}
	for _, e := range tr.Events {
		if e.ID != nil {
			seen[e.ID.Raw()] = true
		}
	}
	return len(seen)
}

func newArrow(wire int, send, deliver, drop *trace.Event, multi bool) arrow {
	a := arrow{Wire: wire, SendSeq: -1, DeliverSeq: -1, DropSeq: -1}
	msg, signal := a.ends(send, deliver, drop)
	var id string
	a.Kind, a.Label, a.Method, id = classify(msg, signal)
	if a.Kind == kindClose && send != nil && send.Actor == trace.ActorNetwork {
		// The network dropped the stream (a drop step): under 2025-11-25
		// the client resumes it, under 2026-07-28 it re-sends; neither is
		// the client's cancellation, so it is not drawn as one.
		a.Kind, a.Label = kindStreamDrop, "stream drops"
	}
	if id == "" {
		switch {
		case send != nil && send.ID != nil:
			id = send.ID.String()
		case deliver != nil && deliver.ID != nil:
			id = deliver.ID.String()
		}
	}
	a.ID = id
	switch a.Kind {
	case kindCancel:
		a.Signal = trace.SignalNotification
	case kindClose:
		a.Signal = trace.SignalCloseStream
	}
	switch a.Kind {
	case kindProgress:
		a.Short = strings.TrimPrefix(a.Label, "progress ")
	case kindCancel:
		a.Short = "cancel"
	case kindRequest:
		// A tool call's tool name ("crunch" of "tools/call crunch"): on a
		// phone, words beside a crowded arrow rather than a key number.
		if name, ok := strings.CutPrefix(a.Label, a.Method+" "); ok && name != "" {
			a.Short = name
		}
	}
	if multi && a.ID != "" && a.Label != "" {
		a.Label += " (" + a.ID + ")"
	}
	a.LabelW = textWidth(a.Label)

	a.Title = arrowTitle(a, send, deliver, drop, msg)
	return a
}

// ends sets where and when the arrow starts and ends (its lanes, times
// and event seqs) from its send, delivery and drop events, any of which
// may be missing, and returns its message and cancellation signal.
func (a *arrow) ends(send, deliver, drop *trace.Event) (msg json.RawMessage, signal string) {
	if send != nil {
		a.SendSeq = send.Seq
		a.SentAt = send.At
		// The lane of whoever put it on the wire: the network, for a
		// stream it closed, else the sender.
		a.From = string(send.From)
		if send.Actor == trace.ActorNetwork || a.From == "" {
			a.From = string(send.Actor)
		}
		a.To = string(send.To)
		msg, signal = send.Message, send.Signal
		if send.Type == trace.TypeCloseStream {
			signal = trace.SignalCloseStream
		}
	}
	if deliver != nil {
		a.DeliverSeq = deliver.Seq
		a.Delivered = true
		a.At = deliver.At
		if send == nil {
			if deliver.SentAt != nil {
				a.SentAt = *deliver.SentAt
			} else {
				a.SentAt = deliver.At
			}
			a.From = cmp(string(deliver.From), string(trace.ActorNetwork))
		}
		a.To = cmp(string(deliver.To), a.To)
		if len(msg) == 0 {
			msg = deliver.Message
		}
		signal = cmp(signal, deliver.Signal)
	} else if drop != nil {
		a.DropSeq = drop.Seq
		a.Dropped = true
		a.At = drop.At
		if send == nil {
			if drop.SentAt != nil {
				a.SentAt = *drop.SentAt
			} else {
				a.SentAt = drop.At
			}
			a.From = cmp(string(drop.From), string(trace.ActorNetwork))
		}
		a.To = cmp(a.To, string(drop.To))
		if len(msg) == 0 {
			msg = drop.Message
		}
	} else {
		a.At = a.SentAt
	}
	if a.To == "" {
		a.To = string(trace.ActorNetwork)
	}
	if a.From == "" {
		a.From = string(trace.ActorNetwork)
	}
	return msg, signal
}

// arrowTitle is an arrow's tooltip: its wire number, lanes and label, when
// it was sent and delivered or lost, its events' notes and the message.
func arrowTitle(a arrow, send, deliver, drop *trace.Event, msg json.RawMessage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wire %d, %s → %s: %s", a.Wire, a.From, a.To, cmp(a.Label, a.Kind))
	switch {
	case a.Delivered:
		fmt.Fprintf(&b, "\nsent at %d ms, delivered at %d ms", a.SentAt, a.At)
	case a.Dropped:
		fmt.Fprintf(&b, "\nsent at %d ms, lost at %d ms", a.SentAt, a.At)
	default:
		fmt.Fprintf(&b, "\nsent at %d ms; its delivery is not in the trace (still in flight, or not seen by a one-sided log)", a.SentAt)
	}
	if send != nil && send.Note != "" {
		b.WriteString("\n" + send.Note)
	}
	if deliver != nil && deliver.Note != "" {
		b.WriteString("\n" + deliver.Note)
	}
	if drop != nil && drop.Note != "" {
		b.WriteString("\n" + drop.Note)
	}
	if len(msg) > 0 {
		b.WriteString("\n" + shownJSON(msg))
	}
	return b.String()
}

func newMark(e *trace.Event, multi bool) mark {
	m := mark{Seq: e.Seq, At: e.At, Actor: cmp(string(e.Actor), string(trace.ActorNetwork)), Type: string(e.Type),
		Status: e.Status, Cause: e.Cause, Signal: e.Signal}
	if e.ID != nil {
		m.ID = e.ID.String()
	}
	switch e.Type {
	case trace.TypeStart:
		m.Glyph, m.Label = glyphStart, "start"
	case trace.TypeStatus:
		m.Glyph, m.Label = glyphStatus, cmp(e.Status, "status")
	case trace.TypeIgnore:
		m.Glyph, m.Label = glyphIgnore, "ignored"
	case trace.TypeSuppress:
		m.Glyph, m.Label = glyphSuppress, "suppressed"
	case trace.TypeTimeout:
		m.Glyph, m.Label = glyphTimeout, "timeout"
		switch e.Cause {
		case trace.CauseIdleTimeout:
			m.Label = "idle timeout"
		case trace.CauseMaxTimeout:
			m.Label = "max timeout"
		}
	case trace.TypeError:
		m.Glyph, m.Label = glyphError, "error"
	case trace.TypeKeepalive:
		m.Glyph = glyphKeepalive
	case trace.TypeActivity:
		// The engine says which clocks the progress restarted: without an
		// idle clock it is activity that resets nothing (DOMAIN.md §2).
		m.Glyph, m.Label = glyphActivity, "activity"
		if e.Restarts == trace.RestartsIdle || e.Restarts == trace.RestartsIdleMax {
			m.Label = "idle reset"
		}
	case trace.TypeAccept:
		m.Glyph, m.Label = glyphAccept, "accepted"
	case trace.TypeDrop:
		m.Glyph, m.Label = glyphLost, "lost"
	case trace.TypeCloseStream:
		m.Glyph, m.Label = glyphClose, "close stream"
		m.Signal = cmp(m.Signal, trace.SignalCloseStream)
	case trace.TypeSkip:
		// A step with no message on the wire: its label says it never
		// happened, its title (the note) why.
		m.Glyph, m.Label = glyphSkip, "skipped"
	case glyphHold:
		m.Glyph, m.Label = glyphHold, "held"
	case glyphFlush:
		m.Glyph, m.Label = glyphFlush, "flush"
	default:
		m.Glyph, m.Label = glyphOther, string(e.Type)
	}
	if multi && m.ID != "" && m.Label != "" {
		m.Label += " (" + m.ID + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d ms, %s: %s", e.At, m.Actor, e.Type)
	if m.ID != "" {
		fmt.Fprintf(&b, " (request %s)", m.ID)
	}
	if e.Status != "" {
		fmt.Fprintf(&b, ", status %s", e.Status)
	}
	if e.Cause != "" {
		fmt.Fprintf(&b, ", cause %s", e.Cause)
	}
	if e.Note != "" {
		b.WriteString("\n" + e.Note)
	}
	if len(e.Message) > 0 {
		b.WriteString("\n" + shownJSON(e.Message))
	}
	m.Title = b.String()
	return m
}

// onceBetter says, per lane, whether the once layout (labels a lane
// already shows left off) replaces the full one: where it takes fewer rows
// and still labels at least half the lane's marks. A lane of alike marks
// a few apart (idle resets, accepted polls) loses a row or two of
// repeats; a lane whose marks are mostly repeats (a buffer's enqueue and
// coalesce every 50 ms, 8 of 13 left as bare dots at 390 px) keeps its
// labels and its rows, as the dots are what it shows.
func onceBetter(once []mark, places []markPlace, onceLanes, lanes []markRows) []bool {
	marks, labelled := make([]int, len(lanes)), make([]int, len(lanes))
	for i, p := range places {
		marks[p.lane]++
		if once[i].Label != "" {
			labelled[p.lane]++
		}
	}
	better := make([]bool, len(lanes))
	for li := range lanes {
		better[li] = len(onceLanes[li]) < len(lanes[li]) && 2*labelled[li] >= marks[li]
	}
	return better
}
