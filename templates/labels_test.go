package templates

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestNarrowToolCallKeepsWords: on a phone (the narrow frame, 380 units)
// scenario A's tools/call arrow sits between the network lane's name and
// the progress arrow, too tight for "tools/call crunch"; its label says
// the tool's name ("crunch", the arrow's Short) rather than collapsing to
// the key number "1" with its words under the legend (at
// 390 px). The title keeps the whole label.
func TestNarrowToolCallKeepsWords(t *testing.T) {
	tl := newNarrowTimeline(runEdited(t, "a-cancel-then-complete"))
	if len(tl.Keys) != 0 {
		t.Errorf("scenario A's narrow timeline keys %d labels (%+v), want words on every arrow", len(tl.Keys), tl.Keys)
	}
	found := false
	for _, a := range tl.Arrows {
		if a.Kind == kindRequest && a.Method == "tools/call" {
			found = true
			if a.Label != "crunch" {
				t.Errorf("the tools/call arrow is labelled %q, want its tool's name \"crunch\"", a.Label)
			}
		}
	}
	if !found {
		t.Fatal("no tools/call arrow in scenario A's narrow timeline")
	}
}

// TestMarkupIDShownAsWritten: a string id holding <, > and & ("r<&>") is
// shown on the page as written, HTML-escaped once by the template, never
// as JSON's \u003c escapes: in the outcome cards and tables (the trace's
// requests, scenario.NewStringID, which used json.Marshal) and on the
// timeline's arrows (data-id, read from the wire message).
func TestMarkupIDShownAsWritten(t *testing.T) {
	tr := runEdited(t, "a-cancel-then-complete", [2]string{"steps[0].progressToken", `"p<&>"`}, [2]string{"steps[0].id", `"r<&>"`},
		[2]string{"steps[1].id", `"r<&>"`}, [2]string{"steps[2].id", `"r<&>"`}, [2]string{"steps[3].id", `"r<&>"`})
	html := renderString(t, Output(tr))
	if !strings.Contains(html, `Request r&lt;&amp;&gt; ended`) {
		t.Errorf("the output never names the request as written (Request r<&> ended, its card's words)")
	}
	// Only the exact wire messages (tooltips, the events table) may hold
	// the escapes the engine's encoder put on the wire; no id does.
	for _, bad := range []string{`data-id="&#34;r\u003c`, `Request &#34;r\u003c`, `(&#34;r\u003c`} {
		if strings.Contains(html, bad) {
			t.Errorf("the output shows an id with JSON's HTML escapes: %s", bad)
		}
	}
}

// TestTooltipJSONShowsMarkup: a wire message holding <, > and & (the
// cancellation's reason "<closed> & gone") shows them as those characters
// in the timeline's tooltips, HTML-escaped once by the template, never as
// the \u003c, \u003e and \u0026 encoding/json wrote on the wire;
// the text \u003c inside a string (an escaped backslash on
// the wire) stays as written; the events table keeps the wire's exact
// bytes.
func TestTooltipJSONShowsMarkup(t *testing.T) {
	tr := runEdited(t, "a-cancel-then-complete", [2]string{"steps[2].reason", `"<closed> & gone \\u003c"`})
	var wire string
	for _, e := range tr.Events {
		if e.Type == trace.TypeSend && strings.Contains(string(e.Message), "notifications/cancelled") {
			wire = string(e.Message)
		}
	}
	if !strings.Contains(wire, `\u003cclosed\u003e \u0026 gone \\u003c`) {
		t.Fatalf("the cancellation on the wire is %s, want encoding/json's escapes (the premise)", wire)
	}
	html := renderString(t, Output(tr))
	titles := regexp.MustCompile(`(?s)<title>(.*?)</title>`).FindAllStringSubmatch(html, -1)
	shown := 0
	for _, m := range titles {
		if strings.Contains(m[1], "notifications/cancelled") && strings.Contains(m[1], "gone") {
			shown++
			if want := `&#34;reason&#34;:&#34;&lt;closed&gt; &amp; gone \\u003c&#34;`; !strings.Contains(m[1], want) {
				t.Errorf("a tooltip shows the reason as\n%s\nwant %s", m[1], want)
			}
		}
	}
	if shown == 0 {
		t.Fatal("no tooltip shows the cancellation's message")
	}
	if !strings.Contains(html, `\u003cclosed\u003e \u0026 gone`) {
		t.Errorf("the events table no longer shows the wire's exact bytes")
	}
	for _, c := range []struct{ in, want string }{
		{`{"a":"\u003c\u003E\u0026"}`, `{"a":"<>&"}`},
		{`{"a":"\\u003c"}`, `{"a":"\\u003c"}`},
		{`{"a":"\\\u003c"}`, `{"a":"\\<"}`},
		{`{"a":"\u00e9\n"}`, `{"a":"\u00e9\n"}`},
		{`"\u003`, `"\u003`},
		{`\`, `\`},
	} {
		if got := shownJSON([]byte(c.in)); got != c.want {
			t.Errorf("shownJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestSkipDrawnAsSkipped: a scripted step that could not happen (a skip
// event, SCENARIO.md honest time) has no message, so the timeline draws
// it as a mark of its own, labelled "skipped", with the event's note (why
// it could not happen) in its title and a legend entry for its glyph.
func TestSkipDrawnAsSkipped(t *testing.T) {
	tr := runEdited(t, "broken-async-initialized")
	if len(tr.Skipped) == 0 {
		t.Fatal("broken-async-initialized skips no step")
	}
	tl := NewView(tr).Timeline
	found := false
	for _, m := range tl.Marks {
		if m.Type != string(trace.TypeSkip) {
			continue
		}
		found = true
		if m.Glyph != glyphSkip || !strings.HasPrefix(m.Label, "skipped") || !strings.Contains(m.Title, tr.Skipped[0].Reason) {
			t.Errorf("skip mark: glyph %q, label %q, title %q; want %q, \"skipped\", the reason %q", m.Glyph, m.Label, m.Title, glyphSkip, tr.Skipped[0].Reason)
		}
	}
	if !found {
		t.Error("the timeline draws no mark for the skip event")
	}
	if !slices.ContainsFunc(tl.Legend, func(it legendItem) bool { return it.Glyph == glyphSkip }) {
		t.Error("the legend does not explain the skip glyph")
	}
}
