package transcript

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// Rule (the wire order: a request precedes its response, always): the Go
// SDK's LoggingTransport logs a write once it has returned, so a client's
// log can show server/discover's answer one line before the request. The
// importer puts the answer back after its request, so the revision is
// read from the answered server/discover and the request is answered; a
// response whose request never follows stays where the log put it.
func TestEarlyResponsePlacedAfterItsRequest(t *testing.T) {
	const discoverMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	log := strings.Join([]string{
		`read: {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}}}}`,
		`write: {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + discoverMeta + `}}`,
		`write: {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + discoverMeta + `,"name":"work","arguments":{}}}`,
		`read: {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}`,
		`read: {"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","content":[]}}`,
	}, "\n") + "\n"
	tr, err := Import([]byte(log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.Protocol != "2026-07-28" || !strings.Contains(tr.Source.ProtocolFrom, "server/discover") {
		t.Errorf("protocol %q from %q, want 2026-07-28 from the answered server/discover", tr.Source.Protocol, tr.Source.ProtocolFrom)
	}
	if !strings.Contains(tr.Source.Note, "One response was logged before its own request") {
		t.Errorf("the source note does not say a response was moved: %q", tr.Source.Note)
	}
	for _, r := range tr.Requests {
		if r.ID.String() == "1" && r.State != trace.StateCompleted {
			t.Errorf("server/discover is %s, want %s (its answer follows it)", r.State, trace.StateCompleted)
		}
	}
	var order []int
	for _, e := range tr.Events {
		if e.Line > 0 && (len(order) == 0 || order[len(order)-1] != e.Line) {
			order = append(order, e.Line)
		}
	}
	if want := []int{2, 1, 3, 4, 5}; !slices.Equal(order, want) {
		t.Errorf("events from log lines %v, want %v (the answer after its request; id 9, never requested, stays last)", order, want)
	}
}
