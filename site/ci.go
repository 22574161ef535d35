package site

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/junit"
	"github.com/mcplab/mcplab/site/internal/probe"
	"github.com/mcplab/mcplab/site/internal/probeclient"
)

// ruleURL is the address of rule's reference page, /rules/<rule>/ on the
// site: under base (the site's address, as `build -base-url`) when one is
// given, else the path alone, as a linter prints the page of the rule it
// reports.
func ruleURL(base string, rule trace.RuleID) string {
	if base == "" {
		return "/rules/" + string(rule) + "/"
	}
	return strings.TrimSuffix(base, "/") + "/rules/" + string(rule) + "/"
}

// junitOfTrace is one run's suite: a case per check of tr, under subject
// (the scenario's title, else the input's name).
func junitOfTrace(subject, base string, tr *trace.Trace) junit.Suite {
	s := junit.Suite{Name: subject}
	for _, c := range tr.Checks {
		s.Cases = append(s.Cases, junit.Case{Subject: subject, Rule: string(c.Rule), Status: junit.StatusOf(c.OK), Detail: c.Detail, URL: ruleURL(base, c.Rule)})
	}
	return s
}

// situationCase is the case a probe writes for a situation that judged no
// rule: skipped (or stopped) as undecided with why, a failure when the
// probe's own observation failed it or it could not run to its end.
const situationCase = "situation"

// junitOfProbe is a probe's suite: a case per situation and rule; the
// probe's own observations that fail a situation are failures named as
// -checks names them, and a situation that judged nothing is one case.
func junitOfProbe(target string, results []probe.Result) junit.Suite {
	s := junit.Suite{Name: "mcplab probe " + target}
	for _, r := range results {
		for _, c := range r.Checks {
			s.Cases = append(s.Cases, junit.Case{Subject: r.Name, Rule: string(c.Rule), Status: junit.StatusOf(c.OK), Detail: c.Detail, URL: ruleURL("", c.Rule)})
		}
		for _, o := range r.Own {
			s.Cases = append(s.Cases, junit.Case{Subject: r.Name, Rule: o, Status: junit.Fail, Detail: strings.Join(r.Facts, "; ")})
		}
		if len(r.Checks)+len(r.Own) > 0 {
			continue
		}
		c := junit.Case{Subject: r.Name, Rule: situationCase, Detail: strings.Join(r.Facts, "; ")}
		switch {
		case r.Verdict == "FAIL" || r.Broke:
			c.Status = junit.Fail
		case r.Verdict == "pass":
			c.Status = junit.Pass
		default:
			c.Status = junit.Undecided
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}

// junitOfExplore is an exploration's suite: a case per rule evaluated in
// any run, failed with its smallest counterexample where it fails
// anywhere in the window.
func junitOfExplore(subject string, rep *explore.Report) junit.Suite {
	s := junit.Suite{Name: "mcplab explore " + subject}
	for _, r := range rep.Rules {
		c := junit.Case{Subject: subject, Rule: string(r.Rule), Status: junit.Pass, URL: ruleURL("", r.Rule),
			Detail: fmt.Sprintf("no violation in %d grid point(s)", rep.Points)}
		if r.Violations > 0 {
			c.Status, c.Detail = junit.Fail, fmt.Sprintf("fails at %d grid point(s)", r.Violations)
			for _, ce := range rep.Counterexamples {
				if ce.Rule == r.Rule {
					c.Detail += fmt.Sprintf("; the smallest: %s, %s", values(ce.Values), ce.Link)
				}
			}
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}

func values(vs explore.Values) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%s=%d", v.Path, v.Value)
	}
	return strings.Join(parts, ", ")
}

// junitOfProbeClient is probe-client's suite: a case per situation,
// transport and rule (the subject names the situation and its transport);
// a rule the mock stages on purpose (the situation's Staged) is skipped as
// left out, "staged by the mock", whatever its verdict, as the summary
// leaves it out of the situation's; a situation that judged no rule is one
// case, undecided with its facts, or a failure when its run could not
// happen.
func junitOfProbeClient(client string, results []probeclient.Result) junit.Suite {
	s := junit.Suite{Name: "mcplab probe-client " + client}
	for _, r := range results {
		subject := r.Name + " (" + r.Transport + ", " + r.Protocol + ")"
		for _, c := range r.Checks {
			jc := junit.Case{Subject: subject, Rule: string(c.Rule), Status: junit.StatusOf(c.OK), Detail: c.Detail, URL: ruleURL("", c.Rule)}
			if c.Staged || slices.Contains(r.Staged, c.Rule) {
				jc.Status, jc.Detail = junit.LeftOut, stagedDetail(c)
			}
			s.Cases = append(s.Cases, jc)
		}
		if len(r.Checks) > 0 {
			continue
		}
		c := junit.Case{Subject: subject, Rule: situationCase, Status: junit.Undecided, Detail: strings.Join(r.Facts, "; ")}
		if r.Broke || r.Verdict == probeclient.Fail {
			c.Status = junit.Fail
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}

// stagedDetail is why a staged rule's case is left out of probe-client's
// report, with the verdict it had on the mock.
func stagedDetail(c probeclient.Check) string {
	verdict := "undecided"
	switch {
	case c.OK == nil:
	case *c.OK:
		verdict = "pass"
	default:
		verdict = "fail"
	}
	return "staged by the mock: this rule judges the misbehaviour the mock commits on purpose, not the client, and is left out of the situation's verdict (on the mock: " + verdict + ", " + c.Detail + ")"
}
