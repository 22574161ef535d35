package junit

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// report is the JUnit shape a CI reader takes in: testsuites with counts,
// testsuite with counts, testcase with at most one failure or skipped.
type report struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			Classname string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestMarshalIsJUnit: each case is a testcase named by its rule under its
// subject; a violated rule is a failure carrying the detail, an undecided
// one is skipped with its reason, a rule left out of the subject's verdict
// (a staged one) is skipped with why, never a failure, and the counts of
// each suite and of the whole report are the numbers of its cases,
// failures and skips.
func TestMarshalIsJUnit(t *testing.T) {
	yes, no := true, false
	suites := []Suite{
		{Name: "probe stdio", Cases: []Case{
			{Subject: "slow-tool-progress", Rule: "progress-increases", Status: StatusOf(&yes), Detail: "values rise"},
			{Subject: "slow-tool-progress", Rule: "no-message-after-cancel", Status: StatusOf(&no), Detail: `result after cancel at #7 <"&">`, URL: "rules/no-message-after-cancel/"},
			{Subject: "cancel-after-progress", Rule: "abandon-tells-server", Status: StatusOf(nil), Detail: "the client never gave up"},
			{Subject: "late-response", Rule: "no-message-after-cancel", Status: LeftOut, Detail: "staged by the mock: fail"},
		}},
		{Name: "empty", Cases: nil},
	}
	b, err := Marshal("mcplab", suites...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), xml.Header) {
		t.Errorf("no XML declaration: %.60s", b)
	}
	var r report
	if err := xml.Unmarshal(b, &r); err != nil {
		t.Fatalf("not well-formed: %v\n%s", err, b)
	}
	for _, tc := range []struct {
		what      string
		got, want int
	}{
		{"tests", r.Tests, 4}, {"failures", r.Failures, 1}, {"skipped", r.Skipped, 2}, {"errors", r.Errors, 0},
		{"suites", len(r.Suites), 2}, {"suite 0 tests", r.Suites[0].Tests, 4}, {"suite 0 failures", r.Suites[0].Failures, 1},
		{"suite 0 skipped", r.Suites[0].Skipped, 2}, {"suite 1 tests", r.Suites[1].Tests, 0}, {"cases", len(r.Suites[0].Cases), 4},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.what, tc.got, tc.want)
		}
	}
	c := r.Suites[0].Cases
	if c[0].Failure != nil || c[0].Skipped != nil || c[0].Name != "progress-increases" || c[0].Classname != "slow-tool-progress" {
		t.Errorf("a passing rule: %+v", c[0])
	}
	if f := c[1].Failure; f == nil || f.Message != `result after cancel at #7 <"&">` || f.Type != "no-message-after-cancel" || !strings.Contains(f.Text, "rules/no-message-after-cancel/") {
		t.Errorf("a violated rule is not a failure with its detail and rule page: %+v", c[1].Failure)
	}
	if s := c[2].Skipped; s == nil || !strings.Contains(s.Message, "the client never gave up") || c[2].Failure != nil {
		t.Errorf("an undecided rule is not skipped with its reason: %+v", c[2])
	}
	if s := c[3].Skipped; s == nil || s.Message != "staged by the mock: fail" || c[3].Failure != nil {
		t.Errorf("a rule left out of the subject's verdict is not skipped with why, whatever its verdict: %+v", c[3])
	}
}

// TestWriteFileNamesThePath: a report that cannot be written says where.
func TestWriteFileNamesThePath(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "report.xml")
	if err := WriteFile(ok, "mcplab", Suite{Name: "run"}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(ok); err != nil || !strings.Contains(string(b), `<testsuites name="mcplab" tests="0"`) {
		t.Errorf("written report: %s (%v)", b, err)
	}
	bad := filepath.Join(dir, "missing", "report.xml")
	if err := WriteFile(bad, "mcplab"); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("error %v does not name %s", err, bad)
	}
}
