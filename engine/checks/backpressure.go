// Rules of DOMAIN.md §7 (backpressure: a bounded SSE buffer) and §8
// (proxies and keep-alive).

package checks

import (
	"strconv"

	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// bufferWithinCapacity: a bounded SSE buffer never holds more than its
// capacity (DOMAIN.md §7); an unbounded one is flagged, since memory then
// grows with a slow consumer.
//
// Rule: bufferWithinCapacity.
func bufferWithinCapacity(v *view) (trace.Check, bool) {
	if len(v.tr.Buffers) == 0 {
		return trace.Check{}, false
	}
	var bad []string
	peak := 0
	for _, b := range v.tr.Buffers {
		if b.MaxDepth > peak {
			peak = b.MaxDepth
		}
		switch {
		case b.Capacity == 0:
			bad = append(bad, "stream "+b.Stream.Raw()+" is unbounded and grew to "+strconv.Itoa(b.MaxDepth)+" events")
		case b.MaxDepth > b.Capacity:
			bad = append(bad, "stream "+b.Stream.Raw()+" held "+strconv.Itoa(b.MaxDepth)+" events, capacity "+strconv.Itoa(b.Capacity))
		}
	}
	if len(bad) > 0 {
		return fail(BufferWithinCapacity, strings.Join(bad, "; ")+": memory grows with a slow consumer."), true
	}
	return pass(BufferWithinCapacity, "Every SSE buffer stayed within its capacity (peak "+strconv.Itoa(peak)+" events)."), true
}

// finalNeverDropped: under pressure the buffer evicts progress, never the
// final response (DOMAIN.md §7).
//
// Rule: finalNeverDropped.
func finalNeverDropped(v *view) (trace.Check, bool) {
	if len(v.tr.Buffers) == 0 {
		return trace.Check{}, false
	}
	var bad []int
	for i, e := range v.ev {
		if e.Actor == trace.ActorServer && (e.Type == trace.TypeDrop || e.Type == trace.TypeError) && v.msg(i).response {
			bad = append(bad, i)
		}
	}
	if len(bad) > 0 {
		return fail(FinalNeverDropped, "A final response was dropped or refused by the SSE buffer ("+seqList(bad)+"): the client cannot learn the outcome.", bad...), true
	}
	n := 0
	for _, b := range v.tr.Buffers {
		n += b.FinalsDelivered
	}
	return pass(FinalNeverDropped, "No final response was dropped; "+strconv.Itoa(n)+" delivered through the buffer."), true
}

// sseHeaders: a Streamable HTTP response stream carries Cache-Control:
// no-cache and X-Accel-Buffering: no, so compatible proxies forward each
// event at once instead of buffering it (DOMAIN.md §8). Cache-Control is a
// list of directives (RFC 9111 §5.2): "no-cache, no-transform", as the Go
// SDK's server writes it, says no-cache too; the media type may carry
// parameters ("text/event-stream; charset=utf-8").
//
// Rule: SSEHeaders.
func sseHeaders(v *view) (trace.Check, bool) {
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorServer || e.Headers == nil || !isEventStream(e.Headers["Content-Type"]) {
			continue
		}
		if hasDirective(e.Headers["Cache-Control"], "no-cache") && e.Headers["X-Accel-Buffering"] == "no" {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	return verdict(SSEHeaders, bad, good,
		strconv.Itoa(len(bad))+" response stream(s) opened without Cache-Control: no-cache and X-Accel-Buffering: no ("+seqList(bad)+"): a proxy may buffer them, so progress arrives in bursts or after the client's timeout.",
		"Every response stream carried Cache-Control: no-cache and X-Accel-Buffering: no.")
}

// isEventStream reports whether a Content-Type is text/event-stream, with
// or without parameters, in any case (media types are case-insensitive).
func isEventStream(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}

// hasDirective reports whether a Cache-Control value lists directive
// (comma-separated, case-insensitive, RFC 9111 §5.2).
func hasDirective(value, directive string) bool {
	for _, d := range strings.Split(value, ",") {
		if name, _, _ := strings.Cut(strings.TrimSpace(d), "="); strings.EqualFold(name, directive) {
			return true
		}
	}
	return false
}
