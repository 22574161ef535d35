//go:build js && wasm

package page

import (
	"strings"

	"github.com/mcplab/mcplab/wasm/protocol"
)

// boundText is what a page says when a run went past one of the engine's
// bounds (protocol.KindBound): the scenario is valid, the bound is named
// with its number and what to change (the engine's own words, as a
// sentence), and the output keeps the last run that finished. ok is false
// for any other error.
func boundText(e *protocol.Error) (text string, ok bool) {
	if e == nil || e.Kind != protocol.KindBound || e.Message == "" {
		return "", false
	}
	return strings.ToUpper(e.Message[:1]) + e.Message[1:] + "." + lastFinishedNote, true
}

// lastFinishedNote ends boundText: where the page keeps its last run.
const lastFinishedNote = " The output shows the last run that finished."
