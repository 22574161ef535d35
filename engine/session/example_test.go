package session_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/session"
)

// A 2025-11-25 session on Streamable HTTP: the server assigns an id at
// initialize, retires it, and a correct client initializes again and gets
// a new one; with reinitializeOnNotFound false it gives up instead.
func Example() {
	s, _ := scenario.Decode([]byte(`{"mcplab":1,"protocol":"2025-11-25","transport":"streamable-http","latencyMs":{"up":10,"down":10},"steps":[]}`))
	l := session.New(s)
	fmt.Println("starts at", session.Start(s))
	id := l.Next()
	sess := l.Open()["Mcp-Session-Id"]
	fmt.Println(id.Raw(), sess)
	l.Joined(sess)
	_, ok := l.Retire()
	fmt.Println("retired:", ok, l.Retired())
	e, reinit := l.Recover()
	fmt.Println(e.Status, reinit)
	next := l.Next()
	sess = l.Open()["Mcp-Session-Id"]
	fmt.Println(next.Raw(), sess)
	l.Joined(sess)
	fmt.Println("retired:", l.Retired())

	off, _ := scenario.Decode([]byte(`{"mcplab":1,"protocol":"2025-11-25","transport":"streamable-http","client":{"policy":{"reinitializeOnNotFound":false}},"steps":[]}`))
	b := session.New(off)
	_, reinit = b.Recover()
	fmt.Println("broken client reinitializes:", reinit)
	// Output:
	// starts at -20
	// "initialize-1" session-1
	// retired: true true
	// 404 true
	// "initialize-2" session-2
	// retired: false
	// broken client reinitializes: false
}
