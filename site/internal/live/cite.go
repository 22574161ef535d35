package live

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// seqRefs matches the engine's citations of events in a check's detail:
// "#7" or "#7, #18, #28" (engine/checks' seqList).
var seqRefs = regexp.MustCompile(`#[0-9]+(?:, #[0-9]+)*`)

// CiteLines rewrites the event numbers a check's detail cites ("(#6, #7)",
// "before it wrote #8") as the transcript's lines they were read from
// ("(line 7, line 8)", "before it wrote line 8"; "HAR entry 2" for a HAR;
// one line read as a send and its delivery is cited once), as the import
// page cites them (trace.Event.Line), so nobody looks for line 8 of a
// five-line file. An event the importer derived rather than read keeps its
// number as "event #6". A scenario's trace (no Source) is unchanged: its
// events' numbers are the only numbering it has. A "#N" right after a
// letter, a digit or a quote (a quoted JSON-RPC id such as "#3") is not a
// citation and is left alone. The live verbs and `mcplab run -checks`
// print details so.
func CiteLines(tr *trace.Trace, detail string) string {
	if tr.Source == nil {
		return detail
	}
	var b strings.Builder
	last := 0
	for _, m := range seqRefs.FindAllStringIndex(detail, -1) {
		if m[0] > 0 {
			if c := detail[m[0]-1]; c == '"' || c == '\'' || c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' {
				continue
			}
		}
		var refs []string
		for _, n := range strings.Split(detail[m[0]:m[1]], ", ") {
			seq, _ := strconv.Atoi(n[1:])
			if r := eventLine(tr, seq); len(refs) == 0 || refs[len(refs)-1] != r {
				refs = append(refs, r)
			}
		}
		b.WriteString(detail[last:m[0]])
		b.WriteString(strings.Join(refs, ", "))
		last = m[1]
	}
	b.WriteString(detail[last:])
	return b.String()
}

// eventLine names event seq of an imported trace where it was read: "line
// 6", "HAR entry 2" (trace.Event.Line), or "event #6" for an event with no
// line (derived by the importer) or no such event.
func eventLine(tr *trace.Trace, seq int) string {
	if seq >= 0 && seq < len(tr.Events) {
		if n := tr.Events[seq].Line; n > 0 {
			if tr.Source.Format == trace.FormatHAR {
				return "HAR entry " + strconv.Itoa(n)
			}
			return "line " + strconv.Itoa(n)
		}
	}
	return "event #" + strconv.Itoa(seq)
}
