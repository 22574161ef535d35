package templates

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule (the lessons show their windows, SCENARIO.md Explore): the race
// lesson's map shows its three classes in words with the boundaries
// between them and the map as a table; the flagship's lists the retry
// that charges twice (no-unsafe-retry, "side effects 2") with a link to
// its smallest run; the keyed twin's says no rule fails anywhere.
func TestExploreOutputOfTheLessons(t *testing.T) {
	cases := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{"a-cancel-then-complete", []string{
			"7 cancelled at the server, as the client asked (client), client abandoned, no response; fails: none",
			"7 completed at the server after the client cancelled (client), client abandoned, response sent; fails: none",
			"7 completed, client result, response sent; fails: none",
			`class="explore-edges" d="M`, `id="explore-table"`, "No rule fails anywhere in this window"}, nil},
		{"flagship-retry-charges-twice", []string{"side effects 2; fails: no-unsafe-retry", "<code>no-unsafe-retry</code> fails first at", `href="../playground/#s=`}, []string{"No rule fails"}},
		{"flagship-with-idempotency-key", []string{"No rule fails anywhere in this window, at this resolution."}, []string{"side effects 2", "fails first at"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := explore.Explore(examplestest.Get(t, tc.name).JSON, explore.Options{Engine: engine.Options{OpenLedger: sqlite.NewMemory}})
			if err != nil {
				t.Fatal(err)
			}
			html := renderString(t, ExploreOutput(ExploreOut{Report: rep, LinkBase: "../playground/"}))
			for _, w := range tc.want {
				if !strings.Contains(html, escapeText(w)) {
					t.Errorf("the output lacks %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(html, w) {
					t.Errorf("the output says %q", w)
				}
			}
			cells := strings.Count(html, "<td>")
			if want := len(rep.Grid.Values[0]) * len(rep.Grid.Values[1]); cells != want {
				t.Errorf("the table has %d cells, want %d", cells, want)
			}
		})
	}
}

// escapeText is s as templ writes it in text (quotes escaped).
func escapeText(s string) string {
	if strings.HasPrefix(s, "<") || strings.Contains(s, `="`) {
		return s
	}
	return strings.ReplaceAll(s, `"`, "&#34;")
}

