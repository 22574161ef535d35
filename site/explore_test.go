package site

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Rule (SCENARIO.md, Explore: `mcplab explore` prints Markdown or JSON and
// exits 3 when a counterexample exists): the race lesson's own window
// shows cancellation winning on its band and no violation (exit 0); a
// broken server's window gives the smallest counterexample with its link
// (exit 3), in JSON with -json; -vary replaces the window; bad input and
// bad flags are located usage errors (exit 2).
func TestExploreCommand(t *testing.T) {
	for _, tc := range []struct {
		rule   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		// Hand-computed: the cancel sent at c with up latency u reaches
		// the server at c+u, before the completion at 320 when c+u < 320:
		// sum over u = 0..60 of (320-u) - 250 = 2,440 points; the response
		// reaches the client at 330, before the cancel leaves when c > 330:
		// 70 x 61 = 4,270 points; between them 2,501.
		{"the race lesson's window: cancellation wins exactly where cancel + latency up < 320 ms, no violation",
			[]string{"explore", "#example=a-cancel-then-complete"}, 0,
			[]string{"9,211 grid points", "Exhaustive",
				"| A | 7 cancelled at the server, as the client asked (client), client abandoned, no response; fails: none | 2,440 |",
				"| B | 7 completed at the server after the client cancelled (client), client abandoned, response sent; fails: none | 2,501 |",
				"| C | 7 completed, client result, response sent; fails: none | 4,270 |",
				"## Map", "No violation anywhere in this window, at this resolution",
				"\nNot in these rules: `message-valid` is judged by `mcplab run -checks`, one run at a time.\n"}, ""},
		{"-json: the rule list leaves message-valid out, and stderr says so in one line",
			[]string{"explore", "-json", "-vary", "steps[2].at=0..600/100", "#example=a-cancel-then-complete"}, 0,
			[]string{`"rules": [`}, "Not in these rules: message-valid is judged by mcplab run -checks, one run at a time.\n"},
		{"-vary replaces the window: the cancel alone, every millisecond",
			[]string{"explore", "-vary", "steps[2].at=0..600", "#example=a-cancel-then-complete"}, 0,
			[]string{"601 grid points, 601 runs", "**A** holds `steps[2].at` 0..309."}, ""},
		{"a server that answers after the cancel: the smallest counterexample and its link, exit 3",
			[]string{"explore", "-vary", "steps[2].at=0..600/5", "-link-base", "https://lab.example/playground/", "#example=broken-respond-after-cancel"}, 3,
			[]string{"- **no-message-after-cancel** fails at", "the smallest: `steps[2].at` = 0: [open the run](https://lab.example/playground/#s=", "Not in these rules: `message-valid`"}, "error: 1 rule(s) fail in the window: no-message-after-cancel"},
		{"a bad -vary names what it wants",
			[]string{"explore", "-vary", "steps[2].at=0-600", "#example=a-cancel-then-complete"}, 2,
			nil, "want PATH=FROM..TO or PATH=FROM..TO/BY"},
		{"a member the scenario cannot take is located at its flag",
			[]string{"explore", "-vary", "steps[9].at=0..10", "#example=a-cancel-then-complete"}, 2,
			nil, "error: -vary steps[9].at: steps[9]: index out of range"},
		{"nothing to vary says how to ask",
			[]string{"explore", "#example=b-complete-then-cancel"}, 2,
			nil, `nothing to vary: add "explore": {"vary": [{"path": "steps[2].at", "from": 0, "to": 600}]} to the scenario, or give -vary PATH=FROM..TO`},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if code := exitCode(err); err == nil && tc.code != 0 || err != nil && code != tc.code {
			t.Errorf("%s: exit %d (%v), want %d\n%s", tc.rule, code, err, tc.code, errOut.String())
		}
		for _, want := range tc.stdout {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the output does not say %q:\n%s", tc.rule, want, out.String())
			}
		}
		if !strings.Contains(errOut.String(), tc.stderr) {
			t.Errorf("%s: stderr %q, want %q", tc.rule, errOut.String(), tc.stderr)
		}
	}

	var out, errOut bytes.Buffer
	err := run([]string{"explore", "-json", "-vary", "steps[2].at=0..600/5", "#example=broken-respond-after-cancel"}, &out, &errOut)
	var rep struct {
		Runs            int  `json:"runs"`
		Exhaustive      bool `json:"exhaustive"`
		Classes         []struct{ Key string }
		Counterexamples []struct {
			Rule   string
			Values map[string]int64
			Link   string
		}
	}
	if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil || exitCode(err) != 3 {
		t.Fatalf("explore -json: exit %d, %v: %s", exitCode(err), jerr, out.String())
	}
	if len(rep.Counterexamples) != 1 || rep.Counterexamples[0].Values["steps[2].at"] != 0 || !strings.HasPrefix(rep.Counterexamples[0].Link, "#s=") || !rep.Exhaustive {
		t.Errorf("explore -json: %+v; want one counterexample at steps[2].at 0 with its #s= link, exhaustive", rep)
	}
}
