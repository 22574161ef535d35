package review_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/review"
)

// A call with no timeout on stdio: the review runs its races, finds it a
// safe read, and flags the missing deadlines.
func Example() {
	rep, err := review.Review([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":7,"name":"search_orders"}]}`), review.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("retry class:", rep.RetryClass)
	for _, r := range rep.Races[:3] {
		fmt.Printf("%s %s: signal %s, final response %t\n", r.Transport, r.Order, *r.Signal, r.FinalResponse)
	}
	for _, c := range rep.FailureCards {
		if c.ID == "no-timeout" || c.ID == "progress-resets-every-deadline" || c.ID == "check-then-act" {
			fmt.Printf("%s: %s\n", c.ID, c.Status)
		}
	}
	// Output:
	// retry class: safe
	// stdio cancel-first: signal notifications/cancelled, final response false
	// stdio complete-first: signal notifications/cancelled, final response true
	// stdio in-flight: signal notifications/cancelled, final response true
	// progress-resets-every-deadline: at-risk
	// check-then-act: not-applicable
	// no-timeout: at-risk
}
