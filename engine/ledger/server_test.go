package ledger_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/trace"
)

func openServer(t *testing.T, replicas int, shared, shareResults bool) *ledger.Server {
	t.Helper()
	n := 0
	s, err := ledger.OpenServer(func() (ledger.Store, error) {
		n++
		return sqlite.OpenMemory(fmt.Sprintf("/server-test-%s-%d", t.Name(), n))
	}, replicas, shared, shareResults)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func call(t *testing.T, s *ledger.Server, id, args string) ledger.Reply {
	t.Helper()
	in, err := ledger.Prepare("charge_account", json.RawMessage(args), json.RawMessage(id))
	if err != nil {
		return ledger.Invalid(err)
	}
	c, k := s.Next()
	out, err := ledger.Apply(c, 0, in, true)
	return s.Reply(id, json.RawMessage(args), k, in, out, err)
}

// DOMAIN.md §4: a key reused with other arguments is rejected with -32602
// and data.httpStatus 422, and the second call with the same arguments is
// a replay, not a new execution.
func TestServerReplyKeyConflictAndReplay(t *testing.T) {
	s := openServer(t, 1, true, false)
	if r := call(t, s, "1", `{"account":"a","cents":5,"idempotencyKey":"k"}`); r.Kind != ledger.Executed || r.Key != "k" {
		t.Fatalf("first call: %+v; want Executed under business key k", r)
	}
	if r := call(t, s, "2", `{"account":"a","cents":5,"idempotencyKey":"k"}`); r.Kind != ledger.Replayed {
		t.Fatalf("same arguments again: %+v; want Replayed", r)
	}
	r := call(t, s, "3", `{"account":"a","cents":9,"idempotencyKey":"k"}`)
	if r.Kind != ledger.Rejected || r.Code != -32602 || !strings.Contains(string(r.Data), `"httpStatus":422`) {
		t.Fatalf("other arguments under k: %+v; want Rejected, -32602, httpStatus 422", r)
	}
	if r := call(t, s, "4", `{"account":"a","cents":-1}`); r.Kind != ledger.Rejected || r.Code != -32602 || r.Result != nil {
		t.Fatalf("invalid cents: %+v; want Rejected -32602 before any effect", r)
	}
}

// DOMAIN.md §4 (defensiveCopy): with copies off the caller's edit reaches
// the shared object and later replays return it; with copies on they do not.
func TestServerMutateReachesSharedObjectOnlyWithoutCopies(t *testing.T) {
	for _, share := range []bool{false, true} {
		s := openServer(t, 1, true, share)
		call(t, s, "1", `{"account":"a","cents":5,"idempotencyKey":"k"}`)
		mutated, _, ok := s.Mutate("1", json.RawMessage(`{"cents":0}`))
		if !ok || !strings.Contains(string(mutated), `"cents":0`) {
			t.Fatalf("share=%v: Mutate = %s, %v", share, mutated, ok)
		}
		replay := call(t, s, "2", `{"account":"a","cents":5,"idempotencyKey":"k"}`)
		if got := strings.Contains(string(replay.Result), `"cents":0`); got != share {
			t.Errorf("share=%v: replay %s carries the edit = %v; want %v", share, replay.Result, got, share)
		}
	}
}

// Replicas without a shared store each take every k-th call and keep their
// own records (DOMAIN.md §4, ledger.replicas).
func TestServerReplicasRoundRobin(t *testing.T) {
	s := openServer(t, 2, false, false)
	for i := 1; i <= 2; i++ {
		call(t, s, fmt.Sprint(i), `{"account":"a","cents":5,"idempotencyKey":"k"}`)
	}
	n, recs, _ := s.Summary()
	if n != 2 || len(recs) != 2 || recs[0].Replica != 1 || recs[1].Replica != 2 {
		t.Fatalf("Summary = %d executions, %+v; want 2 executions, one record in each replica", n, recs)
	}
}

// DOMAIN.md §4: in an atomic race connection 1 takes the lock and
// connection 2 is refused while 1 holds it; the notes name both.
func TestRaceStepNotes(t *testing.T) {
	store, _ := sqlite.OpenMemory("/race-notes")
	defer store.Close()
	a, _ := store.Connect()
	b, _ := store.Connect()
	defer a.Close()
	defer b.Close()
	in, _ := ledger.Prepare("charge_account", []byte(`{"account":"a","cents":5,"idempotencyKey":"k"}`), []byte(`1`))
	steps, _ := ledger.Race([]ledger.Conn{a, b}, []ledger.Intent{in, in}, 0, true, true)
	if len(steps) < 2 || steps[0].Phase != ledger.Lock || steps[1].Phase != ledger.Wait {
		t.Fatalf("steps %+v; want lock then wait", steps)
	}
	if got, want := steps[1].Note(in), "Connection 2: BEGIN IMMEDIATE is refused (SQLITE_BUSY) while connection 1 holds the lock; it waits."; got != want {
		t.Errorf("wait note %q; want %q", got, want)
	}
}

// DOMAIN.md §4: two connections race the same charge behind a barrier.
// Atomic (BEGIN IMMEDIATE), one executes and the other replays its result:
// both answers carry the same receipt. Check-then-act, both pass the check
// and the effect runs twice: each answer carries its own execution.
func TestRaceCallsAnswers(t *testing.T) {
	args := json.RawMessage(`{"account":"a","cents":5,"idempotencyKey":"k"}`)
	calls := []ledger.Call{{Tool: "charge_account", Args: args, RPCID: `"r-1"`}, {Tool: "charge_account", Args: args, RPCID: `"r-2"`}}
	for _, tc := range []struct {
		atomic     bool
		sameResult bool // the second answer replays the first's receipt
	}{{true, true}, {false, false}} {
		s := openServer(t, 1, true, false)
		s.Policy = ledger.Policy{Atomic: tc.atomic, Fingerprint: true}
		events, answers, err := s.RaceCalls(0, calls)
		if err != nil || len(answers) != 2 || answers[0].Conn != 0 || answers[1].Conn != 1 {
			t.Fatalf("atomic %v: answers %+v, err %v; want one answer per connection, in order", tc.atomic, answers, err)
		}
		for _, a := range answers {
			if a.Failed || !strings.Contains(string(a.Response), `"result"`) {
				t.Errorf("atomic %v: answer %s failed %v; want a tool result", tc.atomic, a.Response, a.Failed)
			}
		}
		want := `"receipt":"charge-002"`
		if tc.sameResult {
			want = `"receipt":"charge-001"` // the replay of connection 1's execution
		}
		if !strings.Contains(string(answers[1].Response), want) || !strings.Contains(string(answers[0].Response), `"receipt":"charge-001"`) {
			t.Errorf("atomic %v: answers %s and %s; want charge-001 first, then %s", tc.atomic, answers[0].Response, answers[1].Response, want)
		}
		for _, ev := range events {
			if ev.Event().Actor != trace.ActorLedger {
				t.Errorf("atomic %v: race event %+v is not the ledger's", tc.atomic, ev.Event())
			}
		}
	}
}
