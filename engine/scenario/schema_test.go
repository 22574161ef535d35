package scenario

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
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
	seen := map[Verb]bool{}
	for _, v := range s.Properties.Steps.Items.OneOf {
		var verb Verb
		var c struct {
			Const string `json:"const"`
		}
		_ = json.Unmarshal(v.Properties["do"], &c)
		verb = Verb(c.Const)
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
// document-wide bound with its number ("document each in the
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

// TestSchemaStatesEveryIntegerRange (ledger.replicas looked
// unbounded): every integer member of the published schema states the
// decoder's own range as minimum and maximum, and its description (the
// playground editor's help) says both numbers. The decoder is asked, not
// copied: a member set to 1e30 must be refused at its path with "must be
// <= N", and to -1e30 with "must be >= M" (a whole number past int64
// names the bound it passed). A bound other than MaxDurationMs is also
// named in the package doc with its number.
func TestSchemaStatesEveryIntegerRange(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(Schema, &root); err != nil {
		t.Fatal(err)
	}
	pkgDoc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	// probe builds a document with value v at the member and returns the
	// path Decode must name.
	type member struct {
		name  string // "ledger.replicas", "steps{race}.connections"
		node  map[string]any
		probe func(v string) (doc, path string)
	}
	var members []member
	props := root["properties"].(map[string]any)
	for _, obj := range sortedKeys(props) {
		sub, _ := props[obj].(map[string]any)["properties"].(map[string]any)
		for _, field := range sortedKeys(sub) {
			node := sub[field].(map[string]any)
			if node["type"] != "integer" {
				continue
			}
			extra := ""
			if obj == "consumer" {
				extra = `"buffer":{},`
			}
			members = append(members, member{obj + "." + field, node, func(v string) (string, string) {
				return `{"mcplab":1,"transport":"streamable-http",` + extra + `"` + obj + `":{"` + field + `":` + v + `},"steps":[]}`, obj + "." + field
			}})
		}
	}
	// Per verb, a step with v in field (and what it needs before it).
	stepProbe := map[string]func(field, v string) (string, string){
		"call": func(f, v string) (string, string) {
			return `{"mcplab":1,"steps":[{"at":0,"do":"call","id":7,"` + f + `":` + v + `}]}`, "steps[0]." + f
		},
		"race": func(f, v string) (string, string) {
			return `{"mcplab":1,"ledger":{},"steps":[{"at":0,"do":"race","` + f + `":` + v + `,"call":{"id":9}}]}`, "steps[0]." + f
		},
		"produce": func(f, v string) (string, string) {
			step := map[string]string{"everyMs": "1", "count": "1"}
			step[f] = v
			return `{"mcplab":1,"steps":[` + call7 + `,{"at":0,"do":"produce","id":7,"everyMs":` + step["everyMs"] + `,"count":` + step["count"] + `}]}`, "steps[1]." + f
		},
		"fail": func(f, v string) (string, string) {
			return `{"mcplab":1,"steps":[` + call7 + `,{"at":0,"do":"fail","id":7,"` + f + `":` + v + `}]}`, "steps[1]." + f
		},
	}
	for _, b := range props["steps"].(map[string]any)["items"].(map[string]any)["oneOf"].([]any) {
		sp := b.(map[string]any)["properties"].(map[string]any)
		verb := sp["do"].(map[string]any)["const"].(string)
		for _, field := range sortedKeys(sp) {
			node := sp[field].(map[string]any)
			if node["type"] != "integer" {
				continue
			}
			m := member{name: "steps{" + verb + "}." + field, node: node}
			switch probe := stepProbe[verb]; {
			case field == "at": // the first member a step's decoding reads
				m.probe = func(v string) (string, string) {
					return `{"mcplab":1,"steps":[{"at":` + v + `,"do":"` + verb + `"}]}`, "steps[0].at"
				}
			case probe != nil:
				m.probe = func(v string) (string, string) { return probe(field, v) }
			default:
				t.Errorf("%s: an integer member with no probe: add its verb to stepProbe", m.name)
				continue
			}
			members = append(members, m)
		}
	}
	if len(members) < 40 {
		t.Fatalf("found %d integer members in the schema; the walk is broken", len(members))
	}
	for _, m := range members {
		bound := func(v, rel string) (int64, bool) {
			doc, path := m.probe(v)
			_, err := Decode([]byte(doc))
			var n int64
			var e *Error
			if !errors.As(err, &e) || e.Path != path {
				t.Errorf("%s = %s: Decode says %v; want the range's bound at %s", m.name, v, err, path)
				return 0, false
			}
			if _, serr := fmt.Sscanf(err.Error(), path+": must be "+rel+" %d", &n); serr != nil {
				t.Errorf("%s = %s: Decode says %q; want \"%s: must be %s N\"", m.name, v, err, path, rel)
				return 0, false
			}
			return n, true
		}
		desc, _ := m.node["description"].(string)
		for _, c := range []struct {
			keyword, probe, rel string
		}{{"maximum", "1e30", "<="}, {"minimum", "-1e30", ">="}} {
			want, ok := bound(c.probe, c.rel)
			if !ok {
				continue
			}
			got, has := m.node[c.keyword].(float64)
			if !has || int64(got) != want {
				t.Errorf("%s: the schema's %s is %v, the decoder's %d", m.name, c.keyword, m.node[c.keyword], want)
			}
			if num := strconv.FormatInt(want, 10); !strings.Contains(desc, num) {
				t.Errorf("%s: its description (the editor's help) does not say its %s %s: %q", m.name, c.keyword, num, desc)
			}
			if c.keyword == "maximum" && want != MaxDurationMs && !strings.Contains(string(pkgDoc), strconv.FormatInt(want, 10)) && !strings.Contains(string(pkgDoc), "32-bit") {
				t.Errorf("%s: the package doc does not state its maximum %d", m.name, want)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestSchemaStatesEveryHerdStrategy: the schema's herd.strategy enum is
// HerdStrategies, in order, and the decoder accepts each of them, so the
// schema, the decoder and the page's "Backoff strategy" control (which
// offers HerdStrategies) name the same strategies.
func TestSchemaStatesEveryHerdStrategy(t *testing.T) {
	var s struct {
		Properties struct {
			Herd struct {
				Properties struct {
					Strategy struct {
						Enum []string `json:"enum"`
					} `json:"strategy"`
				} `json:"properties"`
			} `json:"herd"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Schema, &s); err != nil {
		t.Fatal(err)
	}
	if got := s.Properties.Herd.Properties.Strategy.Enum; fmt.Sprint(got) != fmt.Sprint(HerdStrategies) {
		t.Errorf("schema herd.strategy enum %q, want HerdStrategies %q", got, HerdStrategies)
	}
	for _, v := range HerdStrategies {
		sc, err := Decode([]byte(`{"mcplab":1,"herd":{"strategy":"` + v + `"},"steps":[]}`))
		if err != nil || sc.Herd.Strategy != v {
			t.Errorf("herd.strategy %q: %v", v, err)
		}
	}
	if _, err := Decode([]byte(`{"mcplab":1,"herd":{"strategy":"linear"},"steps":[]}`)); err == nil {
		t.Errorf("herd.strategy \"linear\" decoded; want an error")
	}
}
