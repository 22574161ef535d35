package build

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/site/static"
)

// Rule (servedCSS): the served stylesheet holds the same rules as
// site/static/app.css and none of its comments: its tokens, spaces
// aside, are the source's with each comment taken out, and it is smaller
// by at least the comments' bytes. A "/*" inside a string is kept, a
// comment's text never is.
func TestServedCSSKeepsTheRulesNotTheComments(t *testing.T) {
	src, err := static.FS.ReadFile("app.css")
	if err != nil {
		t.Fatal(err)
	}
	comments := regexp.MustCompile(`(?s)/\*.*?\*/`)
	squash := func(b []byte) string { return strings.Join(strings.Fields(string(b)), "") }
	got := servedCSS(src)
	if want := squash(comments.ReplaceAll(src, nil)); squash(got) != want {
		t.Errorf("the served app.css differs from the source without comments in more than spaces")
	}
	if strings.Contains(string(got), "/*") {
		t.Errorf("the served app.css still holds a comment")
	}
	if n := len(src) - len(got); n < len(strings.Join(comments.FindAllString(string(src), -1), "")) {
		t.Errorf("the served app.css is %d bytes smaller than the source, less than its comments", n)
	}
	for in, want := range map[string]string{
		"a { content: \"/* kept */\"; } /* gone */\n": "a { content: \"/* kept */\"; } \n",
		"  b {\n    color: red; /* x */\n\n  }\n":     "b {\ncolor: red; \n}\n",
		"c { content: 'it\\'s /*' }":                  "c { content: 'it\\'s /*' }",
		"d {} /* open to the end":                     "d {} ",
	} {
		if got := string(servedCSS([]byte(in))); got != want {
			t.Errorf("servedCSS(%q) = %q, want %q", in, got, want)
		}
	}
}

// Rule (servedJS): a hand-written script is served without its comment
// lines and nothing else: every other line of site/static/app.js and
// worker.js is served in order, byte for byte, and no served line is a
// comment; a script holding a template literal is served whole; the
// npm-built bundles are served as built.
func TestServedJSDropsOnlyCommentLines(t *testing.T) {
	for _, name := range []string{"app.js", "worker.js", "share.js", "boot.js"} {
		src, err := static.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var code []string
		for _, l := range strings.SplitAfter(string(src), "\n") {
			if !strings.HasPrefix(strings.TrimLeft(l, " \t"), "//") {
				code = append(code, l)
			}
		}
		got := string(servedJS(src))
		if got != strings.Join(code, "") {
			t.Errorf("%s: the served script is not the source's lines that are not comments", name)
		}
		if len(code) == len(strings.SplitAfter(string(src), "\n")) && name == "app.js" {
			t.Errorf("app.js has no comment line to drop")
		}
	}
	withTemplate := []byte("const s = `\n// text, not a comment\n`;\n// a comment\n")
	if got := servedJS(withTemplate); string(got) != string(withTemplate) {
		t.Errorf("a script with a template literal was changed: %q", got)
	}
	if !generatedScripts["editor.js"] || !generatedScripts["sqlite.js"] {
		t.Errorf("the npm bundles are not served as built")
	}
}
