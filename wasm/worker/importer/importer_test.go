package importer

import (
	"os"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

func serve(t *testing.T, s *Server, req protocol.Request) protocol.Reply {
	t.Helper()
	return s.Import(protocol.Map(req.Fields()))
}

// Rule: the import page gets the judged transcript, one window of it, and
// the scenario link; a transcript that does not read is KindInvalid.
func TestImportReplies(t *testing.T) {
	log, err := os.ReadFile("../../../site/internal/build/transcripts/go-sdk-v1.8.0-cancel-server.log")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{}
	r := serve(t, s, protocol.ImportRequest{Text: string(log), Redact: true})
	ir := r.(protocol.ImportReply)
	if ir.Err != nil || ir.Head == "" || ir.HeadSum != worker.HTMLSum(ir.Head) || ir.Out == nil || ir.Window.Count != 1 || !strings.HasPrefix(ir.Fragment, "s=") {
		t.Fatalf("reply: error %v, head %d bytes, window %+v, fragment %q", ir.Err, len(ir.Head), ir.Window, ir.Fragment)
	}
	link := serve(t, s, protocol.ImportRequest{Text: string(log), Redact: true, Link: true})
	if lr := link.(protocol.ImportReply); lr.Fragment != ir.Fragment || lr.Out != nil {
		t.Errorf("link reply %q, want the window's link %q alone", lr.Fragment, ir.Fragment)
	}
	bad := serve(t, s, protocol.ImportRequest{Text: "this is not a transcript", Side: "sideways"})
	if e := bad.(protocol.ImportReply).Err; e == nil || e.Kind != protocol.KindInvalid {
		t.Errorf("a bad option: error %#v, want KindInvalid", e)
	}
}

// Rule: a long trace is shown WindowEvents events at a time, the window
// clamped to the last, positions 1-based.
func TestWindowOf(t *testing.T) {
	res, err := entry.Run([]byte(manyEvents), entry.Document{})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trace
	n := len(tr.Events)
	if n <= WindowEvents {
		t.Fatalf("%d events, want more than %d", n, WindowEvents)
	}
	count := (n + WindowEvents - 1) / WindowEvents
	for _, tc := range []struct{ index, wantIndex, first int }{{0, 0, 1}, {1, 1, WindowEvents + 1}, {-3, 0, 1}, {count + 5, count - 1, (count-1)*WindowEvents + 1}} {
		win, w := WindowOf(tr, tc.index)
		if w.Index != tc.wantIndex || w.First != tc.first || w.Total != n || w.Count != count || len(win.Events) != w.Last-w.First+1 {
			t.Errorf("window %d: %+v with %d events, want index %d from %d of %d", tc.index, w, len(win.Events), tc.wantIndex, tc.first, n)
		}
	}
}

// manyEvents is a scenario of about 1,500 events: six windows. Its
// progress starts once the call has reached the server (at 10 ms), since
// progress for a request not yet there is a skipped step.
const manyEvents = `{"mcplab":1,"title":"Many events","protocol":"2026-07-28","transport":"stdio","latencyMs":{"up":10,"down":10},"steps":[{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"},{"at":20,"do":"produce","id":7,"count":500,"everyMs":1,"fromValue":0}]}`
