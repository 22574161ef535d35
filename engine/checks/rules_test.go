package checks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// ruleID is the shape of a rule id: lower-case words joined by hyphens.
var ruleID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)+$`)

// TestEveryRuleIsDescribed: every rule id the package declares (a
// package-level string constant shaped like one) has exactly one entry in
// Rules, and every entry says what it checks and where the rule comes
// from, so the rules reference generated from Rules misses none.
func TestEveryRuleIsDescribed(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	declared := map[trace.RuleID]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, _ := strconv.Unquote(lit.Value); ruleID.MatchString(s) {
							declared[trace.RuleID(s)] = true
						}
					}
				}
			}
		}
	}
	if len(declared) < 40 {
		t.Fatalf("only %d rule ids found: the scan is not over the package", len(declared))
	}
	seen := map[trace.RuleID]bool{}
	for _, r := range Rules {
		if seen[r.ID] {
			t.Errorf("rule %s is described twice", r.ID)
		}
		seen[r.ID] = true
		if !declared[r.ID] {
			t.Errorf("Rules describes %s, which the package does not declare", r.ID)
		}
		if len(r.Checks) < 20 || !strings.HasSuffix(r.Checks, ".") || r.Source == "" {
			t.Errorf("rule %s: checks %q, source %q: want a sentence and a source", r.ID, r.Checks, r.Source)
		}
		if got, ok := RuleByID(r.ID); !ok || got.ID != r.ID {
			t.Errorf("RuleByID(%s) = %v, %t", r.ID, got, ok)
		}
	}
	for id := range declared {
		// MessageValid is described by package checks/schema, which judges it.
		if !seen[id] && id != MessageValid {
			t.Errorf("rule %s has no entry in Rules", id)
		}
	}
	if _, ok := RuleByID("no-such-rule"); ok {
		t.Error("RuleByID found a rule that does not exist")
	}
}
