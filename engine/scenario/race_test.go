package scenario

import "testing"

// TestRaced proves Scenario.Raced and RaceID (DOMAIN.md §4): a race of n
// connections sends its call's id, then id+1 ... for an integer id, or
// "<id>-2" ... for a string id; other requests, and a nil scenario, are not
// raced. Rule request-has-timeout relies on it to leave the independent
// connections of a race unjudged.
func TestRaced(t *testing.T) {
	s, err := Decode([]byte(`{"mcplab":1,"ledger":{"replicas":1},"steps":[
		{"at":0,"do":"call","id":1,"name":"charge_account","arguments":{"account":"a","cents":1,"idempotencyKey":"k"}},
		{"at":10,"do":"race","connections":3,"call":{"id":6,"name":"charge_account","arguments":{"account":"a","cents":1,"idempotencyKey":"k2"}}},
		{"at":20,"do":"race","connections":2,"call":{"id":"r","name":"charge_account","arguments":{"account":"a","cents":1,"idempotencyKey":"k3"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for raw, want := range map[string]bool{`6`: true, `7`: true, `8`: true, `9`: false, `1`: false, `"r"`: true, `"r-2"`: true, `"r-3"`: false, `"6"`: false} {
		if got := s.Raced(raw); got != want {
			t.Errorf("Raced(%s) = %v, want %v", raw, got, want)
		}
	}
	var none *Scenario
	if none.Raced(`6`) {
		t.Error("a nil scenario (an imported transcript) has no race")
	}
}
