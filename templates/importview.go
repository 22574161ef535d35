package templates

import (
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
	Events       []int // seqs: the page links each to #event-N
}

// violations lists the failed checks of tr in the trace's order.
func violations(tr *trace.Trace) []violation {
	var out []violation
	if tr == nil {
		return nil
	}
	for _, c := range tr.Checks {
		if c.OK != nil && !*c.OK {
			out = append(out, violation{Rule: c.Rule, Detail: c.Detail, Events: c.Events})
		}
	}
	return out
}

// sourceText says in words where an imported trace came from: its format,
// which side wrote it, its clock, and the importer's note.
func sourceText(src *trace.Source) string {
	if src == nil {
		return ""
	}
	var b strings.Builder
	switch src.Format {
	case trace.FormatGoSDK:
		b.WriteString("Go SDK LoggingTransport log")
	case trace.FormatJSONL:
		b.WriteString("JSON Lines transcript")
	default:
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
