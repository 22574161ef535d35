package transcript

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/scenario"
)

// Redacted replaces a string that Redact removes.
const Redacted = "(redacted)"

// Redact returns a scenario document (from ToScenario) with argument values
// and result text replaced, so a transcript can be shared without its data:
// every string under a call's arguments, a result, a raw message's params
// and result becomes Redacted and every number 0; progress messages,
// cancellation reasons and error messages become Redacted. Ids, methods,
// tool names, progress values and times are kept: they are the protocol
// story, not the data.
func Redact(doc json.RawMessage) (json.RawMessage, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTranscript, err)
	}
	steps, _ := d["steps"].([]any)
	for _, s := range steps {
		st, ok := s.(map[string]any)
		if !ok {
			continue
		}
		if v, ok := st["arguments"]; ok {
			st["arguments"] = scrub(v)
		}
		if v, ok := st["result"]; ok {
			st["result"] = scrubResult(v)
		}
		for _, k := range []string{"reason"} {
			if _, ok := st[k]; ok {
				st[k] = Redacted
			}
		}
		if st["do"] == string(scenario.VerbProgress) || st["do"] == string(scenario.VerbFail) {
			if _, ok := st["message"]; ok {
				st["message"] = Redacted
			}
		}
		if msg, ok := st["message"].(map[string]any); ok && st["do"] == string(scenario.VerbSend) {
			if v, ok := msg["result"]; ok {
				msg["result"] = scrubResult(v)
			}
			if e, ok := msg["error"].(map[string]any); ok {
				if _, ok := e["message"]; ok {
					e["message"] = Redacted
				}
				if v, ok := e["data"]; ok {
					e["data"] = scrub(v)
				}
			}
			if p, ok := msg["params"].(map[string]any); ok {
				for _, k := range []string{"arguments", "reason", "message"} {
					if v, ok := p[k]; ok {
						p[k] = scrub(v)
					}
				}
			}
		}
	}
	d["title"] = fmt.Sprint(d["title"], " (redacted)")
	return json.MarshalIndent(d, "", "  ")
}

// scrub replaces every string leaf with Redacted and every number with 0,
// keeping keys and shape.
func scrub(v any) any {
	switch x := v.(type) {
	case string:
		return Redacted
	case float64:
		return 0
	case map[string]any:
		for k, e := range x {
			x[k] = scrub(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = scrub(e)
		}
		return x
	}
	return v
}

// scrubResult redacts a result's data but keeps its protocol shape: content
// items keep their "type" (and a resource its "uri" and "mimeType"), their
// "text" and "data" are redacted, and structuredContent is scrubbed; other
// members (protocolVersion, capabilities, resultType, isError) stay.
func scrubResult(v any) any {
	r, ok := v.(map[string]any)
	if !ok {
		return scrub(v)
	}
	if items, ok := r["content"].([]any); ok {
		for _, it := range items {
			if c, ok := it.(map[string]any); ok {
				for _, k := range []string{"text", "data", "blob"} {
					if _, ok := c[k]; ok {
						c[k] = Redacted
					}
				}
			}
		}
	}
	if sc, ok := r["structuredContent"]; ok {
		r["structuredContent"] = scrub(sc)
	}
	return r
}
