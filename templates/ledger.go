package templates

// View model of the idempotency ledger (DOMAIN.md §4): the records with
// their fingerprints and receipts, the execution counter, the log of
// executions, and the ledger's events as a sequence diagram that shows who
// held the write lock, who waited (SQLITE_BUSY), who ran the effect and who
// replayed.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// externalEffectNote is shown wherever the lab shows an external effect
// (DOMAIN.md §4).
const externalEffectNote = "A local table makes only the local effect atomic; a real payment provider must accept the same key."

// Ledger event types (trace events of actor "ledger").
const (
	ledgerEffect = string(trace.TypeEffect) // the side effect ran and committed
	ledgerReplay = string(trace.TypeReplay) // the stored result was returned, no execution
	ledgerReject = string(trace.TypeReject) // a key reused with other arguments was refused
	ledgerLock   = string(trace.TypeLock)   // BEGIN IMMEDIATE took the write lock
	ledgerWait   = string(trace.TypeWait)   // BEGIN IMMEDIATE was refused (SQLITE_BUSY)
	ledgerCheck  = string(trace.TypeCheck)  // a key check in its own transaction (non-atomic)
	ledgerReopen = string(trace.TypeReopen) // every connection closed and opened again
)

// ledgerRule is the rule whose verdict the executions count shows.
const ledgerRule = string(checks.OneExecutionPerKey)

// ledgerView is everything the ledger section draws.
type ledgerView struct {
	Executions int
	// ExecutionsCheck is the result of the one-execution-per-key check
	// ("pass", "fail", "undecided"), "" when the trace has none.
	ExecutionsCheck string
	Records         []ledgerRow
	Log             []ledgerLogRow
	// Replicas is true when records live in more than one database.
	Replicas bool
	Race     *raceDiagram
	// RaceNarrow is Race laid out for a phone.
	RaceNarrow *raceDiagram
	// NoRecords says why Records is empty (shown in its place).
	NoRecords string
}

// ledgerRow is one idempotency record.
type ledgerRow struct {
	Key         string
	Fingerprint string // full SHA-256 hex
	Short       string // its first 12 hex digits
	Receipt     string // the result's receipt (or reservation), "" if none
	RPCID       string // the rpcId the result was first committed for
	Replica     string // "" when not recorded
	Result      string // the stored result JSON
}

// ledgerLogRow is one execution of the ledger's log.
type ledgerLogRow struct {
	N       string
	At      string
	Tool    string
	Receipt string
	Args    string
}

// newLedgerView builds the ledger section of tr, or nil when the trace has
// no ledger: no "ledger" in its scenario, no ledger event, no execution and
// no record.
func newLedgerView(tr *trace.Trace, checks []checkRow) *ledgerView {
	hasEvents := slices.ContainsFunc(tr.Events, func(e trace.Event) bool { return e.Actor == trace.ActorLedger })
	if (tr.Scenario == nil || tr.Scenario.Ledger == nil) && !hasEvents && tr.Ledger.Executions == 0 && len(tr.Ledger.Records) == 0 {
		return nil
	}
	v := &ledgerView{Executions: tr.Ledger.Executions, NoRecords: "No records: no call carried an idempotency key, so nothing can deduplicate a retry."}
	if tr.Scenario != nil && tr.Scenario.Server.Policy.DedupeBy == "none" {
		// The calls may carry keys: the server keeps no record of them.
		v.NoRecords = "No records: the server deduplicates ledger calls by nothing (a broken switch), so it stores none, whatever key a call carries, and every retry runs again."
	}
	for _, c := range checks {
		if c.Rule == ledgerRule {
			v.ExecutionsCheck = c.Result
		}
	}
	replicas := map[int]bool{}
	for _, r := range tr.Ledger.Records {
		row := ledgerRow{Key: r.Key, Fingerprint: r.Fingerprint, Short: r.Fingerprint, Result: compactJSON(r.Result)}
		if len(row.Short) > 12 {
			row.Short = row.Short[:12]
		}
		row.Receipt, row.RPCID = receiptOf(r.Result)
		if r.Replica > 0 {
			row.Replica = strconv.Itoa(r.Replica)
			replicas[r.Replica] = true
		}
		v.Records = append(v.Records, row)
	}
	v.Replicas = len(replicas) > 1
	for _, raw := range tr.Ledger.Log {
		var e struct {
			N       json.Number     `json:"n"`
			At      json.Number     `json:"at"`
			Tool    string          `json:"tool"`
			Receipt string          `json:"receipt"`
			Args    json.RawMessage `json:"args"`
		}
		if json.Unmarshal(raw, &e) != nil {
			v.Log = append(v.Log, ledgerLogRow{Args: string(raw)})
			continue
		}
		v.Log = append(v.Log, ledgerLogRow{N: e.N.String(), At: e.At.String(), Tool: e.Tool, Receipt: e.Receipt, Args: compactJSON(e.Args)})
	}
	v.Race, v.RaceNarrow = newRaceDiagram(tr), newNarrowRaceDiagram(tr)
	return v
}

