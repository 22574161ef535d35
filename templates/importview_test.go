package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
)

// importFixture imports one of engine/transcript's fixtures.
func importFixture(t *testing.T, file string) *trace.Trace {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "engine", "transcript", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transcript.Import(data, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Rule (the import page says one thing about where the protocol came
// from): #imp-inferred's Protocol row names the one place the importer
// read it (trace.Source.ProtocolFrom), the same words the source note
// (#imp-source) uses, for each place a format gives it.
func TestImportProtocolRowAgreesWithNote(t *testing.T) {
	for _, c := range []struct{ file, why string }{
		{"jsonl-race-client.jsonl", "From the header line."},
		{"claude-desktop-race.log", "From the server's answer to initialize (line 5)."},
		{"inspector-cancel.har", "From the MCP-Protocol-Version header (HAR entry 2)."},
		{"jsonl-race.jsonl", "The log does not say it (no answered initialize or server/discover, no MCP-Protocol-Version header, no header line): rules that depend on the revision are not judged."},
	} {
		t.Run(c.file, func(t *testing.T) {
			tr := importFixture(t, c.file)
			var row *inferredRow
			for _, r := range inferredRows(tr) {
				if r.Name == "Protocol" {
					row = &r
				}
			}
			if row == nil {
				t.Fatal("no Protocol row")
			}
			if row.Why != c.why {
				t.Errorf("the Protocol row says %q, want %q", row.Why, c.why)
			}
			if tr.Source.Protocol != "" {
				said := "Protocol " + tr.Source.Protocol + ": " + strings.ToLower(c.why[:1]) + c.why[1:]
				if !strings.Contains(sourceText(tr.Source), said) {
					t.Errorf("the source note does not say %q: %s", said, sourceText(tr.Source))
				}
			}
		})
	}
}

// Rule (a reader of the pasted file reads a bare number as one of its
// lines): on the import page, a failing check cites each event by the
// line it was read from (trace.Event.Line), in the headline, the
// violations list (whose links still go to the event's row, #event-N)
// and the checks table, never by its number in the trace; a simulated
// run's detail keeps its "#N", the events table's numbering.
func TestImportCitesPastedLines(t *testing.T) {
	for _, c := range []struct {
		file      string
		seq, line string
	}{
		{"jsonl-race-server.jsonl", "9", "line 6"},
		{"python-sse-violation.log", "7", "line 19"},
		{"claude-desktop-old-violation.log", "7", "line 10"},
	} {
		t.Run(c.file, func(t *testing.T) {
			tr := importFixture(t, c.file)
			var raw string
			for _, ch := range tr.Checks {
				if ch.Rule == "no-message-after-cancel" {
					raw = ch.Detail
				}
			}
			if !strings.Contains(raw, "(#"+c.seq) {
				t.Fatalf("the check's own detail does not cite #%s: %q", c.seq, raw)
			}
			v := NewView(tr)
			if want := "(" + c.line; !strings.Contains(v.Verdict.Detail, want) || strings.Contains(v.Verdict.Detail, "#"+c.seq) {
				t.Errorf("the headline says %q, want %q and not #%s", v.Verdict.Detail, want, c.seq)
			}
			for _, row := range v.Checks {
				if row.Rule == "no-message-after-cancel" && !strings.Contains(row.Detail, "("+c.line) {
					t.Errorf("the checks table says %q, want %q", row.Detail, c.line)
				}
			}
			html := renderString(t, ImportHead(tr))
			if want := `<a href="#event-` + c.seq + `">` + c.line + `</a>`; !strings.Contains(html, want) {
				t.Errorf("the violations list lacks %s:\n%s", want, html)
			}
			if strings.Contains(html, "#"+c.seq+")") || strings.Contains(html, "event #") {
				t.Errorf("the violations list cites a trace number:\n%s", html)
			}
		})
	}
	// A HAR's events were read from its entries.
	har := importFixture(t, "inspector-cancel.har")
	if got := eventText(har, 4); got != "HAR entry 2" {
		t.Errorf("event #4 of a HAR is %q, want HAR entry 2", got)
	}
	// A simulation's check keeps the events table's numbers.
	sim := runEdited(t, "broken-late-response-fatal")
	for _, c := range sim.Checks {
		if got := checkDetail(sim, c); got != c.Detail {
			t.Errorf("a simulated run's %s detail became %q, want %q", c.Rule, got, c.Detail)
		}
	}
}

// Rule: the import summary names every format the importer reads in
// words (engine/transcript's Format values), never by its internal slug.
func TestImportSummaryNamesEveryFormat(t *testing.T) {
	for _, format := range []string{transcript.FormatClaude, transcript.FormatVSCode, transcript.FormatTee, transcript.FormatHAR, transcript.FormatSSE,
		transcript.FormatPython, transcript.FormatCSharp, transcript.FormatJava, transcript.FormatGoSDK, transcript.FormatJSONL} {
		got := sourceText(&trace.Source{Format: format})
		if name, ok := formatNames[format]; !ok || !strings.HasPrefix(got, name) {
			t.Errorf("format %q is summarized %q: give it a name in formatNames", format, got)
		}
	}
}

// Rule: a server that answers one request twice is cited by the
// pasted line of the second answer, like every other violation on the
// import page, and the request is named.
func TestImportCitesDuplicateResponseLine(t *testing.T) {
	log := []byte("[STDIN] {\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}\n" +
		"[STDOUT] {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[]}}\n" +
		"[STDOUT] {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[]}}\n")
	tr, err := transcript.Import(log, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var detail string
	for _, row := range NewView(tr).Checks {
		if row.Rule == "one-response-per-request" {
			detail = row.Detail
		}
	}
	if !strings.Contains(detail, "request 3") || !strings.Contains(detail, "(line 3)") && !strings.Contains(detail, "line 3") {
		t.Errorf("one-response-per-request reads %q, want request 3 and line 3 (the second answer)", detail)
	}
}

// TestImportFailedText: a transcript that does not import says what the
// result below is: nothing while nothing of the reader's has imported (the
// built-in example is not shown behind the error), "the last one of yours
// that imported" only after one has.
func TestImportFailedText(t *testing.T) {
	const why = "line 1: bad transcript: x"
	got := ImportFailedText(why, false)
	if !strings.HasPrefix(got, "Cannot import this transcript: "+why+".") || !strings.Contains(got, "No result is shown") || strings.Contains(got, "result below") {
		t.Errorf("with nothing of the reader's: %q, want it to say no result is shown", got)
	}
	got = ImportFailedText(why, true)
	if want := "Cannot import this transcript: " + why + ". The result below is the last one of yours that imported, not this transcript."; got != want {
		t.Errorf("after an import: %q, want %q", got, want)
	}
	if strings.HasPrefix(ImportFailedStatus, "Live") || !strings.Contains(ImportFailedStatus, "Not imported") {
		t.Errorf("the failed status %q must say the transcript is not imported", ImportFailedStatus)
	}
}

// TestImportLoadedText: a large transcript kept out of the box is
// described with its line count grouped ("20,000 lines").
func TestImportLoadedText(t *testing.T) {
	got := ImportLoadedText(20000, 2_800_000)
	if !strings.HasPrefix(got, "A transcript of 20,000 lines (2.8 MB) is loaded.") {
		t.Errorf("ImportLoadedText = %q, want \"A transcript of 20,000 lines (2.8 MB) is loaded. ...\"", got)
	}
}

// TestImportJudgingText: while a long transcript is judged the
// status says so, with its lines grouped.
func TestImportJudgingText(t *testing.T) {
	if got, want := ImportJudgingText(20000), "Judging 20,000 lines in your browser…"; got != want {
		t.Errorf("ImportJudgingText = %q, want %q", got, want)
	}
}
