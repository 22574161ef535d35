package templates

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
)

// Rule (SCENARIO.md, Bad input): the playground shows a scenario error at
// its place: the span of the value the path names (or of its nearest
// existing ancestor), or the line and column of a syntax error, as UTF-16
// offsets a textarea can select.
func TestLocateError(t *testing.T) {
	doc := "{\n  \"mcplab\": 1,\n  \"title\": \"é\",\n  \"steps\": [\n    {\"at\": 0, \"do\": \"call\", \"id\": 1, \"name\": \"x\"},\n    {\"at\": -5, \"do\": \"cancel\", \"id\": 1}\n  ]\n}"
	tests := []struct {
		name       string
		doc        string
		wantPath   string
		wantLine   int
		wantSelect string // the text between Start and End
	}{
		{"negative time", doc, "steps[1].at", 6, "-5"},
		{"syntax error", "{\n  \"mcplab\": 1,\n  \"steps\": [,]\n}", "", 3, ","},
		{"missing member points at its step", "{\"mcplab\": 1, \"steps\": [{\"at\": 0, \"do\": \"call\"}]}", "steps[0].id", 1, `{"at": 0, "do": "call"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scenario.Decode([]byte(tc.doc))
			if err == nil {
				t.Fatal("the scenario decodes")
			}
			e := LocateError([]byte(tc.doc), err)
			if e.Path != tc.wantPath || e.Line != tc.wantLine {
				t.Fatalf("LocateError = %+v (%s), want path %q line %d", e, err, tc.wantPath, tc.wantLine)
			}
			units := []rune(tc.doc) // no astral characters here: runes = UTF-16 units
			if got := string(units[e.Start:e.End]); got != tc.wantSelect {
				t.Errorf("selection %q, want %q", got, tc.wantSelect)
			}
			if !strings.Contains(e.Where(), "line ") {
				t.Errorf("Where() = %q", e.Where())
			}
		})
	}
}

// Rule: embed snippets carry the title as text in every syntax: a title
// with markup and quotes cannot break out of the attribute or the JSX
// expression.
func TestNewEmbedEscapesTitle(t *testing.T) {
	src := "https://lab.example/playground/?embed=1#s=abc"
	e := NewEmbed(src, `<img src=x onerror="alert(1)"> & "quotes"`)
	if strings.Contains(e.HTML, "<img") || !strings.Contains(e.HTML, `title="&lt;img src=x onerror=&#34;alert(1)&#34;&gt; &amp; &#34;quotes&#34;"`) {
		t.Errorf("HTML snippet does not escape the title: %s", e.HTML)
	}
	if strings.Contains(e.MDX, "<img") || !strings.Contains(e.MDX, `referrerPolicy=`) || !strings.Contains(e.MDX, `style={{border: 0}}`) {
		t.Errorf("MDX snippet: %s", e.MDX)
	}
	if !strings.HasPrefix(e.MyST, ":::{iframe} "+src+"\n") || !strings.HasSuffix(e.MyST, "\n:::") {
		t.Errorf("MyST snippet: %s", e.MyST)
	}
}

// Rule: the MyST snippet escapes what it copies, like
// the others: a hostile title stays one line of text (no raw markup, no
// option line, no closing fence), and a URL cannot add a line.
func TestNewEmbedMySTEscapes(t *testing.T) {
	e := NewEmbed("https://lab.example/s/a/?embed=1#s=x\n:height: 1", "</textarea><script>alert(1)</script>\n:::\n:width: 1px *bold* [x](javascript:y)")
	want := ":::{iframe} https://lab.example/s/a/?embed=1#s=x%0A:height:%201\n:width: 100%\n" +
		`\<\/textarea\>\<script\>alert\(1\)\<\/script\> \:\:\: \:width\: 1px \*bold\* \[x\]\(javascript\:y\)` + "\n:::"
	if e.MyST != want {
		t.Errorf("MyST snippet\n%s\nwant\n%s", e.MyST, want)
	}
	if strings.Count(e.MyST, "\n") != 3 || strings.Contains(strings.ReplaceAll(e.MyST, `\<`, ""), "<") || strings.Contains(e.MDX, "<script") || strings.Contains(e.HTML, "<script") {
		t.Errorf("a snippet carries the title's markup:\n%s\n%s\n%s", e.HTML, e.MDX, e.MyST)
	}
	for _, s := range []string{e.HTML, e.MDX} {
		if !strings.Contains(s, EmbedReferrerPolicy) {
			t.Errorf("snippet without referrer policy %s: %s", EmbedReferrerPolicy, s)
		}
	}
}

// Rule (Hostile input): locating an error never panics and stays
// inside the text, whatever the editor holds.
func FuzzLocateError(f *testing.F) {
	f.Add([]byte(`{"mcplab":1,"steps":[{"at":-1,"do":"call","id":1}]}`))
	f.Add([]byte("{\n  \"mcplab\": 1,\n  \"steps\": [,]\n}"))
	f.Add([]byte(`{"mcplab":1,"title":"\ud83d\ude00","steps":[{"at":0,"do":"nope"}]}`))
	f.Add([]byte(`[[[[[[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := scenario.Decode(data)
		if err == nil {
			return
		}
		e := LocateError(data, err)
		n := utf16Offset(data, len(data))
		if e.Start < 0 || e.End < e.Start || e.End > n {
			t.Fatalf("span [%d, %d) outside the text of %d UTF-16 units", e.Start, e.End, n)
		}
		if e2 := LocateError(data, err); e2 != e {
			t.Fatalf("not deterministic: %+v then %+v", e, e2)
		}
	})
}

// TestImportPageNamesEveryFormat: the import page's help names the formats
// the importer detects (it named only the Go SDK log and JSON Lines, so a
// newcomer with a Claude Desktop log or a HAR thought it unsupported), and
// its file picker offers .har files.
func TestImportPageNamesEveryFormat(t *testing.T) {
	var b strings.Builder
	if err := ImportPage(Import{Root: "../"}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"Claude Desktop", "VS Code", "[STDIN]", "HAR", "mcp.LoggingTransport", "JSON Lines", `.har`} {
		if !strings.Contains(html, want) {
			t.Errorf("the import page does not mention %q", want)
		}
	}
	if !strings.Contains(html, `accept=".log,.txt,.jsonl,.json,.har,`) {
		t.Error("the file picker does not offer .har files")
	}
}

// TestImportHelpSaysWhatTIs: the import page's help says the JSON
// Lines' "t" is milliseconds or an ISO 8601 time, as the importer reads it
// (transcript's parseTime) and the README and the probe write it, with an
// example time the importer accepts.
func TestImportHelpSaysWhatTIs(t *testing.T) {
	var b strings.Builder
	if err := ImportPage(Import{Root: "../"}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	start := strings.Index(html, `id="imp-help"`)
	end := strings.Index(html[max(start, 0):], "</p>")
	if start < 0 || end < 0 {
		t.Fatal("no #imp-help")
	}
	help := html[start : start+end]
	if !strings.Contains(help, "milliseconds") || !strings.Contains(help, "ISO 8601") {
		t.Errorf("#imp-help does not say \"t\" is milliseconds or an ISO 8601 time: %s", help)
	}
	ex := regexp.MustCompile(`\d{4}-\d{2}-\d{2}T[0-9:.]+Z`).FindString(help)
	line := `{"t":"` + ex + `","from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}` + "\n" + `{"t":"` + ex + `","from":"server","message":{"jsonrpc":"2.0","id":1,"result":{}}}` + "\n"
	if _, err := transcript.Import([]byte(line), transcript.Options{}); ex == "" || err != nil {
		t.Errorf("#imp-help's example time %q: the importer says %v", ex, err)
	}
}

// Rule: the built-in scenarios are pickable at the top
// of the playground, grouped like the index: a <select> (#pg-pick-select)
// above the run, whose <optgroup>s are the index's sections in the index's
// order, holding the same scenarios in the same order, each option carrying
// the scenario's link (#example=NAME, ?ledger=1 first for a ledger
// scenario); the same groups follow as plain links for reading without
// JavaScript.
func TestPlaygroundPickerGroupedAsIndex(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.trace.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("testdata/*.trace.json: %d files (%v)", len(files), err)
	}
	var entries []IndexEntry
	var exs []PlaygroundExample
	ledger := map[string]bool{} // scenarios that need ledger.wasm
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".trace.json")
		tr := readTrace(t, name)
		if tr.Scenario == nil {
			continue
		}
		e := NewIndexEntry(name, tr.Scenario.Title, "", "s/"+name+"/", tr)
		entries = append(entries, e)
		ledger[name] = tr.Scenario.Ledger != nil
		exs = append(exs, PlaygroundExample{Name: name, Title: e.Title, Ledger: tr.Scenario.Ledger != nil, Group: e.Group(), Page: e.Href})
	}
	index := renderString(t, IndexPage("./", entries))
	page := renderString(t, PlaygroundPage(Playground{Root: "../", Scenario: []byte(`{}`), Examples: exs}))

	// The index's sections and scenarios, in its order.
	secRe := regexp.MustCompile(`<h2 id="section-[a-z]+-h">([^<]+)</h2>|data-name="([^"]+)" data-verdict`)
	var wantSecs, wantNames []string
	for _, m := range secRe.FindAllStringSubmatch(index, -1) {
		if m[1] != "" {
			wantSecs = append(wantSecs, m[1])
		} else {
			wantNames = append(wantNames, m[2])
		}
	}
	if len(wantSecs) < 3 {
		t.Fatalf("the index shows %d sections (%v): the inputs do not test grouping", len(wantSecs), wantSecs)
	}

	start, end := strings.Index(page, `<select id="pg-pick-select"`), strings.Index(page, `</select>`)
	if start < 0 || end < start {
		t.Fatal("the playground has no #pg-pick-select")
	}
	if title := strings.Index(page, `id="pg-title"`); title < end || strings.Index(page, `id="pg-editor"`) < end {
		t.Errorf("the picker is not at the top: it ends at %d, after #pg-title (%d) or #pg-editor", end, title)
	}
	sel := page[start:end]
	optRe := regexp.MustCompile(`<optgroup label="([^"]+)"|<option value="([^"]+)" data-href="([^"]+)"`)
	var gotSecs, gotNames []string
	for _, m := range optRe.FindAllStringSubmatch(sel, -1) {
		if m[1] != "" {
			gotSecs = append(gotSecs, m[1])
			continue
		}
		gotNames = append(gotNames, m[2])
		want := "#example=" + m[2]
		if ledger[m[2]] {
			want = "?ledger=1" + want
		}
		if m[3] != want {
			t.Errorf("option %s links to %q, want %q", m[2], m[3], want)
		}
	}
	if !slices.Equal(gotSecs, wantSecs) {
		t.Errorf("picker groups %q, index sections %q", gotSecs, wantSecs)
	}
	if !slices.Equal(gotNames, wantNames) {
		t.Errorf("picker order %q, index order %q", gotNames, wantNames)
	}

	// The no-JavaScript list: the same groups, each scenario linked to be
	// loaded here and to its own page.
	list := page[strings.Index(page, `id="pg-pick-list"`):]
	for _, s := range wantSecs {
		if !strings.Contains(list, ">"+s+"</h2>") {
			t.Errorf("#pg-pick-list has no heading %q", s)
		}
	}
	for _, n := range wantNames {
		if !strings.Contains(list, `data-example="`+n+`"`) || !strings.Contains(list, `href="../s/`+n+`/"`) {
			t.Errorf("#pg-pick-list does not link %s here and to its page", n)
		}
	}
}
