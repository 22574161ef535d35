package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Rule (servedCSS): the served stylesheet holds the same rules as
// site/static/app.css and none of its comments: its tokens, spaces
// aside, are the source's with each comment taken out, and it is smaller
// by at least the comments' bytes. A "/*" inside a string is kept, a
// comment's text never is.
func TestServedCSSKeepsTheRulesNotTheComments(t *testing.T) {
	src, err := os.ReadFile("static/app.css")
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
