package coordinator_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The flagship's retry policy deciding on call 41, which its maximum
// timeout ended: one retry, "41-r1", 100 ms later, with the token
// "pay-41-r1" and the same idempotency key. A late response to 41 is no
// second ending.
func ExampleClient_PlanRetry() {
	p := &scenario.RetryPolicy{On: []string{scenario.RetryOnTimeout}, Max: 1, DelayMs: 100, SameKey: true}
	c := coordinator.NewClient(coordinator.Deadlines{}, true)
	c.End(2000, trace.OutcomeAbandoned, trace.CauseMaxTimeout)
	token, effect, done := scenario.NewStringID("pay-41"), true, 0
	r, ok := c.PlanRetry(p, &done, scenario.NewIntID(41), "41", json.RawMessage(`{"idempotencyKey":"checkout-7"}`), &token, &effect)
	fmt.Println(ok, r.ID, r.DelayMs, r.Token, string(r.Args))
	fmt.Println(r.Note)
	_, again := c.PlanRetry(p, &done, scenario.NewIntID(41), "41", nil, nil, nil)
	fmt.Println("again:", again)
	// Output:
	// true "41-r1" 100 "pay-41-r1" {"idempotencyKey":"checkout-7"}
	// Retry policy: request 41 timed out, so 100 ms later the client sends it again as request "41-r1" with the same idempotency key.
	// again: false
}

// A client with cancelAfterFirstEvent decides to cancel a Streamable HTTP
// request whose stream has said nothing yet: the close waits, and goes out
// at the first SSE event, not at a keep-alive comment.
func ExampleClient_HoldCancel() {
	c := coordinator.NewClient(coordinator.Deadlines{}, true)
	c.Cancel(500, "4", "tools/call", trace.CauseIdleTimeout, nil, coordinator.Transport{HTTP: true, CloseStream: true})
	_, hold := c.HoldCancel(true, true, "4", func() { fmt.Println("the close goes out") })
	fmt.Println("held:", hold)
	c.Hears(false)() // a keep-alive comment
	c.Hears(true)()  // the first event
	// Output:
	// held: true
	// the close goes out
}
