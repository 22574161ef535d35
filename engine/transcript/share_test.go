package transcript

import (
	"bytes"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/scenario"
)

// TestShareFragment: the share link of an imported trace opens the
// scenario ToScenario gives, redacted (Redact) when asked, so what the
// import page links to is the reproduction, with the tool's text kept out
// of the link unless the user unticks redaction.
func TestShareFragment(t *testing.T) {
	_, serverLog := exchange(t, true, 200*time.Millisecond)
	tr, err := Import(serverLog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ToScenario(tr)
	if err != nil {
		t.Fatal(err)
	}
	redacted, err := Redact(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		redact bool
		want   []byte
	}{{false, doc}, {true, redacted}} {
		frag, err := ShareFragment(tr, c.redact)
		if err != nil {
			t.Fatalf("redact %v: %v", c.redact, err)
		}
		l, err := scenario.ParseLink("#" + frag)
		if err != nil {
			t.Fatalf("redact %v: the fragment does not parse: %v", c.redact, err)
		}
		want, _ := scenario.Canonical(c.want)
		got, _ := scenario.Canonical(l.Scenario)
		if !bytes.Equal(got, want) {
			t.Errorf("redact %v: the link opens\n%s\nwant\n%s", c.redact, l.Scenario, c.want)
		}
	}
}