// receiptOf reads a ledger result's receipt ("receipt", or "reservation"
// for reserve_inventory) and the rpcId it was committed for.
func receiptOf(result json.RawMessage) (receipt, rpcID string) {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil {
		return "", ""
	}
	for _, k := range []string{"receipt", "reservation"} {
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			receipt = s
			break
		}
	}
	if raw, ok := m["rpcId"]; ok {
		rpcID = string(raw)
	}
	return receipt, rpcID
}

// compactJSON prints raw JSON on one line ("" for none or null).
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// raceDiagram is the ledger's events as a sequence diagram: a column per
// request (each connection of a race is its own request), one row per
// event in trace order, a bar where a request held the write lock and a
// dashed bar where it waited for it.
type raceDiagram struct {
	// IDPrefix prefixes the DOM ids ("" wide, narrowFrame's for the phone
	// layout); Narrow says which layout this is.
	IDPrefix      string
	Narrow        bool
	Width, Height float64
	Columns       []raceColumn
	Rows          []raceRow
	Spans         []raceSpan
	TextX         float64 // where the rows' descriptions start
	Effects       int     // effect events (executions seen in the events)
	Replays       int
	Waits         int
	Summary       string
}

// raceColumn is one request's column.
type raceColumn struct {
	ID    string // JSON-RPC id as JSON text
	X     float64
	Label string
}

// raceRow is one ledger event.
type raceRow struct {
	Seq  int
	At   int64
	Type string // a Ledger* value
	ID   string // "" for reopen
	Key  string
	X, Y float64
	Text string // the description drawn at the right
	// Lines is Text as drawn: one line wide, wrapped at the width narrow.
	Lines []string
	Title string
}

// raceSpan is a stretch of one request's column: "lock" while it held the
// write lock (from lock to the end of its transaction), "wait" while
// BEGIN IMMEDIATE was refused.
type raceSpan struct {
	Kind   string
	ID     string
	X      float64
	Y1, Y2 float64
	Title  string
}

// Layout of the race diagram.
const (
	raceTop     = 40.0 // y of the first row
	raceRowH    = 24.0
	raceColL    = 86.0 // x of the first column
	raceColMax  = 110.0
	raceColMin  = 44.0
	raceTextW   = 470.0 // room for the descriptions
	raceLineH   = 14.0  // a wrapped description's line height (narrow)
	raceColLN   = 40.0  // x of the first column, narrow
	raceColMinN = 18.0  // the narrowest column, narrow (a glyph and its bar)
	raceTextWN  = 150.0 // room kept for the descriptions, narrow
)

// newRaceDiagram draws tr's ledger events, or nil when there are none.
func newRaceDiagram(tr *trace.Trace) *raceDiagram { return layoutRaceDiagram(tr, false) }

// newNarrowRaceDiagram is newRaceDiagram for a phone: the timeline's narrow
// frame (380 units), the narrowest columns, and each description wrapped
// into lines beside them, its row as tall as its lines. The wide
// diagram's 1000 units scrolled in a phone's box and cut the
// descriptions, and the keys they name, off.
func newNarrowRaceDiagram(tr *trace.Trace) *raceDiagram { return layoutRaceDiagram(tr, true) }

