package checks_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule http-cancel-posts-notification (DOMAIN.md §1, Streamable HTTP
// 2025-11-25: a disconnect is not a cancellation, the client POSTs
// notifications/cancelled): a close the client makes to cancel fails it,
// citing the close like every failure cites its events; the close of a
// call that already failed with its torn-down session (late-message-fatal,
// an error of cause session-teardown) is not a cancellation attempt and is
// not judged.
func TestHTTPCancelPostsNotificationJudgesOnlyCancellations(t *testing.T) {
	s := mustScenario(t, `"transport":"streamable-http","protocol":"2025-11-25"`)
	teardown := act(260, client, trace.TypeError, "7")
	teardown.Cause = trace.CauseSessionTeardown
	tests := []struct {
		name   string
		tr     *trace.Trace
		events []int // nil: not listed
	}{
		{"the client closes the stream to cancel: fails, citing the close",
			build(s, nil, send(0, client, "7", req7), closeStream(300, client, "7")), []int{1}},
		{"the torn-down session closes the stream: not a cancellation",
			build(s, nil, send(0, client, "7", req7), teardown, closeStream(260, client, "7")), nil},
	}
	for _, tt := range tests {
		t.Run(string(checks.HTTPCancelPostsNotification)+"/"+tt.name, func(t *testing.T) {
			var got *trace.Check
			for _, c := range checks.Evaluate(tt.tr) {
				if c.Rule == checks.HTTPCancelPostsNotification {
					got = &c
				}
			}
			switch {
			case tt.events == nil && got != nil:
				t.Fatalf("listed: %s %s", okText(got.OK), got.Detail)
			case tt.events == nil:
				return
			case got == nil:
				t.Fatal("not listed")
			case got.OK == nil || *got.OK:
				t.Fatalf("%s: %s; want a failure", okText(got.OK), got.Detail)
			case !slices.Equal(got.Events, tt.events):
				t.Errorf("events %v, want %v", got.Events, tt.events)
			}
			for _, s := range tt.events {
				if ref := "#" + strconv.Itoa(s); !strings.Contains(got.Detail, ref) {
					t.Errorf("detail %q does not cite %s", got.Detail, ref)
				}
			}
		})
	}
}
