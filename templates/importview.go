package templates

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// Import is what ImportPage draws: a transcript of real traffic (the
// example the page opens with, prerendered) and its imported trace.
type Import struct {
	// Root is the relative path to the site root ("../").
	Root string
	// Transcript is the text in the editor; Trace its import.
	Transcript string
	Trace      *trace.Trace
	// Scenario is the share fragment of the scenario that reproduces
	// Trace, redacted (transcript.ShareFragment).
	Scenario string
}

// violation is one check that failed, with the events that break it.
type violation struct {
	Rule, Detail string
	Events       []eventRef // the page links each to #event-N
}

// eventRef is an event a page cites: Seq its number in the trace (the
// #event-N anchor of the events table), Text how a reader finds it.
type eventRef struct {
	Seq  int
	Text string
}

// violations lists the failed checks of tr in the trace's order.
func violations(tr *trace.Trace) []violation {
	var out []violation
	if tr == nil {
		return nil
	}
	for _, c := range tr.Checks {
		if c.OK != nil && !*c.OK {
			v := violation{Rule: string(c.Rule), Detail: checkDetail(tr, c)}
			for _, s := range c.Events {
				v.Events = append(v.Events, eventRef{s, eventText(tr, s)})
			}
			out = append(out, v)
		}
	}
	return out
}

// eventText is how a page names event seq of tr to its reader: for an
// event imported from a transcript, where it was read ("line 6", "HAR
// entry 2": trace.Event.Line), since a reader of the pasted file takes a
// bare number for one of its lines; otherwise "event #6", its number in
// the events table.
func eventText(tr *trace.Trace, seq int) string {
	if tr.Source != nil && seq >= 0 && seq < len(tr.Events) {
		if n := tr.Events[seq].Line; n > 0 {
			if tr.Source.Format == trace.FormatHAR {
				return "HAR entry " + strconv.Itoa(n)
			}
			return "line " + strconv.Itoa(n)
		}
	}
	return "event #" + strconv.Itoa(seq)
}

// checkDetail is check c's detail as a page shows it. The checks cite
// their events by trace number, "(#6)" or "(#3, #6)" (engine/checks'
// seqList of c.Events); for an imported transcript those become where
// each was read, "(line 6)" (eventText; one line read as a send and its
// delivery is cited once), so that nobody looks for line 6 of the pasted
// file at event #6. A simulation's detail is unchanged: its events table
// is the only numbering it has.
func checkDetail(tr *trace.Trace, c trace.Check) string {
	if tr == nil || tr.Source == nil || len(c.Events) == 0 {
		return c.Detail
	}
	nums := make([]string, len(c.Events))
	var refs []string
	for i, s := range c.Events {
		nums[i] = "#" + strconv.Itoa(s)
		if r := eventText(tr, s); len(refs) == 0 || refs[len(refs)-1] != r {
			refs = append(refs, r)
		}
	}
	return strings.Replace(c.Detail, "("+strings.Join(nums, ", ")+")", "("+strings.Join(refs, ", ")+")", 1)
}

// sourceText says in words where an imported trace came from: its format,
// which side wrote it, its clock, and the importer's note.
// formatNames are the importer's formats (trace.Source.Format, the values
// of engine/transcript's Format constants) as the page names them.
var formatNames = map[string]string{
	trace.FormatGoSDK:  "Go SDK LoggingTransport log",
	trace.FormatJSONL:  "JSON Lines transcript",
	trace.FormatHAR:    "HAR file",
	"claude-desktop":   "Claude Desktop log",
	"vscode":           "VS Code MCP output log",
	"stdio-tee":        "stdio tee ([STDIN] and [STDOUT] lines, as a logging wrapper writes them)",
	"http-dump":        "raw HTTP and SSE dump",
	"python-sdk-debug": "Python SDK debug log",
	"csharp-sdk-trace": "C# SDK trace log",
	"java-sdk-debug":   "Java SDK debug log",
}

func sourceText(src *trace.Source) string {
	if src == nil {
		return ""
	}
	var b strings.Builder
	if name, ok := formatNames[src.Format]; ok {
		b.WriteString(name)
	} else {
		b.WriteString(src.Format)
	}
	if src.Side != "" {
		b.WriteString(", written by the " + src.Side)
	}
	b.WriteString(".")
	switch {
	case src.Note != "":
		b.WriteString(" " + src.Note) // the importer explains the clock
	case src.Clock == "order":
		b.WriteString(" No timestamps: events keep their order and time-based checks are not judged.")
	}
	return b.String()
}

// inferredRow is one line of the import page's #imp-inferred: what the
// import took for Name (Value), why, and the id of the field that sets it.
type inferredRow struct {
	Name, Value, Why, Field string
}

