package transcript

import (
	"encoding/json"
	"fmt"
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
		for _, k := range []string{"arguments", "result"} {
			if v, ok := st[k]; ok {
				st[k] = scrub(v)
			}
		}
		for _, k := range []string{"reason"} {
			if _, ok := st[k]; ok {
				st[k] = Redacted
			}
		}
		if st["do"] == "progress" || st["do"] == "fail" {
			if _, ok := st["message"]; ok {
				st["message"] = Redacted
			}
		}
		if msg, ok := st["message"].(map[string]any); ok && st["do"] == "send" {
			for _, k := range []string{"result", "error"} {
				if v, ok := msg[k]; ok {
					msg[k] = scrub(v)
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
