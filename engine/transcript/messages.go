package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/scenario"
)

// checkMessage applies to one recorded message (raw, compacted JSON, from
// line n) the bounds the scenario decoder applies to a document
// (scenario.CheckStructure): no value nested deeper than scenario.MaxDepth
// (64) arrays and objects, the message itself counting, and no member name
// twice in one object (encoding/json would keep the last, so two readers
// of the log could disagree on what was sent). It also says plainly when
// the message is a JSON-RPC batch (an array) in a format that records one
// message per line, and when it is not a JSON object at all. The error
// names the line and the place inside the message, and wraps
// scenario.ErrLimit or scenario.ErrDuplicate.
func checkMessage(n int, raw json.RawMessage) error {
	if len(raw) > 0 && raw[0] == '[' {
		return batchErr(n, raw)
	}
	if len(raw) == 0 || raw[0] != '{' {
		return lineErr(n, "the message is %s, not a JSON-RPC message (a JSON object)", excerpt(string(raw)))
	}
	if err := scenario.CheckStructure(raw); err != nil {
		var se *scenario.Error
		if errors.As(err, &se) && se.Path != "" {
			// The path of the 65th bracket is long: its start says where.
			return &Error{Line: n, Err: fmt.Errorf("%w: in the message at %s: %w", ErrTranscript, excerpt(se.Path), se.Err)}
		}
		return &Error{Line: n, Err: fmt.Errorf("%w: in the message: %w", ErrTranscript, err)}
	}
	return nil
}

// batchErr is the error for a JSON-RPC batch (a JSON array of messages) on
// line n of a format that records one message per line (the Go SDK's log,
// the lab's JSON Lines). MCP revision 2025-06-18 removed batches; the
// formats that carry them on the wire (a stdio tee, Claude Desktop's log,
// HTTP dumps and HAR files) are split into their messages instead.
func batchErr(n int, raw json.RawMessage) error {
	var msgs []json.RawMessage
	count := "several messages"
	if json.Unmarshal(raw, &msgs) == nil {
		switch len(msgs) {
		case 0:
			count = "no messages"
		case 1:
			count = "one message"
		default:
			count = strconv.Itoa(len(msgs)) + " messages"
		}
	}
	return lineErr(n, "the message is a JSON-RPC batch (a JSON array of %s); this format records one message per line, and MCP removed batches in revision 2025-06-18: write each message of the batch on a line of its own", count)
}

// checkLineKeys refuses a JSON Lines line (line n, valid JSON) that names
// one of its own members twice ({"t": 1, "t": 2, ...}): which time or
// sender was meant is ambiguous. Nesting is left to checkMessage, which
// counts from the message.
func checkLineKeys(n int, line string) error {
	err := scenario.CheckStructure([]byte(line))
	var se *scenario.Error
	if errors.As(err, &se) && errors.Is(err, scenario.ErrDuplicate) && !strings.HasPrefix(se.Path, "message") {
		return &Error{Line: n, Err: fmt.Errorf("%w: %w", ErrTranscript, se)}
	}
	return nil
}
