package recovery

import (
	"fmt"
	"testing"
)

// DOMAIN.md §9: after a reconnect the client refetches each affected id
// from its authoritative method; tool names share one tools/list.
func TestRefetches(t *testing.T) {
	got := Refetches([]string{"file:///a", "search", "tasks/t-1", "other_tool"})
	want := []string{"resources/read file:///a", "tools/list search", "tasks/get tasks/t-1"}
	if len(got) != len(want) {
		t.Fatalf("%d refetches, want %d: %+v", len(got), len(want), got)
	}
	for i, f := range got {
		if s := fmt.Sprintf("%s %s", f.Method, f.Of); s != want[i] {
			t.Errorf("refetch %d = %s, want %s", i, s, want[i])
		}
	}
	if string(got[2].Params) != `{"taskId":"t-1"}` {
		t.Errorf("tasks/get params %s", got[2].Params)
	}
}

// MCP 2026-07-28 SubscriptionFilter: a listen stream gets only what its
// filter asks for; resource updates match by URI; others are not filtered.
func TestAdmits(t *testing.T) {
	filter := []byte(`{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]}`)
	for _, c := range []struct {
		method, params string
		want           bool
	}{
		{"notifications/tools/list_changed", ``, true},
		{"notifications/prompts/list_changed", ``, false},
		{"notifications/resources/updated", `{"uri":"file:///a"}`, true},
		{"notifications/resources/updated", `{"uri":"file:///b"}`, false},
		{"notifications/message", ``, true},
	} {
		if got := Admits(filter, c.method, []byte(c.params)); got != c.want {
			t.Errorf("Admits(%s %s) = %v, want %v", c.method, c.params, got, c.want)
		}
	}
}
