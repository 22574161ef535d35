package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// Rule (trace.Source.ProtocolFrom): the import says where it read the
// protocol revision, the one place each format gives it: the lab's JSON
// Lines' header line, an HTTP exchange's MCP-Protocol-Version header (a
// HAR's entry, a dump's line), else the server's answer to initialize, on
// the line that holds it.
func TestProtocolFrom(t *testing.T) {
	cases := []struct {
		file, protocol, from string
	}{
		{"jsonl-race-client.jsonl", "2025-11-25", "the header line"},
		{"inspector-cancel.har", "2025-11-25", "the MCP-Protocol-Version header (HAR entry 2)"},
		{"http-dump-close-stream.txt", "2026-07-28", "the MCP-Protocol-Version header (the exchange at line 12)"},
		{"claude-desktop-race.log", "2025-11-25", "the server's answer to initialize (line 5)"},
		{"python-sse-violation.log", "2025-11-25", "the server's answer to initialize (line 11)"},
		{"jsonl-race.jsonl", "", ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := Import(data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if src := tr.Source; src.Protocol != c.protocol || src.ProtocolFrom != c.from {
				t.Errorf("protocol %q from %q, want %q from %q", src.Protocol, src.ProtocolFrom, c.protocol, c.from)
			}
			if c.from != "" && !strings.Contains(tr.Source.Note, "Protocol "+c.protocol+": ") {
				t.Errorf("the source note does not say where the protocol came from: %s", tr.Source.Note)
			}
			if line, ok := strings.CutPrefix(c.from, "the server's answer to initialize (line "); ok {
				n, err := strconv.Atoi(strings.TrimSuffix(line, ")"))
				if err != nil {
					t.Fatal(err)
				}
				if text := lineOf(data, n); !strings.Contains(text, "protocolVersion") {
					t.Errorf("line %d holds no initialize answer: %s", n, text)
				}
			}
		})
	}
}

// Rule (trace.Event.Line): every event the importer read from a line
// carries that line, the one its note cites, and the line holds the
// event's message (its method, else its id); in a HAR it is the entry's
// number. An event the importer derived (the server's status once it read
// a cancellation) carries none.
func TestEventLines(t *testing.T) {
	for _, file := range []string{"jsonl-race-server.jsonl", "claude-desktop-race.log", "vscode-race.log", "stdio-tee-race.log", "python-sse-violation.log", "inspector-cancel.har"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := Import(data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			har := tr.Source.Format == FormatHAR
			var entries int
			if har {
				var h struct {
					Log struct {
						Entries []json.RawMessage `json:"entries"`
					} `json:"log"`
				}
				if err := json.Unmarshal(data, &h); err != nil {
					t.Fatal(err)
				}
				entries = len(h.Log.Entries)
			}
			lined := 0
			for _, e := range tr.Events {
				if e.Type == trace.TypeStatus && e.Actor == trace.ActorServer {
					if e.Line != 0 {
						t.Errorf("event #%d (the server's derived status) has line %d, want none", e.Seq, e.Line)
					}
					continue
				}
				if len(e.Message) == 0 {
					continue
				}
				if e.Line <= 0 {
					t.Errorf("event #%d (%s) has no line", e.Seq, e.Type)
					continue
				}
				lined++
				if har {
					if e.Line > entries {
						t.Errorf("event #%d cites HAR entry %d of %d", e.Seq, e.Line, entries)
					}
					continue
				}
				if cited := "Line " + strconv.Itoa(e.Line) + "."; e.Type == trace.TypeSend && !strings.HasPrefix(e.Note, cited) {
					t.Errorf("event #%d has line %d but its note says %q", e.Seq, e.Line, e.Note)
				}
				var m struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				if err := json.Unmarshal(e.Message, &m); err != nil {
					t.Fatal(err)
				}
				want := m.Method
				if want == "" {
					want = `"id":` + string(m.ID)
				}
				if text := strings.ReplaceAll(lineOf(data, e.Line), `"id": `, `"id":`); !strings.Contains(text, want) {
					t.Errorf("event #%d cites line %d, which does not hold %s: %s", e.Seq, e.Line, want, text)
				}
			}
			if lined == 0 {
				t.Fatal("no event carries a line")
			}
		})
	}
}

// lineOf is data's 1-based line n.
func lineOf(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}
