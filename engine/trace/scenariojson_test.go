package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// encodingJSON is the trace's scenario as encoding/json writes it (the
// reference appendScenario must equal): a json.Encoder with HTML escaping
// off, its trailing newline dropped.
func encodingJSON(t *testing.T, s *scenario.Scenario) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// newWriter writes the trace's scenario with appendScenario, or with
// encoding/json when appendScenario declines: either way the bytes are
// encoding/json's (golden traces byte-identical, issue 11), for every
// built-in scenario, for one with every field of every struct set (so a
// field added to the scenario without a line in appendScenario fails
// here), and for strings, floats and raw JSON at the edges of what
// encoding/json escapes or formats differently.
func TestAppendScenarioMatchesEncodingJSON(t *testing.T) {
	var cases []*scenario.Scenario
	files, err := filepath.Glob("../examples/*.json")
	if err != nil || len(files) < 10 {
		t.Fatalf("built-in scenarios: %d files, %v", len(files), err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cases = append(cases, s)
	}
	full := &scenario.Scenario{}
	fill(reflect.ValueOf(full).Elem(), 0)
	if full.Steps[0].Call == nil || full.Proxy == nil || full.Steps[0].Progress == nil {
		t.Fatal("fill left pointers nil")
	}
	cases = append(cases, full)
	for _, edge := range []struct {
		str string
		f   float64
		raw string
	}{
		{"a\"b\\c\n\t\x01<>&", 1e21, `{"a":"<&>"}`},
		{"\u2028\u2029 é \xff", 1e-7, `["\u2028",1e3]`},
		{"", 0.000001, `"x\"y"`},
		{"plain", -0.0, `{"a":[1,2,{"b":null}]}`},
		{"plain", 123456789.125, "{\"a\": 1}"}, // whitespace: encoding/json compacts it
		{"plain", 1e20, "[1,\n2]"},
		{"plain", math.SmallestNonzeroFloat64, `true`},
	} {
		s := &scenario.Scenario{Title: edge.str, Steps: []scenario.Step{{Do: edge.str, Progress: &edge.f, Result: json.RawMessage(edge.raw)}}}
		cases = append(cases, s)
	}
	for i, s := range cases {
		want, err := encodingJSON(t, s)
		if err != nil {
			t.Fatalf("case %d: encoding/json: %v", i, err)
		}
		w := newWriter(&Trace{Scenario: s}, 1<<30)
		if w.scenarioErr != nil {
			t.Fatalf("case %d: %v", i, w.scenarioErr)
		}
		if got := bytes.TrimSuffix(w.scenario, []byte("\n")); !bytes.Equal(got, want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// appendScenario declines (false) what encoding/json fails on or would
// compact, so newWriter falls back to it: a NaN, invalid raw JSON, raw
// JSON with whitespace.
func TestAppendScenarioDeclinesWhatItCannotVouchFor(t *testing.T) {
	nan := math.NaN()
	for _, st := range []scenario.Step{
		{Progress: &nan},
		{Result: json.RawMessage(`{"a":`)},
		{Result: json.RawMessage(`{"a": 1}`)},
	} {
		s := &scenario.Scenario{Steps: []scenario.Step{st}}
		if _, ok := appendScenario(nil, s); ok {
			t.Errorf("appendScenario(%+v) ok, want a fallback to encoding/json", st)
		}
		_, wantErr := encodingJSON(t, s)
		w := newWriter(&Trace{Scenario: s}, 1<<30)
		if (wantErr != nil) != (w.scenarioErr != nil) {
			t.Errorf("newWriter error %v, encoding/json's %v", w.scenarioErr, wantErr)
		}
	}
}

// fill sets every settable field under v to a value that is not the zero
// value (pointers allocated, one slice element), down to Step.Call once.
func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s<é>\"")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(-7)
	case reflect.Float64:
		v.SetFloat(2.5e-7)
	case reflect.Pointer:
		if v.Type() == reflect.TypeFor[*scenario.ID]() {
			id := scenario.NewStringID("i<d")
			v.Set(reflect.ValueOf(&id))
			return
		}
		if depth > 1 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"k":["<v>",1.5,null]}`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), depth)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth)
			}
		}
	}
}
