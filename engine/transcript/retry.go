package transcript

// A retry inferred from a transcript (DOMAIN.md §4–5): a log has no field
// saying that a tools/call repeats an earlier one, so the importer links
// one, conservatively, when the trace leaves no other reading.

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/trace"
)

// MaxRetryLookback bounds how many earlier calls of the same tool with the
// same arguments linkRetries looks back over for the one a call retries:
// 64, so a transcript of many identical calls costs at most 64 looks a
// call.
const MaxRetryLookback = 64

// callAttempt is one tools/call the client sent: its summary and its
// arguments (compact JSON text).
type callAttempt struct {
	sum  *trace.Request
	args string
}

// endedWithoutResult reports whether a call ended for its client without
// a result before at: the client cancelled it or closed its stream (a
// timeout, an abort), it was answered with an error, or its stream broke
// under it (a drop: cause disconnect); it reports the time it ended.
func endedWithoutResult(r *trace.Request) (int64, bool) {
	switch {
	case r.ClientOutcome == trace.OutcomeAbandoned || r.ClientOutcome == trace.OutcomeError:
		if r.EndedAt != nil {
			return *r.EndedAt, true
		}
		return r.SentAt, true
	case r.Cause != nil && *r.Cause == trace.CauseDisconnect && r.ClientOutcome == trace.OutcomePending:
		return r.SentAt, true
	}
	return 0, false
}

// linkRetries sets RetryOf (and both attempts' RetryClass) on each call
// that repeats an earlier one: the same tool and the same arguments, under
// a new id, sent after the earlier one ended without a result
// (endedWithoutResult). A call sent while the earlier one was still
// pending is a second call, not a retry; the same id again is a re-issue
// (after a retired session's 404: session-recovered's), not a retry. Each
// attempt is retried at most once (a chain links each retry to the attempt
// before it). The class comes from the tool's annotations in a tools/list
// result the transcript holds (toolClasses); a tool it does not annotate
// links nothing, and the note says why, since a log never says whether a
// call is safe to repeat. It returns the notes.
func linkRetries(calls []callAttempt, classes map[string]string) []string {
	var notes []string
	retried := make([]bool, len(calls))
	same := map[string][]int{} // tool and arguments → the attempts so far, in order
	for j := range calls {
		r := calls[j].sum
		k := r.Name + "\x00" + calls[j].args
		earlier := same[k]
		same[k] = append(earlier, j)
		for n := len(earlier) - 1; n >= 0 && n >= len(earlier)-MaxRetryLookback; n-- {
			i := earlier[n]
			o := calls[i].sum
			end, ended := endedWithoutResult(o)
			if retried[i] || o.ID.Raw() == r.ID.Raw() || !ended || r.SentAt < end {
				continue
			}
			class, ok := classes[r.Name]
			if !ok {
				notes = append(notes, fmt.Sprintf("Request %s repeats request %s (tool %s, the same arguments) after it ended without a result, but no tools/list in the transcript annotates %s: whether it is safe to repeat is unknown, so it is not judged as a retry.", r.ID, o.ID, r.Name, r.Name))
				break
			}
			retried[i] = true
			id := o.ID
			r.RetryOf = &id
			r.RetryClass, o.RetryClass = class, class
			notes = append(notes, fmt.Sprintf("Request %s retries request %s: tool %s with the same arguments under a new id, after request %s ended without a result; its class %s comes from the tool's annotations.", r.ID, o.ID, r.Name, o.ID, class))
			break
		}
	}
	return notes
}

// toolClasses reads a tools/list result's tools' annotations (MCP
// 2025-11-25 ToolAnnotations) as retry classes: readOnlyHint or
// idempotentHint true is safe to repeat; readOnlyHint false or
// destructiveHint true, without idempotentHint, is an unsafe mutation. A
// tool without those hints is left out (unknown), into classes.
func toolClasses(result json.RawMessage, classes map[string]string) {
	var r struct {
		Tools []struct {
			Name        string `json:"name"`
			Annotations *struct {
				ReadOnly    *bool `json:"readOnlyHint"`
				Destructive *bool `json:"destructiveHint"`
				Idempotent  *bool `json:"idempotentHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	for _, t := range r.Tools {
		a := t.Annotations
		switch {
		case a == nil:
		case a.ReadOnly != nil && *a.ReadOnly, a.Idempotent != nil && *a.Idempotent:
			classes[t.Name] = trace.RetrySafe
		case a.ReadOnly != nil && !*a.ReadOnly, a.Destructive != nil && *a.Destructive:
			classes[t.Name] = trace.RetryUnsafe
		}
	}
}

// compactArgs is a call's arguments as compact JSON text ("" for none).
func compactArgs(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// methodToolsList is the request whose result annotates the tools
// (toolClasses); jsonrpc names no constant for it.
const methodToolsList = "tools/list"
