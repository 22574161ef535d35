package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// TestShareRoundTrip proves SCENARIO.md's sharing rules: the link inflates
// back to the canonical JSON, and the same scenario written two ways (key
// order, white space) gives the same link.
func TestShareRoundTrip(t *testing.T) {
	a := `{"mcplab":1,"steps":[{"at":0,"do":"call","id":7}],"title":"x <b>"}`
	b := "{ \"title\": \"x <b>\",\n  \"steps\": [ {\"id\": 7, \"do\": \"call\", \"at\": 0} ], \"mcplab\": 1 }"
	fa, err := ShareFragment([]byte(a))
	if err != nil {
		t.Fatal(err)
	}
	fb, _ := ShareFragment([]byte(b))
	if fa != fb {
		t.Fatalf("equal scenarios, different links:\n%s\n%s", fa, fb)
	}
	if strings.ContainsAny(strings.TrimPrefix(fa, "s="), "+/=") {
		t.Fatalf("link %q is not unpadded base64url", fa)
	}
	l, err := ParseLink("https://lab.example/s/a/#" + fa)
	if err != nil {
		t.Fatal(err)
	}
	if string(l.Scenario) != a {
		t.Fatalf("inflated %s, want the canonical %s", l.Scenario, a)
	}
	if l, err := ParseLink("#example=a-cancel-then-complete"); err != nil || l.Example != "a-cancel-then-complete" {
		t.Fatalf("example link: %+v %v", l, err)
	}
}

// TestShareTextKeepsTheText: ShareText links text that is not JSON (the
// playground's editor mid-edit) as typed, and ParseLink gives it back byte
// for byte; ShareFragment refuses that text (it has no canonical form).
func TestShareTextKeepsTheText(t *testing.T) {
	text := "{\n  \"mcplab\": 1,\n  \"steps\": [\n" // cut short
	if _, err := ShareFragment([]byte(text)); !errors.Is(err, ErrSyntax) {
		t.Fatalf("ShareFragment of text that is not JSON: %v, want ErrSyntax", err)
	}
	l, err := ParseLink("#" + ShareText([]byte(text)))
	if err != nil {
		t.Fatal(err)
	}
	if string(l.Scenario) != text {
		t.Fatalf("the link gives back %q, want the text as typed %q", l.Scenario, text)
	}
}

// TestShareReusedWriterSameLink: ShareFragment reuses its DEFLATE
// writers, and a reused writer gives the bytes a new one gives, whatever
// it compressed before.
func TestShareReusedWriterSameLink(t *testing.T) {
	docs := []string{
		`{"mcplab":1,"steps":[{"at":0,"do":"call","id":7}],"title":"x <b>"}`,
		`{"mcplab":1,"title":"` + strings.Repeat("long title ", 400) + `"}`,
		`{"mcplab":1}`,
	}
	for round := 0; round < 3; round++ {
		for _, d := range docs {
			got, err := ShareFragment([]byte(d))
			if err != nil {
				t.Fatal(err)
			}
			c, _ := Canonical([]byte(d))
			var buf bytes.Buffer
			w, _ := flate.NewWriter(&buf, flate.BestCompression)
			w.Write(c)
			w.Close()
			if want := "s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes()); got != want {
				t.Fatalf("round %d: %.40s… gives %s, a new writer %s", round, d, got, want)
			}
		}
	}
}

// TestShareHostile proves hostile links fail with ErrShare, never a panic
// or an unbounded allocation.
func TestShareHostile(t *testing.T) {
	bomb := func() string {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(bytes.Repeat([]byte(" "), MaxBytes+10))
		w.Close()
		return "#s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
	}()
	for _, link := range []string{"", "https://x/", "#s=***", "#s=aGVsbG8", "#example=", "#q=1", bomb, "#s=" + strings.Repeat("A", ShareLimit*2)} {
		if _, err := ParseLink(link); !errors.Is(err, ErrShare) {
			t.Errorf("ParseLink(%.40q) err = %v, want ErrShare", link, err)
		}
	}
}

// FuzzParseLink: any string parses or fails with ErrShare; never a panic,
// and the same input gives the same result.
func FuzzParseLink(f *testing.F) {
	fr, _ := ShareFragment([]byte(`{"mcplab":1,"steps":[]}`))
	for _, s := range []string{"#" + fr, "#example=x", "#s=", "s=AAAA", "#s=%%%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, link string) {
		a, errA := ParseLink(link)
		b, errB := ParseLink(link)
		if (errA == nil) != (errB == nil) || string(a.Scenario) != string(b.Scenario) || a.Example != b.Example {
			t.Fatal("not deterministic")
		}
		if errA != nil && !errors.Is(errA, ErrShare) {
			t.Fatalf("error %v is not ErrShare", errA)
		}
	})
}
