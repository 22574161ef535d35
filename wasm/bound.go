//go:build js && wasm

package main

import (
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// boundText is what a page says when the worker's error msg is an
// *trace.BoundError's (issue 12): the scenario is valid, but its run went
// past one of the engine's bounds, named with its number and what to change
// (the engine's own words, as a sentence), and the output keeps the last
// run that finished. ok is false for any other error (an invalid scenario,
// which the page reports as such).
func boundText(msg string) (text string, ok bool) {
	if !trace.IsBoundMessage(msg) {
		return "", false
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "." + lastFinishedNote, true
}

// lastFinishedNote ends boundText: where the page keeps its last run.
const lastFinishedNote = " The output shows the last run that finished."
