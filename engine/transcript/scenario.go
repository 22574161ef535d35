package transcript

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/trace"
)

// OrderStepMs is the virtual time between two messages of a transcript
// without timestamps when it becomes a scenario.
const OrderStepMs = 10

// ToScenario turns an imported trace into a scenario document that
// reproduces it with the simulated client and server, so it can be edited
// and shared: client requests become call steps, cancellations cancel
// steps, server progress, results and errors become progress, complete and
// fail steps, and anything else travels as a raw send. Latency is zero: each
// message happens at its recorded time. When the recorded server kept
// answering after a cancellation, the scenario turns on
// server.policy.respondAfterCancel so the simulation misbehaves the same way.
func ToScenario(tr *trace.Trace) (json.RawMessage, error) {
	type step map[string]any
	var steps []step
	calls := map[string]bool{}    // request id text → a call step exists
	tokens := map[string]string{} // progress token text → request id text
	seen := map[int]bool{}        // wire numbers already turned into a step
	for _, e := range tr.Events {
		if len(e.Message) == 0 || seen[e.Wire] || (e.Type != trace.TypeSend && e.Type != trace.TypeDeliver) {
			continue
		}
		if e.Type == trace.TypeDeliver && e.Wire > 0 && sentEarlier(tr, e) {
			continue
		}
		seen[e.Wire] = true
		at := e.At
		if tr.Source != nil && tr.Source.Clock == "order" {
			at = e.At * OrderStepMs
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(e.Message, &m) != nil {
			continue
		}
		id, hasID := coordinator.IDText(m.ID)
		raw := step{"at": at, "do": "send", "message": e.Message}
		if e.From == "server" {
			raw["from"] = "server"
		}
		switch {
		case e.From == "client" && hasID && m.Method != "" && !calls[id]:
			s := step{"at": at, "do": "call", "id": json.RawMessage(id), "method": m.Method}
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				Meta      struct {
					Token json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if m.Method == "tools/call" {
				s["name"] = p.Name
				if len(p.Arguments) > 0 && p.Arguments[0] == '{' {
					s["arguments"] = p.Arguments
				}
			}
			if tok, ok := coordinator.IDText(p.Meta.Token); ok {
				s["progressToken"] = json.RawMessage(tok)
				tokens[tok] = id
			}
			calls[id] = true
			steps = append(steps, s)
		case e.From == "client" && m.Method == "notifications/cancelled":
			c, err := coordinator.ParseCancellation(e.Message)
			if err != nil || !calls[c.RequestID] {
				steps = append(steps, raw)
				break
			}
			s := step{"at": at, "do": "cancel", "id": json.RawMessage(c.RequestID)}
			if c.Reason != nil {
				s["reason"] = *c.Reason
			}
			steps = append(steps, s)
		case e.From == "server" && hasID && m.Method == "" && calls[id] && m.Error != nil:
			steps = append(steps, step{"at": at, "do": "fail", "id": json.RawMessage(id), "code": m.Error.Code, "message": m.Error.Message})
		case e.From == "server" && hasID && m.Method == "" && calls[id]:
			steps = append(steps, step{"at": at, "do": "complete", "id": json.RawMessage(id), "result": m.Result})
		case e.From == "server" && m.Method == "notifications/progress":
			var p struct {
				Token    json.RawMessage `json:"progressToken"`
				Progress *float64        `json:"progress"`
				Total    *float64        `json:"total"`
				Message  *string         `json:"message"`
			}
			_ = json.Unmarshal(m.Params, &p)
			tok, _ := coordinator.IDText(p.Token)
			if owner, ok := tokens[tok]; ok && p.Progress != nil {
				s := step{"at": at, "do": "progress", "id": json.RawMessage(owner), "progress": *p.Progress}
				if p.Total != nil {
					s["total"] = *p.Total
				}
				if p.Message != nil {
					s["message"] = *p.Message
				}
				steps = append(steps, s)
				break
			}
			steps = append(steps, raw)
		default:
			steps = append(steps, raw)
		}
	}
	if steps == nil {
		steps = []step{}
	}
	doc := map[string]any{
		"mcplab": 1,
		"title":  "Reproduced from an imported transcript",
		"notes":  "Generated from a transcript: every message at its recorded time, with zero latency. Edit it freely.",
		"steps":  steps,
	}
	for _, c := range tr.Checks {
		if c.Rule == "no-message-after-cancel" && c.OK != nil && !*c.OK {
			doc["server"] = map[string]any{"policy": map[string]any{"respondAfterCancel": true}}
			doc["notes"] = fmt.Sprint(doc["notes"], " The recorded server answered after a cancellation, so server.policy.respondAfterCancel is on.")
		}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return b, nil
}

// sentEarlier reports whether the message delivered by e has its send event
// in the trace (a two-sided or wire-view transcript): only one of the two
// becomes a step.
func sentEarlier(tr *trace.Trace, e trace.Event) bool {
	for _, x := range tr.Events {
		if x.Type == trace.TypeSend && x.Wire == e.Wire {
			return true
		}
	}
	return false
}
