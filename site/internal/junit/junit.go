// Package junit writes the verdicts of a run, a probe or an exploration as
// JUnit XML, the report format CI systems read (GitHub Actions, GitLab,
// Jenkins): one test case per subject (a situation of a probe, a scenario of
// a run, an outcome class of an exploration) and rule; a violated rule is a
// failure with the rule's detail, an undecided one is skipped with the
// reason the trace cannot decide, a rule left out of the subject's verdict
// (LeftOut) is skipped with why, a rule that holds passes.
//
// The shape is the common JUnit schema (the one Jenkins and the Ant task
// write): <testsuites> holding one <testsuite> per Suite, each with the
// counts tests, failures, errors (always 0: a rule is never an error of the
// lab) and skipped, and <testcase classname="subject" name="rule"> children.
// Times are not written: the lab's verdicts are of virtual time, and a
// wall-clock duration would make two reports of the same run differ.
package junit

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
)

// Status is the verdict of one rule on one subject.
type Status int

// The three verdicts of a rule (trace.Check's ok true, false or null),
// and LeftOut for a rule judged but not the subject's to answer.
const (
	Pass      Status = iota // the rule holds
	Fail                    // the rule is violated: a <failure>
	Undecided               // the trace cannot decide: <skipped>
	// LeftOut is a rule whose verdict does not count for the subject: a
	// probe-client situation's staged rule, which judges the misbehaviour
	// the mock commits on purpose, not the client. It is <skipped> with
	// the detail as its message (which says why), never a failure,
	// whatever the rule's verdict.
	LeftOut
)

// StatusOf maps a check's ok (true, false, nil for undecided) to a Status.
func StatusOf(ok *bool) Status {
	switch {
	case ok == nil:
		return Undecided
	case *ok:
		return Pass
	}
	return Fail
}

// Case is one rule judged on one subject.
type Case struct {
	// Subject is what was judged: a situation ("slow-tool-progress"), a
	// scenario's title or file, an outcome class. It is the classname.
	Subject string
	// Rule is the rule id ("no-message-after-cancel"), the test case name.
	Rule   string
	Status Status
	// Detail is the rule's detail: the failure's message for Fail, the
	// reason for Undecided, why the rule is left out for LeftOut, the test
	// case's output for Pass.
	Detail string
	// URL, when not "", is the rule's reference page; it follows the
	// detail in the failure or skipped text.
	URL string
}

// Suite is one report: a run, a probe of one server, an exploration.
type Suite struct {
	Name  string
	Cases []Case
}

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name     string    `xml:"name,attr"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Skipped  int       `xml:"skipped,attr"`
	Cases    []xmlCase `xml:"testcase"`
}

type xmlCase struct {
	Classname string      `xml:"classname,attr"`
	Name      string      `xml:"name,attr"`
	Failure   *xmlMessage `xml:"failure"`
	Skipped   *xmlMessage `xml:"skipped"`
	SystemOut string      `xml:"system-out,omitempty"`
}

type xmlMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// Marshal returns the JUnit XML of suites: an XML declaration, then one
// <testsuites> element named name whose counts are the sums of its suites'.
func Marshal(name string, suites ...Suite) ([]byte, error) {
	root := xmlSuites{Name: name, Suites: []xmlSuite{}}
	for _, s := range suites {
		xs := xmlSuite{Name: s.Name, Tests: len(s.Cases), Cases: []xmlCase{}}
		for _, c := range s.Cases {
			xc := xmlCase{Classname: c.Subject, Name: c.Rule}
			text := c.Detail
			if c.URL != "" {
				text += "\n" + c.URL
			}
			switch c.Status {
			case Fail:
				xs.Failures++
				xc.Failure = &xmlMessage{Message: c.Detail, Type: c.Rule, Text: text}
			case Undecided:
				xs.Skipped++
				xc.Skipped = &xmlMessage{Message: "undecided: " + c.Detail}
			case LeftOut:
				xs.Skipped++
				xc.Skipped = &xmlMessage{Message: c.Detail}
			default:
				xc.SystemOut = text
			}
			xs.Cases = append(xs.Cases, xc)
		}
		root.Tests += xs.Tests
		root.Failures += xs.Failures
		root.Skipped += xs.Skipped
		root.Suites = append(root.Suites, xs)
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("junit: %w", err)
	}
	buf.WriteString("\n")
	return buf.Bytes(), nil
}

// WriteFile writes the JUnit XML of suites to path (mode 0644), replacing
// it; the error names the path.
func WriteFile(path, name string, suites ...Suite) error {
	b, err := Marshal(name, suites...)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("-junit %s: %w", path, err)
	}
	return nil
}
