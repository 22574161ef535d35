package templates

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The race explorer's page (SCENARIO.md, Explore): the outcome map of a
// window of one or two dimensions (a strip for one), each class a colour,
// a letter and its key in words, the boundaries between classes drawn,
// the counterexamples with their links and the map again as a table.

// ExploreCell is the side of one cell of the map, in SVG units.
const ExploreCell = 8

// exploreColours is how many class colours the stylesheet has (.xc0 ...
// .xc7); a ninth class reuses the first, its letter still tells it apart.
const exploreColours = 8

// ExploreOut is what ExploreOutput draws: a report (explore.Report or the
// merge of its parts so far) and where its links lead.
type ExploreOut struct {
	Report *explore.Report
	// LinkBase prefixes every run's "#s=..." link (the playground's
	// address relative to the page).
	LinkBase string
	// Parts and Done say how many parts the page explores and how many
	// have answered; Parts 0: the whole window at once (prerendered).
	Parts, Done int
	// Stopped is why the exploration stopped before every part answered,
	// in words (ExploreStoppedText, or a located error); "" while it runs
	// or once it is done. A stopped exploration states no conclusion of
	// the whole window: only what its answered parts cover.
	Stopped string
}

// exploreClass is one class as the legend says it.
type exploreClass struct {
	Letter, Key, Colour string
	Failing             []trace.RuleID
	Count               int64
	Example             string // its smallest values, in words
	Link                string
}

// exploreMap is the map's geometry: rows are the first dimension's sampled
// values, columns the second's (one column for a strip).
type exploreMap struct {
	Rows, Cols   []int64
	RowPath      string
	ColPath      string
	RowRange     string // the rows' values in words (axisRange)
	ColRange     string
	Cells        []int
	Width        int // SVG units
	Height       int
	Runs         []exploreRun // each row's cells as runs of one class
	Edges        string       // the boundaries, as path data
	ValuesJSON   string       // the sampled values, for the page's hover
	ClassLetters string       // the class letters by index, for the page
}

// exploreRun is a horizontal run of cells of one class.
type exploreRun struct {
	X, Y, W int
	Colour  string
}

// exploreView is ExploreOutput's model.
type exploreView struct {
	Title, Summary string
	Classes        []exploreClass
	Map            *exploreMap
	Counter        []exploreCounter
	Progress       string
	// None is what the counterexamples say when there are none: a
	// conclusion of the whole window only once every part has answered.
	None string
	// Unjudged is set when the report's rules leave out message-valid,
	// which the browser's runs do not judge (View.judged): the page says
	// so under the counterexamples.
	Unjudged bool
}

// exploreCounter is one counterexample in words.
type exploreCounter struct {
	Rule, Values, Link string
}

// ClassLetter is the letter of class i of a report in the legend and the
// table: A..Z, then AA, AB...
func ClassLetter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return ClassLetter(i/26-1) + ClassLetter(i%26)
}

// valuesText says a point's values: "steps[2].at = 309, latencyMs.up = 0".
func valuesText(vs explore.Values) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Path + " = " + strconv.FormatInt(v.Value, 10)
	}
	return strings.Join(parts, ", ")
}

// varyText says a window: "steps[2].at from 250 to 400 by 1".
func varyText(vs []scenario.Vary) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Path + " from " + strconv.FormatInt(v.From, 10) + " to " + strconv.FormatInt(v.To, 10) + " by " + strconv.FormatInt(v.ByMs, 10)
	}
	return strings.Join(parts, " × ")
}

// newExploreView builds the model of out.
func newExploreView(out ExploreOut) exploreView {
	r := out.Report
	v := exploreView{Title: r.Title, Unjudged: !r.Evaluates(checks.MessageValid)}
	v.Summary = varyText(r.Vary) + ": " + trace.Thousands(r.Points) + " grid points, " + trace.Thousands(int64(r.Runs)) + " runs"
	v.None = "No rule fails anywhere in this window, at this resolution."
	switch {
	case out.Stopped != "":
		v.Progress = "Stopped before the end: " + out.Stopped + " " + exploreCovered(out) + " The classes and counterexamples below are of what was covered only."
		v.None = "No rule failed in the part explored before the exploration stopped; the rest of the window is not known."
	case out.Parts > 0 && out.Done < out.Parts:
		v.Progress = "Exploring: " + strconv.Itoa(out.Done) + " of " + strconv.Itoa(out.Parts) + " parts done; the rest of the map shows the coarse grid."
		v.None = "No rule fails in the parts explored so far."
	case r.Exhaustive:
		v.Progress = "Done: every grid point's class is known, run or filled from the corners of its box (each boundary is exact to its step)."
	default:
		v.Progress = "Done, not exhaustive: " + trace.Thousands(r.Unknown) + " grid points were left unknown by maxRuns."
		v.None = "No rule fails at the grid points explored; " + trace.Thousands(r.Unknown) + " were left unknown."
	}
	for i, c := range r.Classes {
		v.Classes = append(v.Classes, exploreClass{Letter: ClassLetter(i), Key: c.Key, Colour: "xc" + strconv.Itoa(i%exploreColours),
			Failing: c.Failing, Count: c.Count, Example: valuesText(c.Example.Values), Link: out.LinkBase + c.Example.Link})
	}
	for _, ce := range r.Counterexamples {
		v.Counter = append(v.Counter, exploreCounter{Rule: string(ce.Rule), Values: valuesText(ce.Values), Link: out.LinkBase + ce.Link})
	}
	if r.Grid != nil && len(r.Grid.Values) > 0 {
		v.Map = newExploreMap(r)
	}
	return v
}

