package templates

// Message classification and label text: what kind of wire message an
// arrow carries, the short labels and tooltips of arrows and marks, and
// how a label is shortened to fit.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// fitLabel shortens label to at most maxW units (textWidth): first by
// dropping the leading segments of its method ("notifications/tasks/status
// (7)" becomes "…/tasks/status (7)", then "…/status (7)"), then by cutting
// its end at an ellipsis. A label that fits is returned as it is; the
// arrow's or mark's title always carries the whole text.
func fitLabel(label string, maxW float64) string {
	if textWidth(label) <= maxW {
		return label
	}
	s := label
	for textWidth(s) > maxW {
		head, rest, _ := strings.Cut(s, " ")
		head = strings.TrimPrefix(head, "…/")
		_, tail, ok := strings.Cut(head, "/")
		if !ok {
			break
		}
		s = "…/" + tail
		if rest != "" {
			s += " " + rest
		}
	}
	if textWidth(s) <= maxW {
		return s
	}
	r := []rune(s)
	n := max(1, int(maxW/charW)-1)
	if n >= len(r) {
		return s
	}
	return string(r[:n]) + "…"
}

// shownJSON is wire JSON as a tooltip shows it: the escapes \u003c, \u003e
// and \u0026 (either case), which encoding/json writes for <, > and & so
// that JSON can sit in HTML, become those characters again; the template
// escapes the text for HTML once, where it is written. Every other byte,
// and an escaped backslash followed by "u003c" (the text \u003c inside a
// string), stays as it is: the tooltip still reads as the JSON on the wire,
// whose bytes the trace and the events table keep unchanged. Cost:
// O(len(msg)).
func shownJSON(msg []byte) string {
	if !bytes.Contains(msg, []byte(`\u00`)) {
		return string(msg)
	}
	var b strings.Builder
	b.Grow(len(msg))
	for i := 0; i < len(msg); i++ {
		if msg[i] != '\\' || i+1 == len(msg) {
			b.WriteByte(msg[i])
			continue
		}
		if msg[i+1] == 'u' && i+6 <= len(msg) {
			switch strings.ToLower(string(msg[i+2 : i+6])) {
			case "003c":
				b.WriteByte('<')
				i += 5
				continue
			case "003e":
				b.WriteByte('>')
				i += 5
				continue
			case "0026":
				b.WriteByte('&')
				i += 5
				continue
			}
		}
		b.WriteByte(msg[i]) // the backslash and the byte it escapes
		b.WriteByte(msg[i+1])
		i++
	}
	return b.String()
}

// clipText is s cut to at most maxW (textWidth) with an ellipsis, or s
// when it fits.
func clipText(s string, maxW float64) string {
	if textWidth(s) <= maxW {
		return s
	}
	r := []rune(s)
	n := max(0, int(maxW/charW)-1)
	return string(r[:min(n, len(r))]) + "…"
}

// textWidth estimates the width of a label in the timeline's monospace font.
func textWidth(s string) float64 {
	return float64(len([]rune(s))) * charW
}

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

// wireMessage is the part of a JSON-RPC message the timeline labels.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code json.Number `json:"code"`
	} `json:"error"`
	Params struct {
		Name          string          `json:"name"`
		RequestID     json.RawMessage `json:"requestId"`
		Progress      json.Number     `json:"progress"`
		Total         json.Number     `json:"total"`
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"params"`
}

// idText is a JSON-RPC id from a wire message as the trace's requests
// write it (scenario.ID's text): a string id re-encoded without the HTML
// escapes the engine's json.Marshal put on the wire ("r\u003c" is "r<"),
// anything else as it is.
func idText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return scenario.NewStringID(s).Raw()
	}
	return string(raw)
}

// classify names the kind of a wire message and a short label for it.
func classify(msg json.RawMessage, signal string) (kind, label, method, id string) {
	if len(msg) == 0 {
		if signal == trace.SignalCloseStream {
			return kindClose, "close stream", "", ""
		}
		return kindKeepalive, "", "", ""
	}
	var m wireMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		// Not an object, or a field of an unexpected type: show it raw.
		var probe map[string]json.RawMessage
		if json.Unmarshal(msg, &probe) == nil {
			if raw, ok := probe["method"]; ok {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					return kindRaw, s + " (malformed)", s, ""
				}
			}
		}
		return kindRaw, "malformed message", "", ""
	}
	if len(m.ID) > 0 && string(m.ID) != "null" {
		id = idText(m.ID)
	}
	switch {
	case m.Method == "notifications/progress":
		label = "progress " + string(m.Params.Progress)
		if m.Params.Total != "" {
			label += "/" + string(m.Params.Total)
		}
		return kindProgress, label, m.Method, id
	case m.Method == "notifications/cancelled":
		if len(m.Params.RequestID) > 0 {
			id = idText(m.Params.RequestID)
		}
		return kindCancel, "notifications/cancelled", m.Method, id
	case m.Method != "" && id != "":
		label = m.Method
		if m.Params.Name != "" {
			label += " " + m.Params.Name
		}
		return kindRequest, label, m.Method, id
	case m.Method != "":
		return kindNotification, m.Method, m.Method, ""
	case m.Error != nil:
		label = "error"
		if m.Error.Code != "" {
			label += " " + string(m.Error.Code)
		}
		return kindError, label, "", id
	case len(m.Result) > 0:
		return kindResult, "result", "", id
	}
	return kindRaw, "message", "", id
}

func newArrow(wire int, send, deliver, drop *trace.Event, multi bool) arrow {
	a := arrow{Wire: wire, SendSeq: -1, DeliverSeq: -1, DropSeq: -1}
	var msg json.RawMessage
	var signal string
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

	var b strings.Builder
	fmt.Fprintf(&b, "wire %d, %s → %s: %s", wire, a.From, a.To, cmp(a.Label, a.Kind))
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
	a.Title = b.String()
	return a
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
