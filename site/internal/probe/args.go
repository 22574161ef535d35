package probe

// What the probe says when it has no -args for a tool that requires
// arguments: it does not call the tool with {} (the call would fail for
// want of them, and every situation after it would judge that failure),
// it skips the situation and suggests an -args value built from the
// tool's inputSchema.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// requiredArgs returns the names the inputSchema schema lists under
// "required" (sorted; none for a schema that is not an object or lists
// none).
func requiredArgs(schema json.RawMessage) []string {
	var s struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	names := append([]string(nil), s.Required...)
	sort.Strings(names)
	return names
}

// suggestArgs builds an -args value for schema: each required property
// with its default, else its first enum value or example, else a value of
// its type (1 for integer and number, "" for string, false, [] or {}; null
// when the schema names no type).
func suggestArgs(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type     json.RawMessage   `json:"type"`
			Default  json.RawMessage   `json:"default"`
			Enum     []json.RawMessage `json:"enum"`
			Examples []json.RawMessage `json:"examples"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	var parts []string
	for _, name := range requiredArgs(schema) {
		p := s.Properties[name]
		v := json.RawMessage("null")
		switch {
		case p.Default != nil:
			v = p.Default
		case len(p.Enum) > 0:
			v = p.Enum[0]
		case len(p.Examples) > 0:
			v = p.Examples[0]
		default:
			v = zeroOfType(p.Type)
		}
		k, _ := json.Marshal(name)
		parts = append(parts, string(k)+":"+string(v))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// zeroOfType is a JSON value of the JSON Schema type t (a name, or a list
// whose first name that is not "null" counts).
func zeroOfType(t json.RawMessage) json.RawMessage {
	var one string
	if json.Unmarshal(t, &one) != nil {
		var many []string
		_ = json.Unmarshal(t, &many)
		for _, n := range many {
			if n != "null" {
				one = n
				break
			}
		}
	}
	switch one {
	case "integer", "number":
		return json.RawMessage("1")
	case "string":
		return json.RawMessage(`""`)
	case "boolean":
		return json.RawMessage("false")
	case "array":
		return json.RawMessage("[]")
	case "object":
		return json.RawMessage("{}")
	}
	return json.RawMessage("null")
}

// needArgsError skips a situation that would call a tool without the
// arguments its inputSchema requires (no -args given); the probe exits 2,
// as for bad input, since nothing was tested.
type needArgsError struct{ msg string }

func (e *needArgsError) Error() string { return e.msg }

// needArgs is the needArgsError for tool t, with the -args value to try.
func needArgs(t probeTool) error {
	return &needArgsError{fmt.Sprintf("tool %q requires %s (its inputSchema) and no -args was given, so it was not called; try -args '%s' (built from the inputSchema: put real values in)",
		t.name, strings.Join(requiredArgs(t.schema), ", "), suggestArgs(t.schema))}
}