// newExploreMap lays out r's grid: runs of cells per row and the edges
// between cells of different classes.
func newExploreMap(r *explore.Report) *exploreMap {
	g := r.Grid
	// A strip is one row: its values run along the columns.
	m := &exploreMap{Rows: []int64{0}, Cols: g.Values[0], ColPath: r.Vary[0].Path, Cells: g.Cells}
	m.ColRange = axisRange(m.Cols, r.Vary[0].Points())
	if len(g.Values) > 1 && len(r.Vary) > 1 {
		m.Rows, m.RowPath, m.Cols, m.ColPath = g.Values[0], r.Vary[0].Path, g.Values[1], r.Vary[1].Path
		m.RowRange, m.ColRange = axisRange(m.Rows, r.Vary[0].Points()), axisRange(m.Cols, r.Vary[1].Points())
	}
	w, h := len(m.Cols), len(m.Rows)
	if len(g.Cells) != w*h {
		return nil
	}
	cell := func(i, j int) int { return g.Cells[i*w+j] }
	colour := func(c int) string {
		if c < 0 {
			return "xunknown"
		}
		return "xc" + strconv.Itoa(c%exploreColours)
	}
	var edges strings.Builder
	for i := 0; i < h; i++ {
		start := 0
		for j := 1; j <= w; j++ {
			if j == w || cell(i, j) != cell(i, start) {
				m.Runs = append(m.Runs, exploreRun{X: start * ExploreCell, Y: i * ExploreCell, W: (j - start) * ExploreCell, Colour: colour(cell(i, start))})
				if j < w {
					edges.WriteString("M" + strconv.Itoa(j*ExploreCell) + " " + strconv.Itoa(i*ExploreCell) + "v" + strconv.Itoa(ExploreCell))
				}
				start = j
			}
		}
		if i+1 < h {
			for j := 0; j < w; j++ {
				if cell(i, j) != cell(i+1, j) {
					edges.WriteString("M" + strconv.Itoa(j*ExploreCell) + " " + strconv.Itoa((i+1)*ExploreCell) + "h" + strconv.Itoa(ExploreCell))
				}
			}
		}
	}
	m.Edges = edges.String()
	m.Width, m.Height = w*ExploreCell, h*ExploreCell
	vals, _ := json.Marshal(g.Values)
	m.ValuesJSON = string(vals)
	letters := make([]string, len(r.Classes))
	for i := range letters {
		letters[i] = ClassLetter(i)
	}
	m.ClassLetters = strings.Join(letters, " ")
	return m
}

// cellLetter is the letter of cell (i, j), "?" when unknown.
func (m *exploreMap) cellLetter(i, j int) string {
	c := m.Cells[i*len(m.Cols)+j]
	if c < 0 {
		return "?"
	}
	return ClassLetter(c)
}

// ExploreChoice is a built-in scenario whose explore block the page
// offers, with its link relative to the page ("#s=...", or
// "?ledger=1#s=..." for a scenario with a ledger).
type ExploreChoice struct {
	Name, Title, Href string
}

// Explore is what ExplorePage draws: the scenario explored first
// (prerendered, natively), the scenarios to pick and the output.
type Explore struct {
	Root     string // the relative path to the site root ("../")
	Scenario json.RawMessage
	Out      ExploreOut
	Choices  []ExploreChoice
}

// mapName says what the map's rows and columns are.
func mapName(m *exploreMap) string {
	if m.RowPath == "" {
		return "a strip of " + m.ColPath + " from left to right"
	}
	return "rows " + m.RowPath + ", columns " + m.ColPath
}

// mapClass is the SVG's class: a map, or a strip of one row.
func mapClass(m *exploreMap) string {
	if m.RowPath == "" {
		return "explore-svg strip"
	}
	return "explore-svg"
}

// axisRange says an axis's sampled values out of the window's total on
// that dimension: "250..376 (64 values)" when every value is drawn,
// "250..400 (64 of 151 values sampled)" when the map samples them.
func axisRange(vs []int64, total int64) string {
	if len(vs) == 0 {
		return ""
	}
	n := int64(len(vs))
	count := trace.Thousands(n) + " values"
	if total > n {
		count = trace.Thousands(n) + " of " + trace.Thousands(total) + " values sampled"
	}
	return strconv.FormatInt(vs[0], 10) + ".." + strconv.FormatInt(vs[len(vs)-1], 10) + " (" + count + ")"
}

