// Raw sends: what a scenario's send steps put on the wire as written
// (SCENARIO.md, client verb send: malformed or unknown cancellations, bad
// progress). They are the scenario author's test of the other side, not
// the conduct of the side that carries them, so a rule on that side's
// conduct leaves them out, as message-valid does (SCENARIO.md, "The wire
// of each revision"); a rule on how the receiver treats them keeps them.

package checks

import (
	"bytes"
	"encoding/json"

	"github.com/mcplab/mcplab/engine/trace"
)

// RawSends is the set of messages a trace's scenario sends raw, keyed by
// their compact JSON text. Empty for a transcript: a real peer's message
// is always its own conduct.
type RawSends map[string]bool

// RawSendsOf collects the messages tr's scenario puts on the wire with
// its send steps, by either side (send.from). Nil when tr has no
// scenario.
func RawSendsOf(tr *trace.Trace) RawSends {
	if tr == nil || tr.Scenario == nil {
		return nil
	}
	var raw RawSends
	for _, st := range tr.Scenario.Steps {
		if msg := st.SentRaw(); msg != nil {
			if raw == nil {
				raw = RawSends{}
			}
			raw[compactText(msg)] = true
		}
	}
	return raw
}

// Has reports whether msg is one of the raw sends, compared as compact
// JSON (the engine re-encodes what it puts on the wire).
func (r RawSends) Has(msg json.RawMessage) bool {
	return len(r) > 0 && len(msg) > 0 && r[compactText(msg)]
}

// compactText is msg without insignificant space, or msg as is when it
// is not JSON (a raw send may be any bytes).
func compactText(msg json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, msg) != nil {
		return string(msg)
	}
	return b.String()
}

// rawSend reports whether event i carries a message the scenario sent
// raw (RawSends), read once per view.
func (v *view) rawSend(i int) bool {
	if v.raw == nil {
		v.raw = RawSendsOf(v.tr)
		if v.raw == nil {
			v.raw = RawSends{}
		}
	}
	return v.raw.Has(v.ev[i].Message)
}
