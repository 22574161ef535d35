package probe

// What a stdio server wrote on its standard output that is not a JSON-RPC
// message. MCP's stdio transport (2025-11-25, Transports: stdio): "The
// server MUST NOT write anything to its stdout that is not a valid MCP
// message"; logs belong on stderr. A client reading such a line fails to
// parse it (many SDKs drop the connection). DOMAIN.md has no failure id
// for it and the lab's JSON Lines transcript has no place for a line that
// is not a message (transcript.schema.json: "message" is an object), so
// the probe reports it as its own observation, a FAIL of the situation,
// and lists the lines in probe.json (stdoutNotJSONRPC) beside the
// transcript.

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcplab/mcplab/engine/trace"
)

// strayJSON is one such line in probe.json: when the probe read it, the
// line (cut to probeStrayQuote bytes), and the message that came after it.
type strayJSON struct {
	At     string `json:"at"`
	Line   string `json:"line"`
	Before string `json:"before"`
}

// strayReport describes the strays of one situation's connection (n of
// them in all, the first kept ones given) against its records: the
// violation ("" for none) and probe.json's entries.
func strayReport(strays []stray, n int, recs []record) (violated string, entries []strayJSON) {
	if n == 0 || len(strays) == 0 {
		return "", nil
	}
	for _, st := range strays {
		entries = append(entries, strayJSON{At: st.at.UTC().Format(time.RFC3339Nano), Line: st.text, Before: strayBefore(st, recs)})
	}
	violated = fmt.Sprintf("the server wrote %d line(s) on its standard output that are not JSON-RPC messages, the first %q %s; MCP's stdio transport allows only JSON-RPC messages on stdout (log to stderr)", n, strays[0].text, entries[0].Before)
	return violated, entries
}

// strayBefore names the first server message recorded after st ("before
// the response to tools/call id 3"), or says none came.
func strayBefore(st stray, recs []record) string {
	for i := st.next; i < len(recs); i++ {
		if recs[i].from != trace.ActorServer {
			continue
		}
		mi := parseMsg(recs[i].msg)
		switch {
		case mi.response:
			return "before the response to " + requestMethod(recs, mi.id) + " id " + mi.id
		case mi.method != "" && mi.id != "":
			return "before its request " + mi.method
		case mi.method != "":
			return "before its " + mi.method
		}
		return "before its next message"
	}
	for _, r := range recs[:min(st.next, len(recs))] {
		if r.from == trace.ActorServer {
			return "after its last message"
		}
	}
	return "before any message of its own"
}

// requestMethod is the method of the client request with id text id.
func requestMethod(recs []record, id string) string {
	for _, r := range recs {
		if r.from == trace.ActorClient {
			if mi := parseMsg(r.msg); mi.method != "" && mi.id == id {
				return mi.method
			}
		}
	}
	return "request"
}

// quoteCut cuts s to at most n bytes (at a rune boundary), marking a cut with "…".
func quoteCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// tailBuffer keeps the last probeStderrKeep bytes written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > probeStderrKeep {
		t.b = t.b[len(t.b)-probeStderrKeep:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { t.mu.Lock(); defer t.mu.Unlock(); return string(t.b) }

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
