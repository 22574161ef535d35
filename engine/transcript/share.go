package transcript

import (
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// ShareFragment turns an imported trace into the share fragment ("s=...")
// of a scenario that reproduces it (ToScenario), with argument values and
// result text replaced first when redact is true (Redact), so nothing the
// user typed or the tool returned goes into the link unless they ask for
// it. Errors are those of ToScenario, Redact and scenario.ShareFragment.
func ShareFragment(tr *trace.Trace, redact bool) (string, error) {
	doc, err := ToScenario(tr)
	if err != nil {
		return "", err
	}
	if redact {
		if doc, err = Redact(doc); err != nil {
			return "", err
		}
	}
	return scenario.ShareFragment(doc)
}
