package worker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// TestShareKeepsTheTextAsWritten: a share link reopens the editor on the
// text as written, so an invalid scenario's error stands on the line it
// stood on and the author's layout and member order survive; a text laid
// out as a canonical link opens keeps that canonical link (one scenario,
// one link), and an old canonical link still opens indented.
func TestShareKeepsTheTextAsWritten(t *testing.T) {
	a := example(t, exampleA)
	canon, err := scenario.Canonical([]byte(a))
	if err != nil {
		t.Fatal(err)
	}
	indented := templates.IndentScenario(canon)
	invalid := strings.Replace(a, `"mcplab": 1,`, `"mcplab": 1, "bogus": 2,`, 1)
	cases := []struct {
		rule, text string
		canonical  bool // the link is scenario.ShareFragment's
	}{
		{"a built-in's file keeps its layout and member order", a, false},
		{"an invalid scenario keeps its lines, so its error keeps its line", invalid, false},
		{"text that is not JSON is kept", a[:len(a)/2], false},
		{"text laid out as a canonical link opens keeps the canonical link", indented, true},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			frag := ShareOf([]byte(c.text))
			l, err := scenario.ParseLink("#" + frag)
			if err != nil {
				t.Fatalf("ParseLink(ShareOf) = %v", err)
			}
			if got := EditorText(l.Scenario); got != c.text {
				t.Errorf("the link reopens on %.80q, want the text as written %.80q", got, c.text)
			}
			want, err := scenario.ShareFragment([]byte(c.text))
			if isCanon := err == nil && frag == want; isCanon != c.canonical {
				t.Errorf("the link is canonical: %v, want %v", isCanon, c.canonical)
			}
		})
	}
	// An invalid scenario's error is on the same line before and after.
	_, before := scenario.Decode([]byte(invalid))
	l, _ := scenario.ParseLink("#" + ShareOf([]byte(invalid)))
	_, after := scenario.Decode([]byte(EditorText(l.Scenario)))
	if fmt.Sprint(templates.LocateError([]byte(invalid), before)) != fmt.Sprint(templates.LocateError(l.Scenario, after)) || before == nil {
		t.Errorf("the error moved: %v before, %v after reopening", before, after)
	}
	// An old link (the canonical JSON, compact) opens indented, as before.
	old, _ := scenario.ShareFragment([]byte(a))
	l, _ = scenario.ParseLink("#" + old)
	if got := EditorText(l.Scenario); got != indented {
		t.Errorf("an old canonical link opens on %.80q, want it indented %.80q", got, indented)
	}
}
