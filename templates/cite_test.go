package templates

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// TestCitedText proves the page's citation links (SCENARIO.md, "Switches
// for the failures real software shows": each failure cites its public
// report as owner/repo#number): every owner/repo#number becomes a link to
// https://github.com/owner/repo/issues/number, the text around it stays as
// written (escaped), and what only looks like one (a bare repo#number, a
// #fragment, a path) stays plain.
func TestCitedText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"As reported in anthropics/claude-code#51073: the client tears down.",
			`As reported in <a class="cite" href="https://github.com/anthropics/claude-code/issues/51073" rel="noopener">anthropics/claude-code#51073</a>: the client tears down.`},
		{"(kaeawc/auto-mobile#6118, Kuadrant/mcp-gateway#226)",
			`(<a class="cite" href="https://github.com/kaeawc/auto-mobile/issues/6118" rel="noopener">kaeawc/auto-mobile#6118</a>, <a class="cite" href="https://github.com/Kuadrant/mcp-gateway/issues/226" rel="noopener">Kuadrant/mcp-gateway#226</a>)`},
		{"triggerdotdev/trigger.dev#2134.", `<a class="cite" href="https://github.com/triggerdotdev/trigger.dev/issues/2134" rel="noopener">triggerdotdev/trigger.dev#2134</a>.`},
		{"claude-code#51073 and #64475 stay plain", "claude-code#51073 and #64475 stay plain"},
		{"a/b/c#12 and x/y#12ab and /y#3 and <b>", "a/b/c#12 and x/y#12ab and /y#3 and &lt;b&gt;"},
		{"", ""},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := citedText(tt.in).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("citedText(%q)\n got %s\nwant %s", tt.in, b.String(), tt.want)
		}
	}
}

// TestFailurePagesLinkTheirReports proves that every built-in scenario page
// whose notes cite a public report draws each citation, written
// owner/repo#number, as a link to https://github.com/owner/repo/issues/number
// (each failure's page cites the report it comes from), and that
// no page text still cites a report without its owner (repo#number).
func TestFailurePagesLinkTheirReports(t *testing.T) {
	linked := 0
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		var b bytes.Buffer
		p := Page{Root: "../../", Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Scenario: ex.JSON, Trace: tr}
		if err := ScenarioPage(p).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		for _, part := range citeParts(tr.Scenario.Notes) {
			if part.Href == "" {
				continue
			}
			linked++
			if want := `href="` + part.Href + `"`; !strings.Contains(html, want) {
				t.Errorf("%s: the page does not link %s (%s)", ex.Name, part.Text, want)
			}
		}
		for _, short := range []string{" claude-code#", " typescript-sdk#", " servers#", " rust-sdk#", " mcp_dart#", " zeph#", " twenty#", " gradio#", " cloudflared#", " auto-mobile#", " mcp-gateway#", " trigger.dev#", " opencode#", "(claude-code#", "(typescript-sdk#", "(servers#", "(rust-sdk#", "(mcp_dart#"} {
			if strings.Contains(tr.Scenario.Notes, short) {
				t.Errorf("%s: notes cite %q without the owner; write owner/repo#number", ex.Name, strings.TrimSpace(short))
			}
		}
	}
	if linked < 20 {
		t.Errorf("%d citations linked over the built-in pages; the failure pairs cite at least 20", linked)
	}
}

// TestLinkPartsLinksBuiltinScenarios: page text that names a built-in
// scenario links its page under the root (the herd lesson names its
// lockstep twin); a citation stays a citation, and a word that only
// contains a name, or is no name, stays plain.
func TestLinkPartsLinksBuiltinScenarios(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []textPart
	}{
		{"the correct twin of broken-herd-exponential-lockstep, where",
			[]textPart{{Text: "the correct twin of "}, {Text: "broken-herd-exponential-lockstep", Href: "../../s/broken-herd-exponential-lockstep/", Scenario: true}, {Text: ", where"}}},
		{"lockstep (bug-ops/zeph#4574).",
			[]textPart{{Text: "lockstep ("}, {Text: "bug-ops/zeph#4574", Href: "https://github.com/bug-ops/zeph/issues/4574"}, {Text: ")."}}},
		{"not-broken-herd-exponential-lockstep-2 and herd-nothing", []textPart{{Text: "not-broken-herd-exponential-lockstep-2 and herd-nothing"}}},
	} {
		got := linkParts(tc.in, "../../")
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("linkParts(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
