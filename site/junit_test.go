package site

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/junit"
	"github.com/mcplab/mcplab/site/internal/probe"
	"github.com/mcplab/mcplab/site/internal/probeclient"
)

// junitReport is the part of a JUnit report a CI reader counts.
type junitReport struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Cases []struct {
			Classname string    `xml:"classname,attr"`
			Name      string    `xml:"name,attr"`
			Failure   *struct{} `xml:"failure"`
			Skipped   *struct{} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestJUnitOfRunAndExplore: `run -checks -junit` writes a test case per
// rule of the run (a failing rule a failure), with as many failures as the
// stderr list has FAIL lines; `explore -junit` a case per rule of the
// window, the rule that fails somewhere a failure; each under the
// scenario's name.
func TestJUnitOfRunAndExplore(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, fail string
		args       []string
		code       int
	}{
		{"run of a broken built-in", "no-message-after-cancel", []string{"run", "-checks", "#example=broken-respond-after-cancel"}, 3},
		{"run of a correct built-in", "", []string{"run", "-checks", "#example=a-cancel-then-complete"}, 0},
		{"explore of a broken built-in", "no-message-after-cancel", []string{"explore", "-vary", "steps[2].at=0..600/50", "#example=broken-respond-after-cancel"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".xml")
			args := append(append([]string{tc.args[0], "-junit", file}, tc.args[1:len(tc.args)-1]...), tc.args[len(tc.args)-1])
			var o, e bytes.Buffer
			if err := run(args, &o, &e); code(err) != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code(err), err, tc.code, e.String())
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var r junitReport
			if err := xml.Unmarshal(b, &r); err != nil {
				t.Fatalf("not well-formed: %v", err)
			}
			cases, failed := 0, map[string]bool{}
			for _, s := range r.Suites {
				for _, c := range s.Cases {
					cases++
					if c.Failure != nil {
						failed[c.Name] = true
					}
					if c.Classname == "" {
						t.Errorf("case %s has no subject", c.Name)
					}
				}
			}
			if cases == 0 || cases != r.Tests || len(failed) != r.Failures {
				t.Errorf("%d cases, %d failed; the report counts %d tests, %d failures", cases, len(failed), r.Tests, r.Failures)
			}
			if tc.fail != "" && !failed[tc.fail] || tc.fail == "" && r.Failures != 0 {
				t.Errorf("failures %v, want %q", failed, tc.fail)
			}
			if tc.args[0] == "run" && strings.Count(e.String(), "FAIL  ") != r.Failures {
				t.Errorf("stderr has %d FAIL lines, the report %d failures", strings.Count(e.String(), "FAIL  "), r.Failures)
			}
		})
	}
}

// TestRunChecksPrintRuleURLs: every check line of `run -checks` gives the
// rule's page, as a linter does: the site path /rules/RULE/ alone, or
// under -base-url.
func TestRunChecksPrintRuleURLs(t *testing.T) {
	for _, tc := range []struct {
		base, want string
	}{
		{"", "\n      /rules/no-message-after-cancel/\n"},
		{"https://lab.example/", "\n      https://lab.example/rules/no-message-after-cancel/\n"},
		{"https://lab.example/mcplab", "\n      https://lab.example/mcplab/rules/no-message-after-cancel/\n"},
	} {
		args := []string{"run", "-checks"}
		if tc.base != "" {
			args = append(args, "-base-url", tc.base)
		}
		var o, e bytes.Buffer
		err := run(append(args, "#example=broken-respond-after-cancel"), &o, &e)
		if exitCode(err) != 3 || !strings.Contains(e.String(), tc.want) {
			t.Errorf("base %q: exit %d, stderr lacks %q:\n%s", tc.base, exitCode(err), tc.want, e.String())
		}
		for _, line := range strings.Split(e.String(), "\n") {
			if strings.HasPrefix(line, "pass  ") && !strings.Contains(line, "/rules/") {
				t.Errorf("base %q: a pass line without its rule page: %s", tc.base, line)
			}
		}
	}
}

// code is the exit status of err, 0 for nil.
func code(err error) int {
	if err == nil {
		return 0
	}
	return exitCode(err)
}