// Rule (SCENARIO.md Explore: for one dimension a strip): a window of one
// dimension is drawn as one row of cells, its values along the columns,
// and its table is that one row.
func TestExploreOutputOfOneDimensionIsAStrip(t *testing.T) {
	rep, err := explore.Explore(examplestest.Get(t, "a-cancel-then-complete").JSON,
		explore.Options{Vary: []scenario.Vary{{Path: "steps[2].at", From: 250, To: 400, ByMs: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	html := renderString(t, ExploreOutput(ExploreOut{Report: rep}))
	if !strings.Contains(html, `class="explore-svg strip"`) || !strings.Contains(html, "a strip of steps[2].at from left to right") {
		t.Error("a one-dimensional window is not drawn as a strip")
	}
	if rows, cells := strings.Count(html, `<th scope="row">`), strings.Count(html, "<td>"); rows != 1 || cells != 64 {
		t.Errorf("the strip's table has %d rows and %d cells, want 1 and 64", rows, cells)
	}
}

// Rule (the explorer explores the scenario on screen, SCENARIO.md
// Explore): the link of an edited scenario opens the explorer on the edit
// (its transport), keeping the window the scenario states; a scenario
// without a window gets the one its timed steps suggest; one with no
// timed step has no link.
func TestExploreHrefOpensTheEditedScenario(t *testing.T) {
	orig := examplestest.Get(t, "a-cancel-then-complete").JSON
	edited, err := scenario.SetPath(orig, "transport", []byte(`"streamable-http"`))
	if err != nil {
		t.Fatal(err)
	}
	href, ok, err := ExploreHref("../explore/", edited)
	if err != nil || !ok {
		t.Fatalf("ExploreHref: ok %v, err %v", ok, err)
	}
	if !strings.HasPrefix(href, "../explore/#s=") {
		t.Fatalf("href %q: want the explorer page's #s= link", href)
	}
	link, err := scenario.ParseLink(href)
	if err != nil {
		t.Fatal(err)
	}
	got, err := scenario.Decode(link.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	want, err := scenario.Decode(orig)
	if err != nil {
		t.Fatal(err)
	}
	if got.Transport != "streamable-http" {
		t.Errorf("explored transport %q, want the edit's streamable-http", got.Transport)
	}
	if got.Explore == nil || want.Explore == nil || !reflect.DeepEqual(got.Explore, want.Explore) {
		t.Errorf("explore window %+v, want the scenario's own %+v", got.Explore, want.Explore)
	}
	origHref, _, _ := ExploreHref("../explore/", orig)
	if origHref == href {
		t.Error("the edited scenario's link is the original's")
	}
	untimed := []byte(`{"title":"t","transport":"stdio","steps":[{"at":0,"do":"call","tool":"x"}]}`)
	if _, ok, _ := ExploreHref("../explore/", untimed); ok {
		t.Error("a scenario with no timed step and no window has an explorer link")
	}
}

// Rule (the explorer page says what its reader can do, in the page): a
// scenario with no window is told to add an explore member in the editor,
// the one its timed steps suggest (lesson B's last two steps, 250 ms
// either side), never a command-line flag; a scenario that cannot be
// explored leaves the map of the last one drawn, and the status names
// whose it is.
func TestExploreWordsOfTheExplorerPage(t *testing.T) {
	b := examplestest.Get(t, "b-complete-then-cancel").JSON
	if s, err := scenario.Decode(b); err != nil || s.Explore != nil {
		t.Fatalf("lesson B must state no window: %v", err)
	}
	got := ExploreNoWindow(b)
	for _, w := range []string{`add an "explore" member in the editor`, `"path":"steps[`, `"byMs":1`} {
		if !strings.Contains(got, w) {
			t.Errorf("ExploreNoWindow says %q, want %q", got, w)
		}
	}
	if strings.Contains(got, "-vary") {
		t.Errorf("ExploreNoWindow names a flag: %q", got)
	}
	if got := ExploreNoWindow([]byte(`{"mcplab": 1}`)); !strings.Contains(got, `for example "explore": {"vary"`) {
		t.Errorf("with no timed step: %q, want an example", got)
	}
	if got := ExploreCannotStatus("A: cancellation wins (stdio)"); strings.Contains(got, "last exploration") || !strings.Contains(got, "“A: cancellation wins (stdio)”") {
		t.Errorf("ExploreCannotStatus = %q, want the drawn map's title, not a claimed exploration", got)
	}
	if got := ExploreCannotStatus(""); got != "This scenario cannot be explored." {
		t.Errorf("with no map: %q", got)
	}
}

// Rule (an axis says how many of its window's values the map draws):
// 64 sampled of 151 says so; every value drawn says the count alone.
func TestAxisRangeSaysSampling(t *testing.T) {
	vs := make([]int64, 64)
	for i := range vs {
		vs[i] = 250 + int64(i)*150/63
	}
	if got, want := axisRange(vs, 151), "250..400 (64 of 151 values sampled)"; got != want {
		t.Errorf("axisRange = %q, want %q", got, want)
	}
	if got, want := axisRange(vs, 64), "250..400 (64 values)"; got != want {
		t.Errorf("axisRange of every value = %q, want %q", got, want)
	}
}

// Rule (a page tells the truth about its exploration): until every part
// has answered the output states no conclusion of the whole window; an
// exploration stopped past the page's budget says it stopped, the limit
// with its number, what it covered and what to do.
func TestExploreOutputStoppedOrUnfinished(t *testing.T) {
	rep, err := explore.Explore(examplestest.Get(t, "flagship-with-idempotency-key").JSON, explore.Options{Engine: engine.Options{OpenLedger: sqlite.NewMemory}})
	if err != nil {
		t.Fatal(err)
	}
	const whole = "No rule fails anywhere in this window"
	cases := []struct {
		name    string
		out     ExploreOut
		want    []string
		notWant []string
	}{
		{"done: the whole window's conclusion", ExploreOut{Report: rep, Parts: 8, Done: 8}, []string{whole, "Done: every grid point"}, []string{"Stopped", "Exploring:"}},
		{"running: only the parts so far", ExploreOut{Report: rep, Parts: 8, Done: 2}, []string{"Exploring: 2 of 8 parts done", "No rule fails in the parts explored so far."}, []string{whole}},
		{"stopped past the 20 s budget", ExploreOut{Report: rep, Parts: 8, Done: 2, Stopped: ExploreStoppedText(20000)},
			[]string{"Stopped before the end: one part of the window took longer than 20 s", "Covered: 2 of 8 parts, " + trace.Thousands(int64(rep.Runs)) + " runs",
				"mcplab explore", "No rule failed in the part explored before the exploration stopped; the rest of the window is not known."},
			[]string{whole, "Exploring:", "Done:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			html := renderString(t, ExploreOutput(tc.out))
			for _, w := range tc.want {
				if !strings.Contains(html, escapeText(w)) {
					t.Errorf("the output lacks %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(html, escapeText(w)) {
					t.Errorf("the output says %q", w)
				}
			}
		})
	}
}

// Rule (the picker names the scenario explored): ExplorePicked finds the
// built-in whose link carries the document, with or without ?ledger=1 and
// whatever its spacing, and none for an edited document.
func TestExplorePicked(t *testing.T) {
	a, flag := examplestest.Get(t, "a-cancel-then-complete").JSON, examplestest.Get(t, "flagship-retry-charges-twice").JSON
	href := func(query string, data []byte) string {
		frag, err := scenario.ShareFragment(data)
		if err != nil {
			t.Fatal(err)
		}
		return query + "#" + frag
	}
	hrefs := []string{href("", a), href("?ledger=1", flag)}
	var spaced bytes.Buffer
	if err := json.Indent(&spaced, flag, "", "\t"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		text []byte
		want int
	}{
		{"the first built-in", a, 0},
		{"the flagship, opened with ?ledger=1", flag, 1},
		{"the flagship re-indented", spaced.Bytes(), 1},
		{"an edited scenario names none", []byte(`{"title":"mine","steps":[]}`), -1},
	}
	for _, tc := range cases {
		if got := ExplorePicked(hrefs, tc.text); got != tc.want {
			t.Errorf("%s: picked %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := ExploreStaleNote("A: cancellation wins (stdio)"); !strings.Contains(got, "A: cancellation wins (stdio)") || !strings.Contains(got, "not this exploration's") {
		t.Errorf("the stale note %q does not name the map's scenario and say it is not this exploration's", got)
	}
}
