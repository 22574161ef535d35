package templates

import (
	"encoding/xml"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// topElements returns the names of the top-level elements of an HTML
// fragment, and any text outside them that is not white space.
func topElements(t *testing.T, html string) (names []string, text string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(html))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return names, strings.TrimSpace(text)
		}
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				names = append(names, tok.Name.Local)
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 {
				text += string(tok)
			}
		}
	}
}

// Rule: Output is exactly its parts (OutputParts) in order inside the
// wrapper, each part one element, so the wasm may render, compare and swap
// them one at a time and get what the prerendered page shows; the same
// holds when the parts come back as raw HTML (how the wasm assembles a
// full render). The headline and the timeline are never drawn later. A
// block with views (the timeline) is its shell around them, each view one
// element with its id, and the shell is the same for every run.
func TestOutputIsItsParts(t *testing.T) {
	shells := map[string]bool{}
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			tr := examplestest.RunExample(t, ex)
			v := NewView(tr)
			parts := OutputParts(v, AllCharts.Charts(tr, v))
			var keys []string
			raw := make([]OutputPart, len(parts))
			for i, p := range parts {
				keys = append(keys, p.Key)
				html := renderString(t, p.Component)
				if names, text := topElements(t, html); len(names) != 1 || text != "" {
					t.Errorf("part %s renders elements %v and text %q, want exactly one element", p.Key, names, text)
				}
				if (p.Key == "headline" || p.Key == "timeline") && p.Later {
					t.Errorf("part %s is drawn later", p.Key)
				}
				raw[i] = OutputPart{Key: p.Key, Later: p.Later, Component: templ.Raw(html)}
				if len(p.Views) == 0 {
					continue
				}
				// The views: one element each with its id; the block is its
				// shell around them, whatever HTML they are given.
				var viewHTML []templ.Component
				for _, view := range p.Views {
					vh := renderString(t, view.Component)
					if names, text := topElements(t, vh); len(names) != 1 || text != "" || !strings.Contains(vh, ` id="`+view.ID+`"`) {
						t.Errorf("view %s renders elements %v and text %q, want one element with that id", view.ID, names, text)
					}
					viewHTML = append(viewHTML, templ.Raw(vh))
				}
				if got := renderString(t, p.Shell(viewHTML)); got != html {
					t.Errorf("part %s: the shell around its views differs from the block:\n%s", p.Key, firstDiff(html, got))
				}
				shells[renderString(t, p.Shell([]templ.Component{templ.Raw("VIEW")}))] = true
			}
			if len(slices.Compact(slices.Sorted(slices.Values(keys)))) != len(keys) {
				t.Errorf("part keys %v repeat", keys)
			}
			full := renderString(t, Output(tr))
			if got := renderString(t, OutputWith(v, raw)); got != full {
				t.Errorf("the parts rendered one by one differ from Output:\n%s", firstDiff(full, got))
			}
			wrapper := renderString(t, OutputWith(v, nil))
			for _, a := range v.OutputData() {
				if want := a[0] + `="` + a[1] + `"`; !strings.Contains(wrapper, want) {
					t.Errorf("wrapper %s lacks %s", wrapper, want)
				}
			}
		})
	}
	// Nothing in a block but its views depends on the run: one shell for
	// the timeline figure, one for the folded timeline of a herd experiment.
	if len(shells) != 2 {
		t.Errorf("%d different shells around the views, want 2 (figure, folded figure): %v", len(shells), slices.Collect(maps.Keys(shells)))
	}
}