// layoutRaceDiagram lays out the race diagram wide (svgWidth) or narrow
// (narrowFrame's width).
func layoutRaceDiagram(tr *trace.Trace, narrow bool) *raceDiagram {
	var events []trace.Event
	for _, e := range tr.Events {
		if e.Actor == trace.ActorLedger {
			events = append(events, e)
		}
	}
	if len(events) == 0 {
		return nil
	}
	d := &raceDiagram{Width: svgWidth}
	col := d.layoutColumns(events, narrow)
	y := raceTop
	for _, e := range events {
		r := raceRow{Seq: e.Seq, At: e.At, Type: string(e.Type), Key: e.Key, Y: y}
		if e.ID != nil {
			r.ID = e.ID.String()
			r.X = d.Columns[col[e.ID.Raw()]].X
		}
		r.Text = d.rowText(tr, e, r.ID)
		r.Title = ledgerTitle(e, r.ID)
		r.Lines = []string{r.Text}
		if narrow {
			r.Lines = wrapWords(r.Text, d.Width-10-d.TextX)
		}
		y += max(raceRowH, float64(len(r.Lines))*raceLineH+10)
		d.Rows = append(d.Rows, r)
	}
	d.lockSpans()
	last := d.Rows[len(d.Rows)-1]
	d.Height = last.Y + float64(len(last.Lines)-1)*raceLineH + 34
	d.Summary = fmt.Sprintf("Ledger events in order: %d effect(s), %d replay(s), %d wait(s) for the write lock.", d.Effects, d.Replays, d.Waits)
	return d
}

// layoutColumns gives each request the ledger events name a column, in
// order of first appearance, as wide as the frame allows, and returns
// each request's column by its id.
func (d *raceDiagram) layoutColumns(events []trace.Event, narrow bool) map[string]int {
	col := map[string]int{}
	for _, e := range events {
		if e.ID == nil {
			continue
		}
		if _, ok := col[e.ID.Raw()]; !ok {
			col[e.ID.Raw()] = len(d.Columns)
			d.Columns = append(d.Columns, raceColumn{ID: e.ID.String()})
		}
	}
	n := float64(max(len(d.Columns), 1))
	colL, colW := raceColL, min(raceColMax, max(raceColMin, (svgWidth-raceColL-raceTextW)/n))
	if narrow {
		d.IDPrefix, d.Narrow, d.Width = narrowFrame.idPrefix, true, narrowFrame.width
		// Many requests share what is left of raceTextWN with the
		// descriptions (9 on the inventory practice page).
		colL, colW = raceColLN, max(raceColMinN, min(raceColMin, (d.Width-raceColLN-raceTextWN)/n))
	}
	for i := range d.Columns {
		d.Columns[i].X = colL + colW/2 + float64(i)*colW
		d.Columns[i].Label = "request " + d.Columns[i].ID
		if textWidth(d.Columns[i].Label) > colW-4 {
			d.Columns[i].Label = d.Columns[i].ID
		}
	}
	d.TextX = colL + n*colW + 16
	if len(d.Columns) == 0 {
		d.TextX = colL + 16
	}

	return col
}

