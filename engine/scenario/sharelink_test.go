package scenario

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Rule (ParseLink; README, share links): a link's fragment parameters
// after the scenario's ("&op=ID", the review page's) do not damage it, and
// anything added to the compressed scenario itself does: such a link is
// refused (ErrShare, saying the data is damaged), never run as if whole.
func TestParseLinkParametersAndTrailingData(t *testing.T) {
	doc := []byte(`{"mcplab":1,"title":"t","steps":[{"at":0,"do":"call","id":1}]}`)
	frag, err := ShareFragment(doc)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := Canonical(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"https://lab.example/review/#" + frag + "&op=1", "#" + frag + "&op=7&x=y"} {
		l, err := ParseLink(link)
		if err != nil || !bytes.Equal(l.Scenario, canon) {
			t.Errorf("ParseLink(%q) = %q, %v; want the scenario", link, l.Scenario, err)
		}
	}
	// "AAAA" decodes to three zero bytes after the stream's end (the
	// fragment's own length is a multiple of 4 or not; both are tried).
	for _, extra := range []string{"AAAA", "garbageA"} {
		link := "#" + frag + extra
		_, err := ParseLink(link)
		if !errors.Is(err, ErrShare) || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("ParseLink(link + %q) = %v, want ErrShare saying the data is damaged", extra, err)
		}
	}
}
