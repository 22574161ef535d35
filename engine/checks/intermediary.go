// Rules for intermediaries (DOMAIN.md §8; SCENARIO.md, "Switches for the
// failures real software shows": proxy-buffers-sse as Kuadrant/mcp-gateway#226 and
// cloudflare/cloudflared#1496 report it).

package checks

import (
	"github.com/mcplab/mcplab/engine/trace"
)

// ProxyForwardsPromptly is the rule id of proxyForwardsPromptly: A proxy
// holds no event of a stream whose server sent X-Accel-Buffering: no
// (DOMAIN.md §8).
const ProxyForwardsPromptly trace.RuleID = "proxy-forwards-promptly"

// proxyForwardsPromptly: when the server opened a response stream with
// X-Accel-Buffering: no, an intermediary forwards each event as it comes
// and holds none (DOMAIN.md §8). A proxy that holds events on such a stream
// until its flush threshold or the result delivers progress in a burst or
// after the client's timeout. Listed when a stream asked for no buffering
// and a proxy is present (a proxy event, or one configured).
//
// Rule: proxyForwardsPromptly.
func proxyForwardsPromptly(v *view) (trace.Check, bool) {
	noBuffer := map[string]bool{}
	proxy := v.tr.Scenario != nil && v.tr.Scenario.Proxy != nil
	var bad, good []int
	for i, e := range v.ev {
		id := idOf(e)
		switch {
		case e.Actor == trace.ActorServer && e.Type == trace.TypeStart && e.Headers["X-Accel-Buffering"] == "no":
			noBuffer[id] = true
		case e.Actor == trace.ActorProxy:
			proxy = true
			if e.Type == trace.TypeHold && noBuffer[id] {
				bad = append(bad, i)
			}
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && noBuffer[id] && len(e.Message) > 0:
			good = append(good, i)
		}
	}
	if !proxy || len(noBuffer) == 0 {
		return trace.Check{}, false
	}
	return verdict(ProxyForwardsPromptly, bad, good,
		"The proxy held events ("+seqList(bad)+") on a stream whose server sent X-Accel-Buffering: no: progress arrives in a burst or after the client gave up (proxy-buffers-sse).",
		"The proxy forwarded every event of the streams that asked for no buffering as it came.")
}
