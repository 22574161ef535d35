package templates

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func renderString(t *testing.T, c templ.Component) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.String()
}

// golden compares got with testdata/name byte for byte, or rewrites it
// with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./templates -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test ./templates -update if the change is intended)\n%s", path, firstDiff(string(want), got))
	}
}

// firstDiff shows the first line that differs.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(i+1) + ":\nwant: " + w + "\n got: " + g
		}
	}
	return ""
}

// svgLines puts one SVG element per line so golden diffs are readable.
func svgLines(svg string) string {
	return strings.ReplaceAll(svg, "><", ">\n<") + "\n"
}

// goldenInputs are the traces the golden files pin, frozen in testdata/ so
// that only a template change moves a golden file. Refresh one from the
// engine with
//
//	go run ./site/cmd/mcplab run engine/examples/NAME.json > templates/testdata/NAME.trace.json
//
// and then go test ./templates -update.
var goldenInputs = []string{
	"a-cancel-then-complete",
	"c-progress-then-maximum",
	"d-cancel-on-streamable-http",
	"http-2025-post-cancel",
	"keepalive-is-not-progress",
	"malformed-and-unknown-cancellations",
}

func readTrace(t *testing.T, name string) *trace.Trace {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	return loadTrace(t, string(data))
}

// TestTimelineGolden pins the SVG of the hand-written small trace and of
// the frozen traces, byte for byte (testdata/NAME.svg), and the narrow
// layout of the small trace and of scenario A (testdata/NAME.narrow.svg).
func TestTimelineGolden(t *testing.T) {
	t.Run("small", func(t *testing.T) {
		golden(t, "small.svg", svgLines(renderString(t, timelineSVG(newTimeline(loadTrace(t, smallTrace))))))
		golden(t, "small.narrow.svg", svgLines(renderString(t, timelineSVG(newNarrowTimeline(loadTrace(t, smallTrace))))))
	})
	for _, name := range goldenInputs {
		t.Run(name, func(t *testing.T) {
			tr := readTrace(t, name)
			golden(t, name+".svg", svgLines(renderString(t, timelineSVG(newTimeline(tr)))))
			if name == "a-cancel-then-complete" {
				golden(t, name+".narrow.svg", svgLines(renderString(t, timelineSVG(newNarrowTimeline(tr)))))
			}
		})
	}
}

