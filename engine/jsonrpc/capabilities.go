package jsonrpc

import "encoding/json"

// Notifications a 2025-11-25 server may send only when its initialize
// result declares the capability that goes with each (schema
// ServerCapabilities; basic/lifecycle, "Capability Negotiation").
const (
	// MethodToolsListChanged needs tools.listChanged.
	MethodToolsListChanged = "notifications/tools/list_changed"
	// MethodPromptsListChanged needs prompts.listChanged.
	MethodPromptsListChanged = "notifications/prompts/list_changed"
	// MethodResourcesListChanged needs resources.listChanged.
	MethodResourcesListChanged = "notifications/resources/list_changed"
	// MethodResourcesUpdated needs resources.subscribe (it answers a
	// resources/subscribe).
	MethodResourcesUpdated = "notifications/resources/updated"
)

// Capabilities are what a 2025-11-25 server declares in its initialize
// result (schema ServerCapabilities) besides tools, which the lab's
// server always offers: each is true when the run uses it, since a
// server MUST declare a capability before it uses it.
type Capabilities struct {
	// ToolsListChanged is tools.listChanged: the server sends
	// notifications/tools/list_changed.
	ToolsListChanged bool
	// PromptsListChanged is prompts {"listChanged": true}.
	PromptsListChanged bool
	// ResourcesListChanged is resources.listChanged.
	ResourcesListChanged bool
	// ResourcesSubscribe is resources.subscribe: the client sends
	// resources/subscribe and the server notifications/resources/updated.
	ResourcesSubscribe bool
	// Tasks is tasks {"cancel": {}, "requests": {"tools": {"call": {}}}}:
	// the server takes task-augmented tools/call, tasks/get and
	// tasks/cancel (it keeps no task list, so no tasks.list).
	Tasks bool
}

// JSON is c as the ServerCapabilities object: {"tools":{}} when c is the
// zero value, members in the schema's order (prompts, resources, tasks,
// tools).
func (c Capabilities) JSON() json.RawMessage {
	type listChanged struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}
	type resources struct {
		ListChanged bool `json:"listChanged,omitempty"`
		Subscribe   bool `json:"subscribe,omitempty"`
	}
	var out struct {
		Prompts   *listChanged    `json:"prompts,omitempty"`
		Resources *resources      `json:"resources,omitempty"`
		Tasks     json.RawMessage `json:"tasks,omitempty"`
		Tools     listChanged     `json:"tools"`
	}
	if c.PromptsListChanged {
		out.Prompts = &listChanged{true}
	}
	if c.ResourcesListChanged || c.ResourcesSubscribe {
		out.Resources = &resources{c.ResourcesListChanged, c.ResourcesSubscribe}
	}
	if c.Tasks {
		out.Tasks = json.RawMessage(`{"cancel":{},"requests":{"tools":{"call":{}}}}`)
	}
	out.Tools.ListChanged = c.ToolsListChanged
	return Marshal(out)
}

// WithParam returns request msg with params[key] = value (JSON text),
// after the members params has (replacing key's value when present; a
// request without params gets {key: value}); msg unchanged when it is
// not a request object.
func WithParam(msg json.RawMessage, key string, value json.RawMessage) json.RawMessage {
	env, ps, ok := requestParams(msg)
	if !ok {
		return msg
	}
	return env.set("params", ps.set(key, value).object()).object()
}
