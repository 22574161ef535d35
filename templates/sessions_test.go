package templates

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/transcript"
)

// TestSessionBands proves on the timeline: a transcript
// with two sessions (mcp-remote's second initialize id 0) draws each as a
// labelled band over the time its events span, in order, without
// overlapping; a transcript of one session draws none.
func TestSessionBands(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "engine", "transcript", "testdata", "claude-desktop-mcp-remote.log"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transcript.Import(data, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl := newTimeline(tr)
	if len(tl.Sessions) != 2 {
		t.Fatalf("%d session bands, want 2: %+v", len(tl.Sessions), tl.Sessions)
	}
	a, b := tl.Sessions[0], tl.Sessions[1]
	if a.Label != "session 1" || b.Label != "session 2" {
		t.Errorf("labels %q, %q; want session 1, session 2", a.Label, b.Label)
	}
	if a.To >= b.From || a.LabelY != b.LabelY {
		t.Errorf("sessions in turn should span apart times with labels on one row: %+v then %+v", a, b)
	}
	if !strings.Contains(tl.Summary, "2 sessions") {
		t.Errorf("summary %q does not name the sessions", tl.Summary)
	}
	var buf bytes.Buffer
	if err := timelineSVG(tl).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-session="session 1"`, `data-session="session 2"`, `class="session-label"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the SVG lacks %s", want)
		}
	}
	one, err := os.ReadFile(filepath.Join("..", "engine", "transcript", "testdata", "claude-desktop-race.log"))
	if err != nil {
		t.Fatal(err)
	}
	tr1, err := transcript.Import(one, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := newTimeline(tr1).Sessions; len(s) != 0 {
		t.Errorf("one session drew bands: %+v", s)
	}
}
