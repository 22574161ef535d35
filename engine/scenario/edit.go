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
	ValueInteger = "integer" // the value parsed as a base-10 integer
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
// (spaces trimmed) parsed as a base-10 integer, for ValueBool the checked
// state, for ValueOptionalInteger the integer, or nil (no value: delete the
// member) for 0 or an empty field. Errors wrap ErrValue and name the bad
// text or kind.
func EditValue(kind, value string, checked bool) (json.RawMessage, error) {
	switch kind {
	case ValueOptionalInteger:
		if v := strings.TrimSpace(value); v == "" || v == "0" {
			return nil, nil
		}
		return EditValue(ValueInteger, value, checked)
	case ValueBool:
		return json.RawMessage(strconv.FormatBool(checked)), nil
	case ValueInteger:
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return nil, errAt("", ErrValue, "%q is not a whole number", value).Err
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