// inferredRows says what an import inferred or was given: who recorded
// it, the transport, the protocol revision, the round trip, the zone of
// local times and the client's maximum timeout, each with what it means
// for the verdicts (the reasons in full are in the source note).
func inferredRows(tr *trace.Trace) []inferredRow {
	src := tr.Source
	if src == nil {
		return nil
	}
	var rows []inferredRow
	switch src.Observer {
	case trace.ObserverServer:
		rows = append(rows, inferredRow{"Recorded by", "the server", "Its own order of reads and writes is judged: it can convict.", "imp-observer"})
	case trace.ObserverClient:
		rows = append(rows, inferredRow{"Recorded by", "the client", "The server's reads are not seen: a cancellation and a response closer than the round trip are undecided.", "imp-observer"})
	case trace.ObserverWire:
		rows = append(rows, inferredRow{"Recorded by", "the wire (in between)", "The server's reads are not seen: a cancellation and a response closer than the round trip are undecided.", "imp-observer"})
	}
	if src.Transport != "" {
		rows = append(rows, inferredRow{"Transport", src.Transport, "", ""})
	} else {
		rows = append(rows, inferredRow{"Transport", "unknown", "The log does not say; rules for one transport are not judged.", ""})
	}
	if src.Protocol != "" {
		why := "" // a trace imported before ProtocolFrom existed
		if src.ProtocolFrom != "" {
			why = "From " + src.ProtocolFrom + "."
		}
		rows = append(rows, inferredRow{"Protocol", src.Protocol, why, ""})
	} else {
		rows = append(rows, inferredRow{"Protocol", "unknown", "The log does not say it (no answered initialize or server/discover, no MCP-Protocol-Version header, no header line): rules that depend on the revision are not judged.", ""})
	}
	switch {
	case src.LatencyMs > 0:
		rows = append(rows, inferredRow{"Round trip", strconv.FormatInt(src.LatencyMs, 10) + " ms", "Given, or the fastest answered exchange plus the clock's resolution (1 ms; 1 s for times in whole seconds).", "imp-latency"})
	case src.Clock == "ms" && src.Observer != trace.ObserverServer:
		rows = append(rows, inferredRow{"Round trip", "unknown", "No answered ping or initialize: the cancel/response order is undecided.", "imp-latency"})
	}
	if src.Zone != "" {
		why := "The log's times carry no zone; give it to place them exactly."
		if src.Zone != "UTC" {
			why = "As given."
		}
		rows = append(rows, inferredRow{"Time zone", src.Zone, why, "imp-zone"})
	}
	var max int64
	for _, r := range tr.Requests {
		if r.MaxTimeoutMs > 0 {
			max = r.MaxTimeoutMs
			break
		}
	}
	if max > 0 {
		rows = append(rows, inferredRow{"Client's maximum timeout", strconv.FormatInt(max, 10) + " ms", "As given: max-timeout-enforced judges each request against it.", "imp-max-timeout"})
	} else {
		rows = append(rows, inferredRow{"Client's maximum timeout", "none given", "A log does not say it: max-timeout-enforced is not judged.", "imp-max-timeout"})
	}
	return rows
}

// exampleName is the name of the import page's built-in example, as its
// button says ("Load the Go SDK example").
const exampleName = "the Go SDK example"

// ImportFailedText is what the import page says when a transcript does
// not import (why: the import's error): why, and what the result below it
// is: the last transcript of the reader's own that imported (kept, dimmed),
// else nothing (the built-in example the page opened with is taken away,
// never left standing behind an error as if it were the reader's).
func ImportFailedText(why string, kept bool) string {
	if kept {
		return "Cannot import this transcript: " + why + ". The result below is the last one of yours that imported, not this transcript."
	}
	return fmt.Sprintf("Cannot import this transcript: %s. No result is shown until a transcript imports (load %s to see one).", why, exampleName)
}

// ImportFailedStatus is the import page's status while the transcript in
// its box does not import: it says so, where the live status would say the
// transcript is being judged.
const ImportFailedStatus = "Not imported: the transcript in the box has an error (below). Edit it and it is judged again."

// ImportEmptyStatus is the import page's status while its box is empty:
// nothing to judge is not an error, so it says what to do, where a
// transcript that does not import says ImportFailedStatus.
const ImportEmptyStatus = "Nothing to import yet: paste a transcript, drop a file on the box, or load " + exampleName + "."

// ImportLoadedText is the import page's placeholder for a large
// transcript kept out of its box: its lines, counted as the engine counts
// them, and its size (chars, in millions: MB), the count in grouped
// digits ("20,000 lines").
func ImportLoadedText(lines, chars int) string {
	return fmt.Sprintf("A transcript of %s lines (%.1f MB) is loaded. It is kept out of this box, which would take seconds to lay it out; type or paste here to replace it.",
		trace.Thousands(int64(lines)), float64(chars)/1e6)
}

// ImportJudgingText is the import page's status while a long transcript
// of lines lines is being judged.
func ImportJudgingText(lines int) string {
	return "Judging " + trace.Thousands(int64(lines)) + " lines in your browser…"
}
