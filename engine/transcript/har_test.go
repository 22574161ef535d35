package transcript

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// harOf writes a HAR 1.2 file of exchanges: each a start (ms after
// 13:00:00Z), a duration (ms), a method, a request body and an SSE or JSON
// response body.
func harOf(t *testing.T, xs ...[5]string) []byte {
	t.Helper()
	type hdr struct{ Name, Value string }
	var entries []map[string]any
	base := time.Date(2025, 11, 25, 13, 0, 0, 0, time.UTC)
	for _, x := range xs {
		var start, dur int
		if err := json.Unmarshal([]byte(x[0]), &start); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(x[1]), &dur); err != nil {
			t.Fatal(err)
		}
		mime := "application/json"
		if strings.HasPrefix(x[4], "event:") || strings.HasPrefix(x[4], "data:") {
			mime = "text/event-stream"
		}
		req := map[string]any{"method": x[2], "url": "http://localhost/mcp", "headers": []map[string]string{{"name": "MCP-Protocol-Version", "value": "2025-11-25"}, {"name": "Mcp-Session-Id", "value": "s1"}}}
		if x[3] != "" {
			req["postData"] = map[string]string{"mimeType": "application/json", "text": x[3]}
		}
		entries = append(entries, map[string]any{
			"startedDateTime": base.Add(time.Duration(start) * time.Millisecond).Format(time.RFC3339Nano),
			"time":            dur,
			"request":         req,
			"response":        map[string]any{"status": 200, "headers": []hdr{}, "content": map[string]string{"mimeType": mime, "text": x[4]}},
		})
	}
	b, err := json.Marshal(map[string]any{"log": map[string]any{"version": "1.2", "entries": entries}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHAROverlap proves the HAR rule for no-message-after-cancel: a
// HAR times each HTTP exchange, not each event of a response stream, so a
// message streamed in an exchange whose interval overlaps the cancellation
// (or starts within the round trip after it) is undecided with that
// reason, wherever it is drawn; a message in an exchange that starts more
// than the round trip after the cancellation was written after the server
// could read it: a violation.
func TestHAROverlap(t *testing.T) {
	init := [5]string{"0", "40", "POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"t1"}}}`
	progress := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"t1\",\"progress\":%s}}\n\n"
	cancel := [5]string{"2000", "5", "POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"User cancelled"}}`, ""}
	tests := []struct {
		name   string
		har    []byte
		want   string
		detail string
	}{
		// The call's stream runs 1000–3010 ms and the cancellation is POSTed
		// at 2000 ms: its progress may have come before (drawn at 3010 ms,
		// 1010 ms after, far beyond the 41 ms round trip).
		{"stream overlaps the cancellation", harOf(t, init,
			[5]string{"1000", "2010", "POST", call, strings.Replace(progress, "%s", "1", 1) + strings.Replace(progress, "%s", "2", 1)},
			cancel), "?", "one time per HTTP exchange"},
		// The call's stream ended at 1500 ms; progress for it comes on a GET
		// stream opened at 2100 ms, after the cancellation plus the round
		// trip: intervals apart, the server wrote it after it could read the
		// cancellation.
		{"exchange after the cancellation", harOf(t, init,
			[5]string{"1000", "500", "POST", call, strings.Replace(progress, "%s", "1", 1)},
			cancel,
			[5]string{"2100", "100", "GET", "", strings.Replace(progress, "%s", "2", 1)}), "FAIL", "after it had read the cancellation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Import(tt.har, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := verdictsOf(tr)[checks.NoMessageAfterCancel]
			d := detail(tr, checks.NoMessageAfterCancel)
			if got != tt.want || !strings.Contains(d, tt.detail) {
				t.Fatalf("%s = %q (%s), want %q saying %q", checks.NoMessageAfterCancel, got, d, tt.want, tt.detail)
			}
			for _, e := range tr.Events {
				if e.From == trace.ActorServer && strings.Contains(string(e.Message), "progress") && e.Within == nil {
					t.Errorf("event %d: a streamed message without its exchange's interval", e.Seq)
				}
			}
		})
	}
}

// TestHARBase64Content: HAR 1.2 lets a response's content.text be base64
// (content.encoding "base64"), as browsers export some bodies; the import
// decodes it instead of dropping the response without a word, and a body
// marked base64 that is not base64 is a located error.
func TestHARBase64Content(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`
	result := `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`
	har := func(text string) []byte {
		b, err := json.Marshal(map[string]any{"log": map[string]any{"version": "1.2", "entries": []any{map[string]any{
			"startedDateTime": "2025-11-25T13:00:00Z", "time": 50,
			"request":  map[string]any{"method": "POST", "url": "http://localhost/mcp", "headers": []any{}, "postData": map[string]string{"mimeType": "application/json", "text": call}},
			"response": map[string]any{"status": 200, "headers": []any{}, "content": map[string]string{"mimeType": "application/json", "text": text, "encoding": "base64"}},
		}}}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tr, err := Import(har(base64.StdEncoding.EncodeToString([]byte(result))), Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range tr.Events {
		if e.From == trace.ActorServer && strings.Contains(string(e.Message), `"result"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("the base64 response is not in the trace: %d events", len(tr.Events))
	}
	if _, err := Import(har("not base64!"), Options{}); err == nil || !strings.Contains(err.Error(), "HAR entry 1") || !strings.Contains(err.Error(), "base64") {
		t.Errorf("a bad base64 body: err = %v, want a located error naming base64", err)
	}
}

// TestHARCutShort: a HAR file cut short (head -c 700 file.har) is still
// a HAR to Sniff, its first member "log" read token by token, and Import
// says it is a HAR cut short, located where it ends (line and column),
// not that it is no transcript at all (the import page).
func TestHARCutShort(t *testing.T) {
	full, err := os.ReadFile("testdata/inspector-cancel.har")
	if err != nil {
		t.Fatal(err)
	}
	data := full[:700]
	if f := Sniff(data); f != FormatHAR {
		t.Fatalf("Sniff(a HAR cut short) = %q, want %q", f, FormatHAR)
	}
	line := 1 + bytes.Count(data, []byte("\n"))
	col := 1 + len(data) - (bytes.LastIndexByte(data, '\n') + 1)
	_, err = Import(data, Options{})
	var te *Error
	if !errors.As(err, &te) || !errors.Is(err, ErrTranscript) {
		t.Fatalf("Import(a HAR cut short) = %v, want a *Error of ErrTranscript", err)
	}
	if te.Line != line || te.Column != col {
		t.Errorf("located at line %d, column %d, want line %d, column %d (its end)", te.Line, te.Column, line, col)
	}
	want := fmt.Sprintf("line %d, column %d: bad transcript: this HAR file is cut short", line, col)
	if msg := err.Error(); !strings.HasPrefix(msg, want) {
		t.Errorf("Import(a HAR cut short) = %q, want it to start %q", msg, want)
	}
	// A broken HAR (not cut short) is located too.
	bad := bytes.Replace(full, []byte(`"entries"`), []byte(`"entries" x`), 1)
	if _, err := Import(bad, Options{}); !errors.As(err, &te) || te.Line == 0 || te.Column == 0 || !strings.Contains(err.Error(), "not a HAR file") {
		t.Errorf("Import(a broken HAR) = %v, want a located \"not a HAR file\"", err)
	}
}

// withCreator sets a HAR file's log.creator.name (HAR 1.2).
func withCreator(t *testing.T, har []byte, name string) []byte {
	t.Helper()
	var doc map[string]map[string]any
	if err := json.Unmarshal(har, &doc); err != nil {
		t.Fatal(err)
	}
	doc["log"]["creator"] = map[string]string{"name": name, "version": "1"}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHARReadsWhatWasSent: a HAR says who recorded it (log.creator: a
// browser's developer tools or an HTTP client is the client, a logging
// proxy the wire); a cancellation the client POSTed is its signal, not the
// end of the stream that follows it; a response stream's messages are
// drawn inside their exchange, in order, never at a time the HAR does not
// give, and are late only when their whole exchange follows the
// cancellation.
func TestHARReadsWhatWasSent(t *testing.T) {
	init := [5]string{"0", "40", "POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"t1"}}}`
	progress := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"t1\",\"progress\":%d}}\n\n"
	stream := fmt.Sprintf(progress, 1) + fmt.Sprintf(progress, 2)
	cancel := [5]string{"2000", "5", "POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"User cancelled"}}`, ""}
	// The call's stream runs 1000–3000 ms, cut short after the POSTed
	// cancellation at 2000 ms.
	har := harOf(t, init, [5]string{"1000", "2000", "POST", call, stream}, cancel)
	tests := []struct {
		rule              trace.RuleID
		creator, observer string
	}{
		{"a browser's developer tools record the client", "WebInspector", "client"},
		{"Firefox records the client", "Firefox", "client"},
		{"Charles, a logging proxy, records the wire", "Charles Proxy", "wire"},
		{"mitmproxy records the wire", "mitmproxy", "wire"},
		{"Fiddler records the wire", "Fiddler", "wire"},
		{"no creator: the client, as before", "", "client"},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule), func(t *testing.T) {
			data := har
			if tt.creator != "" {
				data = withCreator(t, har, tt.creator)
			}
			tr, err := Import(data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Source.Observer != tt.observer {
				t.Errorf("observer %q, want %q (%s)", tr.Source.Observer, tt.observer, tr.Source.Note)
			}
			if tt.observer == "wire" && strings.Contains(tr.Source.Note, "Recorded by the client") {
				t.Errorf("a proxy's HAR is said to be the client's: %s", tr.Source.Note)
			}
			if tt.creator != "" && !strings.Contains(tr.Source.Note, tt.creator) {
				t.Errorf("the note does not name the creator %q: %s", tt.creator, tr.Source.Note)
			}
		})
	}
	tr, err := Import(har, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the POSTed cancellation is the signal", func(t *testing.T) {
		r := tr.Requests[1]
		if r.Signal == nil || *r.Signal != "notifications/cancelled" {
			t.Errorf("request 1 signal %v, want notifications/cancelled", r.Signal)
		}
	})
	t.Run("stream messages drawn inside their exchange, in order", func(t *testing.T) {
		var ats []int64
		for _, e := range tr.Events {
			if e.Type == trace.TypeSend && e.From == trace.ActorServer && strings.Contains(string(e.Message), "progress") {
				ats = append(ats, e.At)
				if e.Within == nil || e.At <= e.Within.From || e.At >= e.Within.To {
					t.Errorf("event %d at %d ms, want strictly inside its exchange %+v (the stream was cut short)", e.Seq, e.At, e.Within)
				}
			}
		}
		if len(ats) != 2 || ats[0] >= ats[1] {
			t.Errorf("progress drawn at %v, want two, in order", ats)
		}
	})
	t.Run("a result whose exchange spans the cancellation is not late", func(t *testing.T) {
		result := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n"
		tr, err := Import(harOf(t, init, [5]string{"1000", "2000", "POST", call, stream + result}, cancel), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := verdictsOf(tr)[checks.LateResponseIgnored]; ok {
			t.Errorf("%s judged %s (%s): the result may have come before the cancellation", checks.LateResponseIgnored, v, detail(tr, checks.LateResponseIgnored))
		}
	})
	t.Run("progress whose exchange spans the cancellation is not late", func(t *testing.T) {
		v := verdictsOf(tr)
		for _, rule := range []trace.RuleID{checks.LateProgressIgnored, checks.LateMessageTolerated} {
			if _, ok := v[rule]; ok {
				t.Errorf("%s judged (%s): no message is known to be late", rule, detail(tr, rule))
			}
		}
		if v[checks.NoMessageAfterCancel] != "?" || !strings.Contains(detail(tr, checks.NoMessageAfterCancel), "one time per HTTP exchange") {
			t.Errorf("%s = %q (%s), want undecided for the HAR's intervals", checks.NoMessageAfterCancel, v[checks.NoMessageAfterCancel], detail(tr, checks.NoMessageAfterCancel))
		}
	})
}
