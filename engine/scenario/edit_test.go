package scenario

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestEditValue: an edit's text becomes JSON by its kind (the control
// kinds of the pages: data-kind).
func TestEditValue(t *testing.T) {
	tests := []struct {
		kind, value string
		checked     bool
		want        string
		wantErr     bool
	}{
		{ValueString, "streamable-http", false, `"streamable-http"`, false},
		{ValueString, `a "quoted" <b>`, false, `"a \"quoted\" \u003cb\u003e"`, false},
		{ValueInteger, "320", false, `320`, false},
		{ValueInteger, " 15 ", false, `15`, false},
		{ValueInteger, "-5", false, `-5`, false},
		{ValueInteger, "", false, ``, true},
		{ValueInteger, "1.5", false, ``, true},
		// A whole number however typed (a number input takes 1e3): the
		// base-10 integer; a fraction is not one.
		{ValueInteger, "1e3", false, `1000`, false},
		{ValueInteger, "1000.0", false, `1000`, false},
		{ValueInteger, "1E+3", false, `1000`, false},
		{ValueInteger, "2.55e1", false, ``, true},
		{ValueInteger, "-2.5e1", false, `-25`, false},
		{ValueInteger, "1e-3", false, ``, true},
		{ValueInteger, "1e30", false, `1e30`, false}, // Decode names the field's bound
		{ValueOptionalInteger, "0.0", false, ``, false},
		{ValueOptionalInteger, "5e2", false, `500`, false},
		{ValueOptionalInteger, "500", false, `500`, false},
		{ValueOptionalInteger, "0", false, ``, false},
		{ValueOptionalInteger, " ", false, ``, false},
		{ValueOptionalInteger, "x", false, ``, true},
		{ValueBool, "on", true, `true`, false},
		{ValueBool, "on", false, `false`, false},
		{"color", "red", false, ``, true},
	}
	for _, tt := range tests {
		got, err := EditValue(tt.kind, tt.value, tt.checked)
		if (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, ErrValue)) {
			t.Errorf("EditValue(%q, %q, %v) error = %v, want error %v (ErrValue)", tt.kind, tt.value, tt.checked, err, tt.wantErr)
			continue
		}
		if err == nil && string(got) != tt.want {
			t.Errorf("EditValue(%q, %q, %v) = %s, want %s", tt.kind, tt.value, tt.checked, got, tt.want)
		}
		if err == nil && tt.want != "" && !json.Valid(got) {
			t.Errorf("EditValue(%q, %q) = %s, not JSON", tt.kind, tt.value, got)
		}
	}
}

// TestEdit: an edit writes its value at its path keeping every other byte,
// "none" removes the member so the default applies, and a bad value is an
// *Error at the path with the text the page shows.
func TestEdit(t *testing.T) {
	data := []byte(`{"mcplab": 1, "client": {"idleTimeoutMs": 500}, "steps": [{"at": 0, "do": "call", "id": 7}]}`)
	for _, tc := range []struct {
		path, kind, value string
		checked           bool
		want              string
	}{
		{"steps[0].at", ValueInteger, "40", false, `{"mcplab": 1, "client": {"idleTimeoutMs": 500}, "steps": [{"at": 40, "do": "call", "id": 7}]}`},
		{"transport", ValueString, "streamable-http", false, `{"mcplab": 1, "client": {"idleTimeoutMs": 500}, "steps": [{"at": 0, "do": "call", "id": 7}],"transport":"streamable-http"}`},
		{"client.policy.progressResetsMax", ValueBool, "", true, `{"mcplab": 1, "client": {"idleTimeoutMs": 500,"policy":{"progressResetsMax":true}}, "steps": [{"at": 0, "do": "call", "id": 7}]}`},
		{"client.idleTimeoutMs", ValueOptionalInteger, "0", false, `{"mcplab": 1, "client": {}, "steps": [{"at": 0, "do": "call", "id": 7}]}`},
	} {
		got, err := Edit(data, tc.path, tc.kind, tc.value, tc.checked)
		if err != nil || string(got) != tc.want {
			t.Errorf("Edit(%s = %q) = %s, %v\nwant %s", tc.path, tc.value, got, err, tc.want)
		}
	}
	_, err := Edit(data, "latencyMs.up", ValueInteger, "x", false)
	var e *Error
	if !errors.As(err, &e) || e.Path != "latencyMs.up" || !errors.Is(err, ErrValue) || err.Error() != `latencyMs.up: "x" is not a whole number` {
		t.Errorf("a bad integer: %v, want ErrValue at latencyMs.up", err)
	}
	if _, err := Edit(data, "steps[3].at", ValueInteger, "1", false); !errors.Is(err, ErrBadPath) {
		t.Errorf("an index out of range: %v, want ErrBadPath", err)
	}
}
