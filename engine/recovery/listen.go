package recovery

import (
	"encoding/json"
	"strings"
)

// Refetch is one read a client makes after a reconnect to learn what a
// dropped listen stream may have hidden (DOMAIN.md §9): Of is the affected
// id, Method and Params the authoritative request, Result what the
// simulated server answers.
type Refetch struct {
	Of     string
	Method string
	Params json.RawMessage
	Result json.RawMessage
	// ID is the read's request id (RefetchID; a subscription's
	// SubscribeID), Why the note of its request when it is not a refetch
	// ("" for Note's).
	ID, Why string
}

// Refetches maps a plan's affected ids to their reads, in order: "tasks/<id>"
// is tasks/get of that task, an id with "://" is resources/read of that URI,
// anything else is a tool name, and all tool names share one tools/list.
func Refetches(affected []string) []Refetch {
	var out []Refetch
	tools := false
	for _, id := range affected {
		switch {
		case strings.HasPrefix(id, "tasks/"):
			tid := strings.TrimPrefix(id, "tasks/")
			out = append(out, Refetch{Of: id, Method: "tasks/get", Params: marshal(map[string]string{"taskId": tid}),
				Result: marshal(map[string]string{"taskId": tid, "status": "working"})})
		case strings.Contains(id, "://"):
			out = append(out, Refetch{Of: id, Method: "resources/read", Params: marshal(map[string]string{"uri": id}),
				Result: marshal(map[string][]map[string]string{"contents": {{"uri": id, "text": "(current contents)"}}})})
		case !tools:
			tools = true
			out = append(out, Refetch{Of: id, Method: "tools/list", Result: json.RawMessage(`{"tools":[]}`)})
		}
	}
	return out
}

func marshal(v any) json.RawMessage {
	b, _ := json.Marshal(v) // maps of strings always encode
	return b
}

// Admits reports whether a listen stream's subscription filter asks for a
// notification (MCP 2026-07-28 SubscriptionFilter: toolsListChanged,
// promptsListChanged, resourcesListChanged, resourceSubscriptions, the
// last matched against params.uri of notifications/resources/updated).
// Other notifications are not filtered.
func Admits(filter json.RawMessage, method string, params json.RawMessage) bool {
	var f struct {
		Tools     bool     `json:"toolsListChanged"`
		Prompts   bool     `json:"promptsListChanged"`
		Resources bool     `json:"resourcesListChanged"`
		URIs      []string `json:"resourceSubscriptions"`
	}
	_ = json.Unmarshal(filter, &f)
	switch method {
	case "notifications/tools/list_changed":
		return f.Tools
	case "notifications/prompts/list_changed":
		return f.Prompts
	case "notifications/resources/list_changed":
		return f.Resources
	case "notifications/resources/updated":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(params, &p)
		for _, u := range f.URIs {
			if u == p.URI {
				return true
			}
		}
		return false
	}
	return true
}
