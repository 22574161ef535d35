package session

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
)

// Capabilities are the capabilities the server of scenario s declares in
// its 2025-11-25 initialize result: those its steps use, since a server
// MUST declare a capability before it uses it (basic/lifecycle,
// "Capability Negotiation"; schema ServerCapabilities):
//   - a call step with a task: tasks (task-augmented tools/call, tasks/get,
//     tasks/cancel);
//   - a notify step's notifications/tools/list_changed,
//     notifications/prompts/list_changed or
//     notifications/resources/list_changed: that list's listChanged;
//   - a notify step's notifications/resources/updated, or a listen step
//     whose filter names resourceSubscriptions (each becomes a
//     resources/subscribe): resources.subscribe.
func Capabilities(s *scenario.Scenario) jsonrpc.Capabilities {
	var c jsonrpc.Capabilities
	for _, st := range s.Steps {
		switch st.Do {
		case scenario.VerbCall:
			c.Tasks = c.Tasks || st.Task != ""
		case scenario.VerbListen:
			var f struct {
				URIs []string `json:"resourceSubscriptions"`
			}
			_ = json.Unmarshal(st.Filter, &f) // a filter the scenario checked; none subscribes to nothing
			c.ResourcesSubscribe = c.ResourcesSubscribe || len(f.URIs) > 0
		case scenario.VerbNotify:
			switch st.Method {
			case jsonrpc.MethodToolsListChanged:
				c.ToolsListChanged = true
			case jsonrpc.MethodPromptsListChanged:
				c.PromptsListChanged = true
			case jsonrpc.MethodResourcesListChanged:
				c.ResourcesListChanged = true
			case jsonrpc.MethodResourcesUpdated:
				c.ResourcesSubscribe = true
			}
		}
	}
	return c
}
