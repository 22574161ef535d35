package engine_test

import (
	"testing"
)

// DOMAIN.md §9: each reconnect refetches under its own request ids. Two
// listen streams that drop within one backoff delay must not share
// "refetch-<n>-<k>" ids, or the server would see one id answered twice and
// one-response-per-request would fail for a well-behaved client.
func TestRefetchIDsPerReconnect(t *testing.T) {
	tr := run(t, sc(http2026,
		`{"at":0,"do":"listen","id":"sub-1","filter":{"resourceSubscriptions":["file:///a"]}}`,
		`{"at":0,"do":"listen","id":"sub-2","filter":{"resourceSubscriptions":["file:///b"]}}`,
		`{"at":300,"do":"drop","id":"sub-1","affected":["file:///a"]}`,
		`{"at":310,"do":"drop","id":"sub-2","affected":["file:///b"]}`))
	logOnFailure(t, tr)
	var refetches []string
	for _, r := range tr.Requests {
		if r.Method == "resources/read" {
			refetches = append(refetches, r.ID.Raw())
		}
	}
	if len(refetches) != 2 || refetches[0] != `"refetch-1-1"` || refetches[1] != `"refetch-2-1"` {
		t.Errorf("refetch ids %v, want [\"refetch-1-1\" \"refetch-2-1\"]", refetches)
	}
	wantCheck(t, tr, "one-response-per-request", "true")
}
