package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEveryVerbRoundTrips: each Verb constant is the "do" value SCENARIO.md
// ("Steps") spells, the decoder admits it (Verbs lists its members), a step
// written with that value decodes to the constant, and it encodes back to
// the same value. One scenario holds one step of every verb, so a verb the
// table misses is a Verbs entry left over (the count below).
func TestEveryVerbRoundTrips(t *testing.T) {
	tests := []struct {
		verb Verb
		want string // the value SCENARIO.md fixes
		step string // a step of the verb, valid after the ones before it
	}{
		{VerbCall, "call", `{"at":0,"do":"call","id":1,"task":"t1"}`},
		{VerbCall, "call", `{"at":0,"do":"call","id":2}`},
		{VerbListen, "listen", `{"at":0,"do":"listen","id":"l"}`},
		{VerbTaskGet, "task-get", `{"at":10,"do":"task-get","taskId":"t1"}`},
		{VerbTaskCancel, "task-cancel", `{"at":10,"do":"task-cancel","taskId":"t1"}`},
		{VerbCheckpoint, "checkpoint", `{"at":10,"do":"checkpoint","taskId":"t1"}`},
		{VerbFinishTask, "finish-task", `{"at":10,"do":"finish-task","taskId":"t1"}`},
		{VerbProgress, "progress", `{"at":10,"do":"progress","id":2,"progress":1}`},
		{VerbProduce, "produce", `{"at":10,"do":"produce","id":2,"everyMs":5,"count":2}`},
		{VerbCancel, "cancel", `{"at":20,"do":"cancel","id":2}`},
		{VerbRetry, "retry", `{"at":20,"do":"retry","id":3,"of":2}`},
		{VerbSend, "send", `{"at":20,"do":"send","message":{}}`},
		{VerbDisconnect, "disconnect", `{"at":20,"do":"disconnect","id":1}`},
		{VerbComplete, "complete", `{"at":30,"do":"complete","id":1}`},
		{VerbFail, "fail", `{"at":30,"do":"fail","id":3,"code":-1}`},
		{VerbNotify, "notify", `{"at":30,"do":"notify","listen":"l","method":"notifications/x"}`},
		{VerbEndListen, "end-listen", `{"at":30,"do":"end-listen","id":"l"}`},
		{VerbDrop, "drop", `{"at":30,"do":"drop","id":"l"}`},
		{VerbRace, "race", `{"at":40,"do":"race","connections":2,"call":{"id":10,"name":"charge_account"}}`},
		{VerbReopenLedger, "reopen-ledger", `{"at":40,"do":"reopen-ledger"}`},
		{VerbMutateResult, "mutate-result", `{"at":40,"do":"mutate-result","of":1,"set":{}}`},
		{VerbEndSession, "end-session", `{"at":50,"do":"end-session"}`},
	}
	steps := make([]string, len(tests))
	seen := map[Verb]bool{}
	for i, tt := range tests {
		steps[i] = tt.step
		seen[tt.verb] = true
		if string(tt.verb) != tt.want {
			t.Errorf("%s: the constant is %q, SCENARIO.md spells it %q", tt.want, tt.verb, tt.want)
		}
		if _, ok := Verbs[tt.verb]; !ok {
			t.Errorf("%s: Verbs has no entry, so the decoder refuses it", tt.want)
		}
	}
	if len(seen) != len(Verbs) || len(Verbs) != 21 {
		t.Errorf("the table covers %d verbs, Verbs lists %d, SCENARIO.md 21", len(seen), len(Verbs))
	}
	doc := `{"mcplab":1,"protocol":"2025-11-25","transport":"streamable-http","ledger":{},"steps":[` + strings.Join(steps, ",") + `]}`
	s, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		if got := s.Steps[i].Do; got != tt.verb {
			t.Errorf("steps[%d]: decoded %q, want %q", i, got, tt.verb)
		}
		b, err := json.Marshal(s.Steps[i])
		if err != nil || !strings.Contains(string(b), `"do":"`+tt.want+`"`) {
			t.Errorf("steps[%d]: encoded %s (%v), want \"do\":%q", i, b, err, tt.want)
		}
	}
}
