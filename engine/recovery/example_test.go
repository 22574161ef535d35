package recovery_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/recovery"
)

// A listen stream under 2025-11-25: the server sends three messages, the
// client receives one before the transport breaks, then resumes with
// Last-Event-ID 1 and the server replays the two it missed.
func ExampleListen() {
	l := recovery.NewListen([]byte(`{"toolsListChanged":true}`))
	l.Serving = true
	fmt.Printf("%s\n", l.Params())
	if _, ok := l.Notify(`"L"`, "notifications/prompts/list_changed", nil); !ok {
		fmt.Println("not in the filter")
	}
	for _, m := range []string{`{"method":"notifications/subscriptions/acknowledged"}`, `{"method":"a"}`, `{"method":"b"}`} {
		l.Send([]byte(m))
	}
	fmt.Println(l.Arrive(`"L"`, []byte(`{"method":"notifications/subscriptions/acknowledged"}`)).Note)
	l.Drop(`"L"`)
	e, last, missed := l.Resume(`"L"`, true)
	fmt.Println(e.Headers["Last-Event-ID"], last, len(missed))
	fmt.Println(l.Resumed(`"L"`, last, len(missed)).Note)
	// Output:
	// {"notifications":{"toolsListChanged":true}}
	// not in the filter
	// Listen stream "L" is acknowledged; the client's filter is in force.
	// 1 1 2
	// The server resumes stream "L" after event 1 and replays 2 missed event(s) of that stream only.
}
