// Package checks evaluates the rules of DOMAIN.md on a trace's events.
package checks

import "github.com/mcplab/mcplab/engine/trace"

// Evaluate returns the checks for tr.
func Evaluate(tr *trace.Trace) []trace.Check { return []trace.Check{} }
