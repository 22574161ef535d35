package templates

import (
	"strings"
	"testing"
)

// Rule (DOMAIN.md: under 2025-11-25 a dropped stream is not a
// cancellation): on the resumption lessons every stream the network
// dropped is drawn as a drop (its own kind, "stream drops", a legend entry
// saying it is not a cancellation), never as the client's cancel signal,
// in both layouts; the headline states the lesson's point; and a stream
// the client closes to cancel (lesson A on Streamable HTTP) is still drawn
// as the cancel signal.
func TestStreamDropsAreDrawnAsDrops(t *testing.T) {
	tests := []struct {
		rule, name    string
		edits         [][2]string
		drops, closes int
		headline      string
	}{
		{"two drops, resumed twice", "resume-keeps-position", nil, 2, 0, "2 stream drops, no cancellation: the client resumed and the call completed"},
		{"one drop, resumed", "dropped-call-resumed", nil, 1, 0, "1 stream drop, no cancellation: the client resumed and the call completed"},
		{"a listen stream resumed", "reconnect-2025-last-event-id", nil, 1, 0, "1 stream drop, no cancellation: the client resumed the stream from its last event"},
		{"the client's close is the cancel signal", "a-cancel-then-complete", [][2]string{{"transport", `"streamable-http"`}}, 0, 1, "cancellation wins: no response"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			tr := runEdited(t, tt.name, tt.edits...)
			for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
				drops, closes := 0, 0
				for _, a := range tl.Arrows {
					switch a.Kind {
					case kindStreamDrop:
						drops++
						if !strings.HasPrefix(a.Label, "stream drops") || a.Signal != "" {
							t.Errorf("%s: a drop is labelled %q with signal %q, want \"stream drops\" and no cancel signal", tl.IDPrefix, a.Label, a.Signal)
						}
					case kindClose:
						closes++
					}
				}
				if drops != tt.drops || closes != tt.closes {
					t.Errorf("%s: %d drops and %d client closes drawn, want %d and %d", tl.IDPrefix, drops, closes, tt.drops, tt.closes)
				}
				var legend []string
				for _, it := range tl.Legend {
					legend = append(legend, it.Text)
				}
				all := strings.Join(legend, "|")
				if tt.drops > 0 && (!strings.Contains(all, "stream dropped (not a cancel)") || strings.Contains(all, "cancel signal")) {
					t.Errorf("%s: legend %q, want the drop's entry and no cancel signal", tl.IDPrefix, legend)
				}
			}
			if got := NewView(tr).Verdict.Text; got != tt.headline {
				t.Errorf("headline %q, want %q", got, tt.headline)
			}
		})
	}
}

// Rule (DOMAIN.md: the maximum timeout is absolute; nothing resets it):
// the timeout lesson with "Progress resets the maximum timeout" ticked
// still draws the configured 2,000 ms maximum, in both layouts, at 2,000
// ms, and its title does not claim that no progress moves it (this client
// does move its own).
func TestBrokenMaxResetStillDrawsTheConfiguredMaximum(t *testing.T) {
	for _, edits := range [][][2]string{nil, {{"client.policy.progressResetsMax", "true"}}} {
		tr := runEdited(t, "c-progress-then-maximum", edits...)
		for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
			if len(tl.Deadlines) != 1 {
				t.Fatalf("%v %s: %d deadlines drawn, want request 1's", edits, tl.IDPrefix, len(tl.Deadlines))
			}
			d := tl.Deadlines[0]
			if d.MaxAt != 2000 || d.MaxLabel.Text != "max 2,000 ms" {
				t.Errorf("%v %s: maximum drawn at %d ms labelled %q, want 2000 ms and \"max 2,000 ms\"", edits, tl.IDPrefix, d.MaxAt, d.MaxLabel.Text)
			}
			if broken := edits != nil; broken == strings.Contains(d.MaxTitle, "No progress moves it") {
				t.Errorf("%v %s: the maximum's title %q", edits, tl.IDPrefix, d.MaxTitle)
			}
		}
	}
}
