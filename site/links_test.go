package site

// Tests of share links that need no browser: old links replay the
// same trace (golden), link lengths, and hostile links through `site run`.
// The playground's own tests, in the browser, are in playground_test.go.

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/scenario"
)

var updateLinks = flag.Bool("update-links", false, "rewrite testdata/links/*.trace.json from the current engine")

// Rule (SCENARIO.md, Sharing): a share link keeps replaying the same trace
// after the engine grows. testdata/links holds links made by earlier
// versions (NAME.link) and the trace each gave (NAME.trace.json); `site run
// LINK` must print that trace byte for byte. Re-sharing the scenario a link
// carries gives the same link back (canonical JSON: the same scenario
// always gives the same URL).
func TestShareLinksReplay(t *testing.T) {
	links, err := filepath.Glob(filepath.Join("testdata", "links", "*.link"))
	if err != nil || len(links) == 0 {
		t.Fatalf("no testdata/links/*.link (%v)", err)
	}
	for _, file := range links {
		name := strings.TrimSuffix(filepath.Base(file), ".link")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			link := strings.TrimSpace(string(b))
			var out, errOut bytes.Buffer
			if err := run([]string{"run", link}, &out, &errOut); err != nil {
				t.Fatalf("site run %s: %v\n%s", name, err, errOut.String())
			}
			golden := strings.TrimSuffix(file, ".link") + ".trace.json"
			if *updateLinks {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("the link no longer replays its trace (%d vs %d bytes, first difference at byte %d); an old link must keep its meaning", out.Len(), len(want), firstDiff(out.String(), string(want)))
			}
			l, err := scenario.ParseLink(link)
			if err != nil {
				t.Fatal(err)
			}
			if l.Scenario != nil {
				frag, err := scenario.ShareFragment(l.Scenario)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasSuffix(link, "#"+frag) {
					t.Errorf("re-sharing the link's scenario gives another link:\n got #%s\nwant %s", frag, link)
				}
			}
		})
	}
}

// Rule: a lesson-sized scenario's share link fits a 2,000
// character chat message. `site links` (make bench) prints the table.
func TestShareLinkLengths(t *testing.T) {
	ls, err := linkLengths()
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != len(examples.All()) {
		t.Fatalf("%d link lengths for %d built-in scenarios", len(ls), len(examples.All()))
	}
	for _, l := range ls {
		if l.Lesson && l.Length > chatLimit {
			t.Errorf("%s (%d steps): link of %d characters, over %d", l.Name, l.Steps, l.Length, chatLimit)
		}
	}
}

// deflateLink is "#s=" + base64url of the raw DEFLATE of data, the way a
// share link is made, without canonicalizing (hostile links need not be
// canonical).
func deflateLink(data []byte) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(data)
	w.Close()
	return "#s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// hostileLinks are broken or malicious share links and what the error
// must say about each.
var hostileLinks = []struct {
	name, link, want string
}{
	{"not base64", "https://lab.example/playground/#s=%%%not*base64", "not base64url"},
	{"not DEFLATE", "#s=" + base64.RawURLEncoding.EncodeToString([]byte("plain text, not deflate")), "not raw DEFLATE"},
	{"not JSON", deflateLink([]byte("this is not json")), "invalid JSON"},
	{"too large", deflateLink(bytes.Repeat([]byte(" "), scenario.MaxBytes+10)), "inflates past"},
	{"unknown version", deflateLink([]byte(`{"mcplab": 99, "steps": []}`)), `the "mcplab" member: this lab reads version 1, not 99`},
	{"not a scenario", deflateLink([]byte(`{"steps": []}`)), `not a scenario: a scenario starts with "mcplab": 1`},
	{"semantically invalid", deflateLink([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"name":"x"},{"at":-5,"do":"cancel","id":1}]}`)), "steps[1].at: must be >= 0"},
	{"unknown example", "#example=no-such-scenario", "no built-in scenario"},
	{"no fragment", "https://lab.example/playground/#event-3", "expected a fragment"},
}

// Rule (Hostile input): `site run` on a broken link says clearly
// what is wrong and exits 2; it never panics or prints a partial trace.
func TestRunHostileLinks(t *testing.T) {
	for _, tc := range hostileLinks {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run([]string{"run", tc.link}, &out, &errOut)
			if err == nil {
				t.Fatalf("site run accepted %s", tc.name)
			}
			var ue *usageError
			if !errors.As(err, &ue) || exitCode(err) != 2 {
				t.Errorf("error %v is not a usage error (exit %d)", err, exitCode(err))
			}
			if !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("stderr %q does not say %q", errOut.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("partial output with the error: %.80q", out.String())
			}
		})
	}
}
