package scenario

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Value kinds: how Edit and EditValue encode an edit's text (a page
// control's DOM value, its data-kind).
const (
	ValueString  = "string"  // the value as a JSON string
	ValueInteger = "integer" // the value read as a whole number (1e3 too), written base-10
	ValueBool    = "bool"    // the checked state as true or false
	// ValueOptionalInteger is an integer where 0 or nothing means "none":
	// the member is removed so the scenario falls back to its default.
	ValueOptionalInteger = "optional-integer"
)

// Edit applies one edit by path to the scenario document data: it encodes
// value by kind (EditValue) and writes it at path with SetPath, or removes
// the member with DeletePath when the value means "none". Every other byte
// of data is kept. It knows no scenario rules: validate the result with
// Decode. Errors are *Error values at path: ErrValue for a value its kind
// refuses (`latencyMs.up: "x" is not a whole number`) or an unknown kind,
// ErrBadPath for a path the document cannot take.
//
// It is how a page's controls edit a scenario: each control names its path
// and kind, so no editing logic lives in the browser glue.
func Edit(data []byte, path, kind, value string, checked bool) ([]byte, error) {
	raw, err := EditValue(kind, value, checked)
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	if raw == nil {
		return DeletePath(data, path)
	}
	return SetPath(data, path, raw)
}

// EditValue encodes an edit's text as the JSON that Edit writes: for
// ValueString the value as a JSON string, for ValueInteger the value
// (spaces trimmed) read as a whole number and written as a base-10
// integer (1e3 and 1000.0 are 1000: WholeNumber; one past the int64
// range is written as typed, for Decode to refuse with the field's
// bound), for ValueBool the checked state, for ValueOptionalInteger the
// integer, or nil (no value: delete the member) for 0 or an empty field.
// Errors wrap ErrValue and name the bad text or kind (1.5 is not a whole
// number).
func EditValue(kind, value string, checked bool) (json.RawMessage, error) {
	switch kind {
	case ValueOptionalInteger:
		if strings.TrimSpace(value) == "" {
			return nil, nil
		}
		raw, err := EditValue(ValueInteger, value, checked)
		if string(raw) == "0" { // 0, 0.0, 0e3: none
			return nil, nil
		}
		return raw, err
	case ValueBool:
		return json.RawMessage(strconv.FormatBool(checked)), nil
	case ValueInteger:
		v := strings.TrimSpace(value)
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return json.RawMessage(strconv.FormatInt(n, 10)), nil
		}
		n, over, ok := WholeNumber(v)
		switch {
		case !ok:
			return nil, errAt("", ErrValue, "%q is not a whole number", value).Err
		case over != 0:
			// Whole but past int64: written as typed, so Decode names the
			// field's bound at its place.
			return json.RawMessage(v), nil
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), nil
	case ValueString:
		b, err := json.Marshal(value)
		if err != nil {
			return nil, errAt("", ErrValue, "encoding %q: %v", value, err).Err
		}
		return b, nil
	}
	return nil, errAt("", ErrValue, "unknown value kind %q", kind).Err
}
