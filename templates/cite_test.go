package templates

import (
	"bytes"
	"context"
	"testing"
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