// ExploreEditedNote is what a scenario page's "Explore this race" panel
// says once the scenario on screen differs from the page's own: the map
// prerendered under it is the original's, and its link explores the edit.
const ExploreEditedNote = "The map below is the original scenario's; Explore this race runs your edit."

// ExploreHref is the explorer link of the scenario document data: base
// (the explorer page, with its query: root + "explore/" and "?ledger=1"
// for a scenario with a ledger), then the share fragment of the document
// with its own explore window, or the window explore.Suggest gives its
// timed steps. ok is false when the scenario has no window to explore
// (no explore block and no step after 0 ms); err is data's decode error.
func ExploreHref(base string, data []byte) (href string, ok bool, err error) {
	doc, ok, err := explore.Suggest(data)
	if err != nil || !ok {
		return "", false, err
	}
	frag, err := scenario.ShareFragment(doc)
	if err != nil {
		return "", false, err
	}
	return base + "#" + frag, true, nil
}

// ExploreNoWindow is what the explorer page says of a scenario with no
// window (explore.ErrNothingToVary): what to add in its editor, the
// explore member explore.Suggest gives its timed steps when it has any,
// else an example to adapt. It names no command-line flag: the page's
// reader gives a window in the editor.
func ExploreNoWindow(data []byte) string {
	const lead = "This scenario states no window to explore: add an \"explore\" member in the editor naming the times to vary, "
	if doc, ok, err := explore.Suggest(data); err == nil && ok {
		var m struct {
			Explore json.RawMessage `json:"explore"`
		}
		if json.Unmarshal(doc, &m) == nil && len(m.Explore) > 0 {
			return lead + "as its timed steps suggest: \"explore\": " + string(m.Explore) + "."
		}
	}
	return lead + "for example \"explore\": {\"vary\": [{\"path\": \"steps[2].at\", \"from\": 0, \"to\": 600}]}."
}

// ExploreCannotStatus is the explorer page's status when the scenario in
// its editor cannot be explored: the map stays the one drawn before, of
// the scenario titled shown ("" when none is drawn), and the status says
// whose it is rather than claim an exploration of this one.
func ExploreCannotStatus(shown string) string {
	if shown == "" {
		return "This scenario cannot be explored."
	}
	return "This scenario cannot be explored; the map below is still the one of “" + shown + "”."
}

// exploreCovered says what a stopped exploration covered: its parts
// answered (the coarse grid counts apart from them) and its runs.
func exploreCovered(out ExploreOut) string {
	r := out.Report
	covered := "Covered: " + strconv.Itoa(out.Done) + " of " + strconv.Itoa(out.Parts) + " parts"
	if out.Parts == 0 {
		covered = "Covered"
	}
	return covered + ", " + trace.Thousands(int64(r.Runs)) + " runs; the other grid points show the coarse grid or are unknown."
}

// ExploreStoppedText says why the explorer page stopped an exploration
// whose part ran past the page's budget for one worker's run (budgetMs,
// app.js's mcplabEngine.budgetMs, 20,000 ms by default), with what to do:
// narrow the window, or explore it with the native command, which has no
// such limit.
func ExploreStoppedText(budgetMs float64) string {
	return "one part of the window took longer than " + strconv.FormatFloat(budgetMs/1000, 'f', 0, 64) + " s, the limit for one worker's run in this page, and was stopped. Narrow the window (fewer dimensions, a shorter range or a larger byMs), or explore it whole with the command mcplab explore, which has no such limit."
}

// ExplorePicked is the index of the choice (by its href, "#s=..." or
// "?ledger=1#s=...") whose scenario is the document text, so the picker
// names the scenario explored; -1 when none is (an edited or pasted
// scenario: the picker then names none).
func ExplorePicked(hrefs []string, text []byte) int {
	// A share fragment is of the canonical document, so two spellings of
	// one scenario have one fragment.
	frag, err := scenario.ShareFragment(text)
	if err != nil {
		return -1
	}
	for i, h := range hrefs {
		if _, f, ok := strings.Cut(h, "#"); ok && f == frag {
			return i
		}
	}
	return -1
}

// ExploreStaleNote is what the explorer page says when the exploration
// asked for stopped before drawing anything: the map on screen, of the
// scenario titled shown ("" when none is drawn), is the one drawn before,
// not this exploration's (it may be of another scenario, or of this one
// prerendered).
func ExploreStaleNote(shown string) string {
	if shown == "" {
		return "Nothing was explored, so there is no map of this exploration."
	}
	return "Nothing was explored: the map below is the one drawn before, of “" + shown + "”, not this exploration's."
}
