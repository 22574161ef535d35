package templates

import (
	"context"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule message-valid (SCENARIO.md, "The wire of each revision") is judged
// by the JSON Schema validator, which the browser's pages do not link: a
// page's tally counts the checks it shows, so it says, beside the tally,
// that message-valid is left out and where it is judged, rather than let
// "All 7 checks that apply pass" stand for the 8 `mcplab run -checks`
// reports. A run whose checks hold message-valid (the command line's)
// counts it and says nothing of it.
func TestTallySaysMessageValidIsLeftOut(t *testing.T) {
	ok := true
	base := runEdited(t, "a-cancel-then-complete")
	withRule := *base
	withRule.Checks = append(append([]trace.Check{}, base.Checks...), trace.Check{Rule: checks.MessageValid, OK: &ok})
	for _, tc := range []struct {
		name     string
		tr       *trace.Trace
		wantLine bool
		wantPass int
	}{
		{"the browser's run: message-valid left out", base, true, len(base.Checks)},
		{"the command line's run: message-valid judged", &withRule, false, len(base.Checks) + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewView(tc.tr)
			if v.Pass != tc.wantPass {
				t.Errorf("tally counts %d passes, want %d", v.Pass, tc.wantPass)
			}
			var b strings.Builder
			if err := outputHeadline(v).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			has := strings.Contains(html, `id="check-native-only"`)
			if has != tc.wantLine {
				t.Fatalf("the headline has the line on message-valid: %v, want %v; html %.400q", has, tc.wantLine, html)
			}
			if !tc.wantLine {
				return
			}
			for _, want := range []string{`href="/rules/message-valid/"`, "<code>mcplab run -checks</code> only, not in the browser"} {
				if !strings.Contains(html, want) {
					t.Errorf("the line on message-valid lacks %q: %.600q", want, html[strings.Index(html, `id="check-native-only"`):])
				}
			}
			if tally, line := strings.Index(html, `id="check-tally"`), strings.Index(html, `id="check-native-only"`); line < tally {
				t.Errorf("the line on message-valid comes at %d, before the tally at %d", line, tally)
			}
		})
	}
}
