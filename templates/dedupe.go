package templates

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/scenario"
)

// noKeyLabel is the label of the "idempotency-key" choice of
// server.policy.dedupeBy on a scenario whose calls send no key: the server
// would deduplicate by key, but with no key there is nothing to match, so
// every call runs its effect (DOMAIN.md §4; the flagship's story).
const noKeyLabel = "idempotency key (none sent)"

// sendsKey reports whether any call or retry step of s carries
// arguments.idempotencyKey (a retry step reuses its original's arguments).
func sendsKey(s *scenario.Scenario) bool {
	for _, st := range s.Steps {
		if len(st.Arguments) == 0 {
			continue
		}
		var args struct {
			Key any `json:"idempotencyKey"`
		}
		if json.Unmarshal(st.Arguments, &args) == nil && args.Key != nil && args.Key != "" {
			return true
		}
	}
	return false
}

// showKeyless makes the dedupe control say what a scenario without keys
// actually does (a control shows what the scenario does):
// its "idempotency key" choice, still the value it writes, is labelled
// noKeyLabel, and its help says why.
func showKeyless(c *control, s *scenario.Scenario) {
	if c.Path != "server.policy.dedupeBy" || sendsKey(s) {
		return
	}
	for i := range c.Options {
		if c.Options[i].Value == "idempotency-key" {
			c.Options[i].Label = noKeyLabel
		}
	}
	c.Help += " No call here sends an idempotency key, so nothing is deduplicated: a retry runs the effect again."
}
