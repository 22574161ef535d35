package scenario

import (
	"encoding/json"
	"errors"
	"testing"
)

const patchDoc = `{
  "mcplab": 1,
  "transport": "stdio",
  "latencyMs": {"up": 10, "down": 10},
  "steps": [
    {"at": 0, "do": "call", "id": 7},
    {"at": 300, "do": "cancel", "id": 7},
    {"at": 320, "do": "complete", "id": 7}
  ]
}`

// TestSetPath proves that SetPath edits exactly the addressed member and
// keeps every other byte: the page's controls rely on it to edit a
// scenario without knowing its rules.
func TestSetPath(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		path  string
		value string
		want  string
	}{
		{"top-level member", `{"a":1,"transport":"stdio"}`, "transport", `"streamable-http"`, `{"a":1,"transport":"streamable-http"}`},
		{"nested member", `{"latencyMs": {"up": 10, "down": 10}}`, "latencyMs.up", `25`, `{"latencyMs": {"up": 25, "down": 10}}`},
		{"array element member", `{"steps":[{"at":0},{"at":300},{"at":320}]}`, "steps[2].at", `400`, `{"steps":[{"at":0},{"at":300},{"at":400}]}`},
		{"whole array element", `{"steps":[1, 2 ,3]}`, "steps[1]", `{"x": true}`, `{"steps":[1, {"x":true} ,3]}`},
		{"new member appended", `{"a":1}`, "title", `"t"`, `{"a":1,"title":"t"}`},
		{"new member in empty object", `{ }`, "title", `"t"`, `{ "title":"t"}`},
		{"intermediate objects created", `{"mcplab":1}`, "client.policy.progressResetsMax", `true`, `{"mcplab":1,"client":{"policy":{"progressResetsMax":true}}}`},
		{"partly existing path", `{"client":{"idleTimeoutMs":500}}`, "client.policy.httpCancel", `"post-notification"`, `{"client":{"idleTimeoutMs":500,"policy":{"httpCancel":"post-notification"}}}`},
		{"null replaced by object", `{"client":null}`, "client.id", `"c"`, `{"client":{"id":"c"}}`},
		{"value compacted", `{"a":1}`, "a", "{ \"b\" : [1, 2] }", `{"a":{"b":[1,2]}}`},
		{"repeated member edits the last", `{"a":1,"a":2}`, "a", `3`, `{"a":1,"a":3}`},
		{"escaped member name", `{"a\u0062":1}`, "ab", `2`, `{"a\u0062":2}`},
		{"formatting kept", patchDoc, "steps[1].at", `500`, `{
  "mcplab": 1,
  "transport": "stdio",
  "latencyMs": {"up": 10, "down": 10},
  "steps": [
    {"at": 0, "do": "call", "id": 7},
    {"at": 500, "do": "cancel", "id": 7},
    {"at": 320, "do": "complete", "id": 7}
  ]
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetPath([]byte(tt.doc), tt.path, json.RawMessage(tt.value))
			if err != nil {
				t.Fatalf("SetPath(%q) error: %v", tt.path, err)
			}
			if string(got) != tt.want {
				t.Errorf("SetPath(%q)\n got %s\nwant %s", tt.path, got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("result is not valid JSON: %s", got)
			}
		})
	}
}

// TestSetPathErrors proves that a bad path or value gives an *Error wrapping
// ErrBadPath located at the part of the path that failed, and never a panic.
func TestSetPathErrors(t *testing.T) {
	tests := []struct {
		name     string
		doc      string
		path     string
		value    string
		wantPath string
		sentinel error
	}{
		{"empty path", `{}`, "", `1`, "", ErrBadPath},
		{"empty name", `{}`, "a..b", `1`, "a..b", ErrBadPath},
		{"trailing dot", `{}`, "a.", `1`, "a.", ErrBadPath},
		{"unclosed index", `{}`, "steps[1", `1`, "steps[1", ErrBadPath},
		{"negative index", `{}`, "steps[-1]", `1`, "steps[-1]", ErrBadPath},
		{"non-numeric index", `{}`, "steps[x]", `1`, "steps[x]", ErrBadPath},
		{"garbage after index", `{}`, "steps[1]at", `1`, "steps[1]at", ErrBadPath},
		{"index out of range", patchDoc, "steps[3].at", `1`, "steps[3]", ErrBadPath},
		{"index into an object", patchDoc, "latencyMs[0]", `1`, "latencyMs", ErrBadPath},
		{"member of a string", patchDoc, "transport.kind", `1`, "transport", ErrBadPath},
		{"member of a number", patchDoc, "latencyMs.up.x", `1`, "latencyMs.up", ErrBadPath},
		{"missing array", `{}`, "steps[0].at", `1`, "steps", ErrBadPath},
		{"value not JSON", `{}`, "a", `{`, "a", ErrBadPath},
		{"document not JSON", `{"a":`, "a", `1`, "", ErrSyntax},
		{"document not an object", `[1]`, "a", `1`, "", ErrBadPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetPath([]byte(tt.doc), tt.path, json.RawMessage(tt.value))
			if err == nil {
				t.Fatalf("SetPath(%q) = %s, want an error", tt.path, got)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if se.Path != tt.wantPath {
				t.Errorf("error path = %q, want %q (%v)", se.Path, tt.wantPath, err)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tt.sentinel)
			}
		})
	}
}

// FuzzSetPath: SetPath and DeletePath never panic, and whenever they
// succeed the result is valid JSON.
func FuzzSetPath(f *testing.F) {
	f.Add(patchDoc, "steps[1].at", "500")
	f.Add(`{}`, "client.policy.httpCancel", `"close-stream"`)
	f.Add(`{"a":[{"b":null}]}`, "a[0].b.c", `[1]`)
	f.Fuzz(func(t *testing.T, doc, path, value string) {
		got, err := SetPath([]byte(doc), path, json.RawMessage(value))
		if err == nil && !json.Valid(got) {
			t.Fatalf("SetPath(%q, %q, %q) = %q, not valid JSON", doc, path, value, got)
		}
		got, err = DeletePath([]byte(doc), path)
		if err == nil && !json.Valid(got) {
			t.Fatalf("DeletePath(%q, %q) = %q, not valid JSON", doc, path, got)
		}
	})
}

// TestDeletePath proves that DeletePath removes exactly the addressed
// member, and that a missing one is not an error.
func TestDeletePath(t *testing.T) {
	tests := []struct {
		name, doc, path, want string
	}{
		{"top-level member", `{"a":1, "b": 2 ,"c":3}`, "b", `{"a":1,"c":3}`},
		{"nested member", `{ "client": {"idleTimeoutMs": 500, "maxTimeoutMs": 2000}, "x": [1, 2] }`, "client.idleTimeoutMs", `{ "client": {"maxTimeoutMs":2000}, "x": [1, 2] }`},
		{"member of an array element", `{"steps":[{"at":0},{"at":5,"idleTimeoutMs":9}]}`, "steps[1].idleTimeoutMs", `{"steps":[{"at":0},{"at":5}]}`},
		{"last member", `{"a":1}`, "a", `{}`},
		{"missing member", `{"a":1}`, "b", `{"a":1}`},
		{"missing parent", `{"a":1}`, "client.policy.httpCancel", `{"a":1}`},
		{"null parent", `{"client":null}`, "client.id", `{"client":null}`},
		{"missing element", `{"steps":[]}`, "steps[3].at", `{"steps":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DeletePath([]byte(tt.doc), tt.path)
			if err != nil {
				t.Fatalf("DeletePath(%q) error: %v", tt.path, err)
			}
			if string(got) != tt.want {
				t.Errorf("DeletePath(%q)\n got %s\nwant %s", tt.path, got, tt.want)
			}
		})
	}
	for _, bad := range []struct{ doc, path, wantPath string }{
		{`{"steps":[1]}`, "steps[0]", "steps[0]"},
		{`{"a":"x"}`, "a.b", "a"},
		{`{}`, "a..b", "a..b"},
	} {
		_, err := DeletePath([]byte(bad.doc), bad.path)
		var se *Error
		if !errors.As(err, &se) || se.Path != bad.wantPath || !errors.Is(err, ErrBadPath) {
			t.Errorf("DeletePath(%s, %q) = %v, want an ErrBadPath at %q", bad.doc, bad.path, err, bad.wantPath)
		}
	}
}