// TestJUnitOfProbe: a probe's report has a case per situation and rule; a
// situation that judged nothing is one case, skipped when the probe
// skipped it, failed when it could not run; the probe's own observation
// that fails a situation is a failure.
func TestJUnitOfProbe(t *testing.T) {
	yes, no := true, false
	results := []probe.Result{
		{Name: "clean", Verdict: "pass", Checks: []trace.Check{{Rule: "progress-increases", OK: &yes}}},
		{Name: "cancel-mid-work", Verdict: "FAIL", Checks: []trace.Check{{Rule: "no-message-after-cancel", OK: &no, Detail: "a result after the cancellation"}, {Rule: "abandon-tells-server", Detail: "no timeout"}}},
		{Name: "late-progress", Verdict: "FAIL", Facts: []string{"progress 40 ms after the result"}, Own: []string{"progress after the final"}},
		{Name: "cancel-after-progress", Verdict: "skipped", Facts: []string{"the tool reported no progress"}},
		{Name: "stream-drop", Verdict: "error", Broke: true, Facts: []string{"the server died"}},
	}
	b, err := junit.Marshal("mcplab probe", junitOfProbe("-- ./server", results))
	if err != nil {
		t.Fatal(err)
	}
	var r junitReport
	if err := xml.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Tests != 6 || r.Failures != 3 || r.Skipped != 2 {
		t.Errorf("tests %d, failures %d, skipped %d; want 6, 3 (a rule, an observation, a broken situation), 2 (an undecided rule, a skipped situation)\n%s", r.Tests, r.Failures, r.Skipped, b)
	}
}

// TestJUnitOfProbeClient: probe-client's report is a case per situation,
// transport and rule, a failing rule a failure and an undecided one
// skipped; a rule the mock stages on purpose is skipped as staged by the
// mock, never a failure, as the summary leaves it out; a situation that
// judged no rule is one case, skipped with its facts, or a failure when
// its run could not happen.
func TestJUnitOfProbeClient(t *testing.T) {
	yes, no := true, false
	results := []probeclient.Result{
		{Name: "slow-progress", Transport: "stdio", Protocol: "2025-11-25", Verdict: probeclient.Fail, Checks: []probeclient.Check{
			{Rule: "abandon-tells-server", OK: &no, Detail: "gave up in silence"},
			{Rule: "progress-resets-idle", OK: &yes},
		}},
		{Name: "late-response", Transport: "streamable-http", Protocol: "2026-07-28", Verdict: probeclient.Undecided, Facts: []string{"the server cannot see the client tolerate it"}},
		{Name: "listen-ended", Transport: "stdio", Protocol: "2025-11-25", Broke: true, Facts: []string{"the client did not start"}},
		{Name: "progress-after-final", Transport: "stdio", Protocol: "2025-11-25", Verdict: probeclient.Undecided, Checks: []probeclient.Check{
			{Rule: "no-progress-after-final", OK: &no, Detail: "progress after the final response", Staged: true},
		}},
	}
	b, err := junit.Marshal("mcplab probe-client", junitOfProbeClient("node client.mjs", results))
	if err != nil {
		t.Fatal(err)
	}
	var r junitReport
	if err := xml.Unmarshal(b, &r); err != nil {
		t.Fatalf("not well-formed: %v\n%s", err, b)
	}
	if r.Tests != 5 || r.Failures != 2 || r.Skipped != 2 {
		t.Errorf("tests %d, failures %d, skipped %d; want 5, 2 (abandon-tells-server and the run that could not happen), 2 (an undecided situation, the mock's staged rule)\n%s", r.Tests, r.Failures, r.Skipped, b)
	}
	if !strings.Contains(string(b), `<skipped message="staged by the mock: `) {
		t.Errorf("the mock's staged rule is not skipped as staged by the mock:\n%s", b)
	}
	if !strings.Contains(string(b), "slow-progress (stdio, 2025-11-25)") || !strings.Contains(string(b), "gave up in silence") {
		t.Errorf("the report does not name the situation with its transport and era, or lacks the rule's detail:\n%s", b)
	}
}
