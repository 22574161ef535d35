package scenario

import (
	_ "embed"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestSchemaMatchesDecoder keeps the published JSON Schema (SCENARIO.md:
// "JSON Schema for it ships with the site") in step with the decoder: the
// same verbs, and for each verb the same fields.
func TestSchemaMatchesDecoder(t *testing.T) {
	var s struct {
		Properties struct {
			Steps struct {
				Items struct {
					OneOf []struct {
						Properties map[string]json.RawMessage `json:"properties"`
					} `json:"oneOf"`
				} `json:"items"`
			} `json:"steps"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Schema, &s); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, v := range s.Properties.Steps.Items.OneOf {
		var verb string
		var c struct {
			Const string `json:"const"`
		}
		_ = json.Unmarshal(v.Properties["do"], &c)
		verb = c.Const
		fields, ok := Verbs[verb]
		if !ok {
			t.Errorf("schema verb %q is unknown to the decoder", verb)
			continue
		}
		seen[verb] = true
		var got, want []string
		for f := range v.Properties {
			if f != "at" && f != "do" {
				got = append(got, f)
			}
		}
		want = append(want, fields...)
		sort.Strings(got)
		sort.Strings(want)
		if len(got) != len(want) {
			t.Errorf("verb %q: schema fields %v, decoder fields %v", verb, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("verb %q: schema fields %v, decoder fields %v", verb, got, want)
				break
			}
		}
	}
	for verb := range Verbs {
		if !seen[verb] {
			t.Errorf("decoder verb %q is missing from the schema", verb)
		}
	}
}

// TestSchemaStatesTheLimits: the schema the site serves states every
// document-wide bound with its number (issue 12: "document each in the
// package doc and the JSON Schema"), and the package doc does too.
func TestSchemaStatesTheLimits(t *testing.T) {
	var s struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(Schema, &s); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]int{"MaxBytes": MaxBytes, "MaxDepth": MaxDepth, "MaxPayloadBytes": MaxPayloadBytes, "MaxSteps": MaxSteps} {
		num := strconv.Itoa(n)
		if !strings.Contains(s.Description, num+" ") && !strings.Contains(s.Description, num+")") {
			t.Errorf("the schema's description does not state %s = %s", name, num)
		}
		if !strings.Contains(string(doc), num) {
			t.Errorf("the package doc does not state %s = %s", name, num)
		}
	}
}
