package templates

import (
	"encoding/json"
	"fmt"
	"html"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// TestTryItClaims: every built-in scenario's Try-it is true.
// The page shows on load the outcome the Try-it starts from (the
// engine's run of the unedited scenario), the control it names is on the
// page under the label it quotes, and making the edit it names, as the
// page's control makes it (EditScenario with the control's data-kind),
// produces the announced flip. The race pages (A, B, the race in flight)
// get the direction their own run shows: B and the race open on
// "completion wins", so their Try-it moves the cancel before the
// completion.
func TestTryItClaims(t *testing.T) {
	claims := 0
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		ti, ok := tryItFor(ex.Name, tr)
		if !ok {
			continue
		}
		claims++
		if got := observe(tr, ti.Observe); got != ti.From {
			t.Errorf("%s: the Try-it starts from %s %q, the page shows %q", ex.Name, ti.Observe, ti.From, got)
		}
		groups := NewControls(tr.Scenario, tr.EndMs)
		c, ok := findControl(groups, ti.Path)
		if !ok {
			t.Errorf("%s: the Try-it names %s, which has no control on the page", ex.Name, ti.Path)
			continue
		}
		text := ti.text(groups)
		if !strings.Contains(text, "“"+c.Label+"”") {
			t.Errorf("%s: the Try-it %q does not quote the control's label %q", ex.Name, text, c.Label)
		}
		value, checked := ti.Value, ti.Value == "true"
		if c.ValueKind == scenario.ValueString {
			_ = json.Unmarshal([]byte(ti.Value), &value)
		}
		data, err := scenario.Edit(ex.JSON, c.Path, c.ValueKind, value, checked)
		if err != nil {
			t.Errorf("%s: %v", ex.Name, err)
			continue
		}
		after := examplestest.RunExample(t, examples.Example{Name: ex.Name, JSON: data})
		if got := observe(after, ti.Observe); got != ti.To {
			t.Errorf("%s: after %q, %s is %q, want %q", ex.Name, text, ti.Observe, got, ti.To)
		}
	}
	if claims < 25 {
		t.Errorf("%d built-in scenarios have a Try-it claim, want at least 25", claims)
	}
}

// TestTryItInLabels: no page's Try-it names a JSON member (progressResetsMax,
// client.policy.…): it quotes the controls' labels.
func TestTryItInLabels(t *testing.T) {
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		html := renderString(t, ScenarioPage(Page{Root: "../../", Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Scenario: ex.JSON, Trace: tr}))
		_, after, _ := strings.Cut(html, `<p class="try">`)
		hint, _, _ := strings.Cut(after, "</p>")
		for _, bad := range []string{"progressResetsMax", "client.policy", "server.policy", "sseHeaders", "acceptNonIncreasingProgress", "treatTaskAckAsFinal", "steps["} {
			if strings.Contains(hint, bad) {
				t.Errorf("%s: the Try-it names %q: %s", ex.Name, bad, hint)
			}
		}
		if strings.Contains(html, `class="help">steps[`) {
			t.Errorf("%s: a control's help is a JSON path", ex.Name)
		}
	}
}

// TestRaceTryFollowedInOrder: a race page's Try-it can be followed as
// written. Its second step (switch “Transport” to Streamable HTTP and see
// the cancellation travel as a closed stream) needs a cancellation, so on a
// page that opens on "cancellation wins" it first sends the cancel back to
// the scenario's own time, which the text quotes; done in order, the run
// cancels by closing the stream.
func TestRaceTryFollowedInOrder(t *testing.T) {
	checked := 0
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		if _, ok := tryItNamed(ex.Name); ok {
			continue
		}
		ti, ok := raceTry(tr)
		if !ok || ti.Also == "" {
			continue
		}
		groups := NewControls(tr.Scenario, tr.EndMs)
		c, _ := findControl(groups, ti.Path)
		data, err := scenario.Edit(ex.JSON, c.Path, c.ValueKind, ti.Value, false)
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		if ti.From == "cancellation-wins" {
			var i int
			if _, err := fmt.Sscanf(ti.Path, "steps[%d].at", &i); err != nil {
				t.Fatalf("%s: %v", ex.Name, err)
			}
			back := strconv.FormatInt(tr.Scenario.Steps[i].At, 10)
			if !strings.Contains(ti.Also, "drag it back to "+back+" ms") {
				t.Errorf("%s: the second step %q does not send the cancel back to %s ms", ex.Name, ti.Also, back)
			}
			if data, err = scenario.Edit(data, c.Path, c.ValueKind, back, false); err != nil {
				t.Fatalf("%s: %v", ex.Name, err)
			}
		}
		tc, _ := findControl(groups, "transport")
		if data, err = scenario.Edit(data, tc.Path, tc.ValueKind, scenario.TransportHTTP, false); err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		after := examplestest.RunExample(t, examples.Example{Name: ex.Name, JSON: data})
		if got := observe(after, "signal"); got != trace.SignalCloseStream {
			t.Errorf("%s: following %q in order, the signal is %q, want %q", ex.Name, ti.text(groups), got, trace.SignalCloseStream)
		}
		checked++
	}
	if checked < 2 {
		t.Errorf("%d race pages checked, want at least 2 (A and B)", checked)
	}
}

// TestTryItNamesOnlyItsPagesControls: every name a page's Try-it quotes
// (“Idle timeout”, “Late progress is a protocol error”, “JSON-RPC id
// (broken)”) is a control on that page, or one of its choices, or an
// outcome the page shows: general advice never sends the reader to a
// control the page does not have (“Progress resets the maximum
// timeout” on a buffer page with no timeouts).
func TestTryItNamesOnlyItsPagesControls(t *testing.T) {
	outcomes := map[string]bool{"cancellation wins": true, "completion wins": true}
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		page := renderString(t, ScenarioPage(Page{Root: "../../", Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Scenario: ex.JSON, Trace: tr}))
		_, after, _ := strings.Cut(page, `<p class="try">`)
		hint, _, _ := strings.Cut(after, "</p>")
		hint = html.UnescapeString(hint)
		names := map[string]bool{}
		for _, g := range NewControls(tr.Scenario, tr.EndMs) {
			for _, c := range g.Controls {
				names[c.Label] = true
				for _, o := range c.Options {
					names[o.Label] = true
				}
			}
		}
		for rest := hint; ; {
			_, q, ok := strings.Cut(rest, "“")
			if !ok {
				break
			}
			name, tail, _ := strings.Cut(q, "”")
			if !names[name] && !outcomes[name] {
				t.Errorf("%s: the Try-it names “%s”, which is no control on the page: %s", ex.Name, name, hint)
			}
			rest = tail
		}
	}
}