// TestScenarioPageGolden pins the whole prerendered page of scenario A
// (testdata/a-cancel-then-complete.page.html) and the index listing it.
func TestScenarioPageGolden(t *testing.T) {
	tr := readTrace(t, "a-cancel-then-complete")
	scen, err := json.Marshal(tr.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	html := renderString(t, ScenarioPage(Page{Root: "../../", Name: "a-cancel-then-complete", Title: tr.Scenario.Title,
		Summary: "The client calls a tool.", Scenario: scen, Trace: tr}))
	golden(t, "a-cancel-then-complete.page.html", strings.ReplaceAll(html, "><", ">\n<")+"\n")
	index := renderString(t, IndexPage("./", []IndexEntry{
		NewIndexEntry("a-cancel-then-complete", tr.Scenario.Title, "The client calls a tool.", "s/a-cancel-then-complete/", tr),
	}))
	golden(t, "index.html", strings.ReplaceAll(index, "><", ">\n<")+"\n")
}

// TestSVGWellFormed: every timeline is well-formed XML, every element a
// test reads has a unique id, every arrow and mark has a <title>, and the
// marks and arrows account for every event of the trace.
func TestSVGWellFormed(t *testing.T) {
	traces := map[string]*trace.Trace{"small": loadTrace(t, smallTrace)}
	for _, name := range goldenInputs {
		traces["frozen/"+name] = readTrace(t, name)
	}
	for _, ex := range examples.All() {
		traces[ex.Name] = examplestest.RunExample(t, ex)
	}
	for name, tr := range traces {
		for _, layout := range []struct {
			name string
			new  func(*trace.Trace) timeline
		}{{"wide", newTimeline}, {"narrow", newNarrowTimeline}} {
			t.Run(name+"/"+layout.name, func(t *testing.T) {
				checkTimelineSVG(t, tr, renderString(t, timelineSVG(layout.new(tr))))
			})
		}
	}
}

// checkTimelineSVG is TestSVGWellFormed's check of one rendered timeline.
func checkTimelineSVG(t *testing.T, tr *trace.Trace, svg string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	ids := map[string]bool{}
	seqs := map[string]bool{}
	var stack []string
	titled := map[string]bool{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			id := ""
			for _, a := range tok.Attr {
				switch a.Name.Local {
				case "id":
					id = a.Value
					if ids[id] {
						t.Errorf("duplicate id %q", id)
					}
					ids[id] = true
				case "data-seq", "data-deliver-seq", "data-drop-seq":
					seqs[a.Value] = true
				}
			}
			if tok.Name.Local == "title" && len(stack) > 0 {
				titled[stack[len(stack)-1]] = true
			}
			stack = append(stack, id)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	for id := range ids {
		name := strings.TrimPrefix(id, narrowFrame.idPrefix)
		if (strings.HasPrefix(name, "wire-") || strings.HasPrefix(name, "mark-")) && !titled[id] {
			t.Errorf("%s has no <title>", id)
		}
	}
	for _, e := range tr.Events {
		if !seqs[itoa(e.Seq)] {
			t.Errorf("event %d (%s %s) is drawn by no arrow or mark", e.Seq, e.Actor, e.Type)
		}
	}
}

// TestOutputIDsUnique: the whole Output, with its two timelines and the
// charts, never repeats an element id (an arrowhead marker or a link target
// found twice would point into the hidden layout).
func TestOutputIDsUnique(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			html := renderString(t, Output(examplestest.RunExample(t, ex)))
			seen := map[string]bool{}
			for _, m := range regexp.MustCompile(`\sid="([^"]*)"`).FindAllStringSubmatch(html, -1) {
				if seen[m[1]] {
					t.Errorf("id %q appears twice", m[1])
				}
				seen[m[1]] = true
			}
			for _, m := range regexp.MustCompile(`url\(#([^)]*)\)`).FindAllStringSubmatch(html, -1) {
				if !seen[m[1]] {
					t.Errorf("url(#%s) names no element", m[1])
				}
			}
		})
	}
}

// TestRenderDeterministic: rendering the same trace twice gives the same
// bytes (no map order or pointer reaches the output).
func TestRenderDeterministic(t *testing.T) {
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		a, b := renderString(t, Output(tr)), renderString(t, Output(tr))
		if a != b {
			t.Errorf("%s: two renders differ", ex.Name)
		}
	}
}

// TestNoInlineStyleOrScript: the CSP forbids inline styles and scripts;
// the only inline script is the JSON data block.
func TestNoInlineStyleOrScript(t *testing.T) {
	ex := examples.All()[0]
	tr := examplestest.RunExample(t, ex)
	html := renderString(t, ScenarioPage(Page{Root: "../../", Name: ex.Name, Title: ex.Title, Scenario: ex.JSON, Trace: tr}))
	html += renderString(t, IndexPage("./", []IndexEntry{NewIndexEntry(ex.Name, ex.Title, ex.Summary, "s/x/", tr)}))
	// Attribute values are emptied first: the index's Copy embed button
	// carries an iframe snippet, style="border:0" included, as the text
	// of its data-embed value, which styles nothing on this page.
	tags := regexp.MustCompile(`="[^"]*"`).ReplaceAllString(html, `=""`)
	if m := regexp.MustCompile(`(?i)\sstyle=|<style`).FindString(tags); m != "" {
		t.Errorf("page has an inline style (%s)", m)
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=`).MatchString(html) {
		t.Errorf("page has an inline event handler")
	}
	for _, m := range regexp.MustCompile(`<script[^>]*>`).FindAllString(html, -1) {
		if !strings.Contains(m, `src="`) && !strings.Contains(m, `type="application/json"`) {
			t.Errorf("inline script %s", m)
		}
	}
}
