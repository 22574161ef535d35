package transcript

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
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
	sent := map[int]bool{}        // wire numbers whose send event is in the trace
	for _, e := range tr.Events {
		if e.Type == trace.TypeSend {
			sent[e.Wire] = true
		}
	}
	for _, e := range tr.Events {
		if len(e.Message) == 0 || seen[e.Wire] || (e.Type != trace.TypeSend && e.Type != trace.TypeDeliver) {
			continue
		}
		if e.Type == trace.TypeDeliver && e.Wire > 0 && sent[e.Wire] {
			continue // a two-sided or wire-view transcript: only the send becomes a step
		}
		seen[e.Wire] = true
		at := e.At
		if tr.Source != nil && tr.Source.Clock == "order" {
			at = e.At * OrderStepMs
		}
		m, err := jsonrpc.Parse(e.Message)
		if err != nil {
			continue
		}
		id, hasID := m.ID, m.ID != ""
		raw := step{"at": at, "do": scenario.VerbSend, "message": e.Message}
		if e.From == trace.ActorServer {
			raw["from"] = trace.ActorServer
		}
		switch {
		case e.From == trace.ActorClient && hasID && m.Method != "" && !calls[id]:
			s := step{"at": at, "do": scenario.VerbCall, "id": json.RawMessage(id), "method": m.Method}
			if m.Method == jsonrpc.MethodToolsCall {
				s["name"] = m.Name
				if len(m.Arguments) > 0 && m.Arguments[0] == '{' {
					s["arguments"] = m.Arguments
				}
			}
			if tok := m.ProgressToken; tok != "" && m.Method != jsonrpc.MethodProgress {
				s["progressToken"] = json.RawMessage(tok)
				tokens[tok] = id
			}
			calls[id] = true
			steps = append(steps, s)
		case e.From == trace.ActorClient && m.Method == jsonrpc.MethodCancelled:
			c, err := m.Cancellation()
			if err != nil || !calls[c.RequestID] {
				steps = append(steps, raw)
				break
			}
			s := step{"at": at, "do": scenario.VerbCancel, "id": json.RawMessage(c.RequestID)}
			if c.Reason != nil {
				s["reason"] = *c.Reason
			}
			steps = append(steps, s)
		case e.From == trace.ActorServer && hasID && m.Method == "" && calls[id] && m.Error != nil && m.ErrorCode != nil:
			steps = append(steps, step{"at": at, "do": scenario.VerbFail, "id": json.RawMessage(id), "code": *m.ErrorCode, "message": m.ErrorMessage})
		case e.From == trace.ActorServer && hasID && m.Method == "" && calls[id] && m.Error == nil:
			steps = append(steps, step{"at": at, "do": scenario.VerbComplete, "id": json.RawMessage(id), "result": m.Result})
		case e.From == trace.ActorServer && m.Method == jsonrpc.MethodProgress:
			if owner, ok := tokens[m.ProgressToken]; ok && m.ProgressToken != "" && m.Progress != nil {
				s := step{"at": at, "do": scenario.VerbProgress, "id": json.RawMessage(owner), "progress": *m.Progress}
				if m.Total != nil {
					s["total"] = *m.Total
				}
				if msg, ok := progressMessage(m.Params); ok {
					s["message"] = msg
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
		if c.Rule == checks.NoMessageAfterCancel && c.OK != nil && !*c.OK {
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

// progressMessage is params.message of a notifications/progress when it is
// a string.
func progressMessage(params json.RawMessage) (string, bool) {
	var p struct {
		Message *string `json:"message"`
	}
	if json.Unmarshal(params, &p) != nil || p.Message == nil {
		return "", false
	}
	return *p.Message, true
}
