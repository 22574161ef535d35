package site

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// Rule: a flag value out of its range is a usage error (exit 2) naming
// the flag and the form it wants, as `build -base-url` and `review
// -link-base` do, never accepted to print dead rule links or to run with
// a bound the flag refuses elsewhere; -vary's parts are named as the
// flag's syntax names them (PATH=FROM..TO/BY).
func TestFlagValuesOutOfRangeAreRefused(t *testing.T) {
	for _, tc := range []struct {
		rule string
		args []string
		want string
	}{
		{"run -base-url: not absolute", []string{"run", "-checks", "-base-url", "lab.example", "#example=a-cancel-then-complete"}, `-base-url "lab.example": want an absolute http or https URL`},
		{"run -base-url: a query and a fragment", []string{"run", "-checks", "-base-url", "not a url?x#y", "#example=a-cancel-then-complete"}, `-base-url "not a url?x#y": want an absolute http or https URL`},
		{"explore -max-runs: 0 as 1000001", []string{"explore", "-max-runs", "0", "#example=a-cancel-then-complete"}, "-max-runs 0: want 1..1000000"},
		{"explore -max-runs: past the bound", []string{"explore", "-max-runs", "1000001", "#example=a-cancel-then-complete"}, "-max-runs 1000001: want 1..1000000"},
		{"explore -vary: BY out of range", []string{"explore", "-vary", "steps[2].at=0..10/0", "#example=a-cancel-then-complete"}, "BY must be in 1..86400000"},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if code := exitCode(err); code != 2 || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: exit %d, error %v; want 2 and %q", tc.rule, code, err, tc.want)
		}
		if strings.Contains(errOut.String(), "lab.example/rules/") {
			t.Errorf("%s: printed a rule link under the refused base:\n%s", tc.rule, errOut.String())
		}
	}
	// A valid base is taken as build takes it (with or without its slash).
	var out, errOut bytes.Buffer
	if err := run([]string{"run", "-checks", "-base-url", "https://lab.example/mcplab", "#example=a-cancel-then-complete"}, &out, &errOut); err != nil || !strings.Contains(errOut.String(), "https://lab.example/mcplab/rules/") {
		t.Errorf("run -base-url https://lab.example/mcplab: %v\n%s", err, errOut.String())
	}
}

// Rule: `mcplab help` lists, on each command's lines, every flag the
// command takes (what `mcplab COMMAND -h` prints), so a reader of the
// summary does not miss -junit, -protocol or -situation.
func TestHelpListsEveryFlag(t *testing.T) {
	flagName := regexp.MustCompile(`(?m)^  (-[a-z][a-z-]*)`)
	for _, verb := range verbs {
		var out, errOut bytes.Buffer
		_ = run([]string{verb, "-h"}, &out, &errOut)
		block := usageBlock(verb)
		if block == "" {
			t.Errorf("mcplab help has no lines for %s", verb)
			continue
		}
		for _, m := range flagName.FindAllStringSubmatch(errOut.String()+out.String(), -1) {
			if !regexp.MustCompile(regexp.QuoteMeta(m[1]) + `\b`).MatchString(block) {
				t.Errorf("mcplab help's lines for %s omit %s:\n%s", verb, m[1], block)
			}
		}
	}
}

// usageBlock is the lines of usage for verb: from its line to the next
// command's.
func usageBlock(verb string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(usage, "\n") {
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") {
			name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
			in = name == verb
		} else if line == "" || !strings.HasPrefix(line, " ") {
			in = false
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