// rowText says what a ledger event did, in words, and counts the
// effects, replays and waits.
func (d *raceDiagram) rowText(tr *trace.Trace, e trace.Event, id string) string {
	var text string
	receipt, _ := receiptOf(e.Message)
	who := "request " + id
	switch string(e.Type) {
	case ledgerLock:
		text = who + " takes the write lock (BEGIN IMMEDIATE)"
	case ledgerWait:
		text = who + ": BEGIN IMMEDIATE refused (SQLITE_BUSY), waits"
		d.Waits++
	case ledgerEffect:
		d.Effects++
		if receipt == "" {
			receipt = responseReceipt(tr, e.ID)
		}
		text = fmt.Sprintf("%s runs the effect (execution %d", who, d.Effects)
		if receipt != "" {
			text += ": " + receipt
		}
		text += ")"
	case ledgerReplay:
		d.Replays++
		text = who + " replays"
		if receipt != "" {
			text += " " + receipt
		}
		text += " (no execution)"
	case ledgerReject:
		text = who + " rejected: same key, other arguments"
	case ledgerCheck:
		text = who + " checks the key (own transaction)"
	case ledgerReopen:
		text = "every connection closed and reopened"
	default:
		text = strings.TrimSpace(who + " " + string(e.Type))
		if id == "" {
			text = string(e.Type)
		}
	}
	if e.Key != "" && string(e.Type) != ledgerLock && string(e.Type) != ledgerWait {
		text += ` · key "` + e.Key + `"`
	}
	return text
}

// ledgerTitle is a ledger event's tooltip: time, type and request, key
// and fingerprint, note and message.
func ledgerTitle(e trace.Event, id string) string {
	var t strings.Builder
	fmt.Fprintf(&t, "%d ms, ledger: %s", e.At, e.Type)
	if id != "" {
		fmt.Fprintf(&t, " (request %s)", id)
	}
	if e.Key != "" {
		fmt.Fprintf(&t, "\nkey %q, fingerprint %s", e.Key, e.Fingerprint)
	}
	if e.Note != "" {
		t.WriteString("\n" + e.Note)
	}
	if m := compactJSON(e.Message); m != "" {
		t.WriteString("\n" + shownJSON([]byte(m)))
	}
	return t.String()
}

// lockSpans draws how long each lock and wait lasts.
func (d *raceDiagram) lockSpans() {
	// Spans: a lock lasts until that request's effect, replay or reject; a
	// wait lasts until its lock.
	for i, r := range d.Rows {
		var until func(raceRow) bool
		kind := ""
		switch r.Type {
		case ledgerLock:
			kind = "lock"
			until = func(o raceRow) bool {
				return o.ID == r.ID && (o.Type == ledgerEffect || o.Type == ledgerReplay || o.Type == ledgerReject)
			}
		case ledgerWait:
			kind = "wait"
			until = func(o raceRow) bool { return o.ID == r.ID && o.Type == ledgerLock }
		default:
			continue
		}
		end := r.Y
		for _, o := range d.Rows[i+1:] {
			if until(o) {
				end = o.Y
				break
			}
		}
		title := "request " + r.ID + " holds the write lock"
		if kind == "wait" {
			title = "request " + r.ID + " waits for the write lock (SQLITE_BUSY)"
		}
		d.Spans = append(d.Spans, raceSpan{Kind: kind, ID: r.ID, X: r.X, Y1: r.Y, Y2: end, Title: title})
	}
}

// responseReceipt is the receipt in the response the server sent for id
// (its structuredContent), for an effect event that carries no result.
func responseReceipt(tr *trace.Trace, id *scenario.ID) string {
	if id == nil {
		return ""
	}
	for _, r := range tr.Requests {
		if r.ID.Raw() != id.Raw() {
			continue
		}
		var m struct {
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(r.Response, &m) == nil {
			rc, _ := receiptOf(m.Result.StructuredContent)
			return rc
		}
	}
	return ""
}

// wrapWords breaks s at spaces into lines of at most width units by the
// labels' width estimate; a word wider than that has a line of its own.
func wrapWords(s string, width float64) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && textWidth(line+" "+w) > width {
			lines, line = append(lines, line), w
			continue
		}
		line = strings.TrimPrefix(line+" "+w, " ")
	}
	return append(lines, line)
}

// ColumnsLeft is the x where the first column's band starts (raceColL
// wide, raceColLN narrow): a reopen's dashed line runs from there.
func (d raceDiagram) ColumnsLeft() float64 {
	if d.Narrow {
		return raceColLN
	}
	return raceColL
}

// raceLineDy is the dy of a wrapped description's line i: 0 for the
// first, raceLineH for each after it.
func raceLineDy(i int) string {
	if i == 0 {
		return "0"
	}
	return formatNum(raceLineH)
}
