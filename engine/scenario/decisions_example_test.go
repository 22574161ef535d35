package scenario_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/scenario"
)

// A retry policy's ids: the n-th retry of a call is the string
// "<id>-r<n>", and a step may name it before the run decides whether it
// happens.
func ExampleRetryID() {
	fmt.Println(scenario.RetryID(scenario.NewIntID(41), 1), scenario.RetryID(scenario.NewStringID("job"), 2))
	s, err := scenario.Decode([]byte(`{"mcplab":1,"client":{"maxTimeoutMs":2000,"policy":{"retry":{"on":["timeout"]}}},
		"steps":[{"at":0,"do":"call","id":41,"name":"charge_account"},{"at":2300,"do":"complete","id":"41-r1"}]}`))
	fmt.Println(err, s.Client.Policy.Retry.Max, s.Client.Policy.Retry.DelayMs, s.Client.Policy.Retry.Retries(scenario.RetryOnError))
	// Output:
	// "41-r1" "job-r2"
	// <nil> 1 100 false
}
