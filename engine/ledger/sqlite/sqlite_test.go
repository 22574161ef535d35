package sqlite

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcplab/mcplab/engine/ledger"
)

func memLedger(t *testing.T) *Ledger {
	t.Helper()
	l, err := OpenMemory(fmt.Sprintf("/test-%s", t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func connect(t *testing.T, l *Ledger) ledger.Conn {
	t.Helper()
	c, err := l.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func charge(t *testing.T, args string, rpcID string) ledger.Intent {
	t.Helper()
	in, err := ledger.Prepare("charge_account", json.RawMessage(args), json.RawMessage(rpcID))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestReferenceCharge proves DOMAIN.md §4's reference numbers: the
// fingerprint is SHA-256 hex of {"account":...,"cents":...} (keys sorted,
// no spaces; value computed independently), the receipt is charge-001, the
// result is {"account","cents","receipt","rpcId"}, and a replay with the
// same key returns the original rpcId with no new execution.
func TestReferenceCharge(t *testing.T) {
	c := connect(t, memLedger(t))
	in := charge(t, `{"cents":1200,"account":"acct-9","idempotencyKey":"checkout-7"}`, `41`)
	if string(in.Args) != `{"account":"acct-9","cents":1200}` || in.Fingerprint != "4a13f80605936335b9c09fd492fef4f4e94766029227b769a8502134859de904" {
		t.Fatalf("args %s fingerprint %s", in.Args, in.Fingerprint)
	}
	first, err := ledger.Apply(c, 100, in, true)
	if err != nil {
		t.Fatal(err)
	}
	if string(first.Result) != `{"account":"acct-9","cents":1200,"receipt":"charge-001","rpcId":41}` || first.Replayed || first.Execution != 1 {
		t.Fatalf("first charge = %+v %s", first, first.Result)
	}
	retry := charge(t, `{"account":"acct-9","cents":1200,"idempotencyKey":"checkout-7"}`, `42`)
	again, err := ledger.Apply(c, 200, retry, true)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Replayed || string(again.Result) != string(first.Result) {
		t.Fatalf("replay = %+v %s, want the stored result with rpcId 41", again, again.Result)
	}
	if n, _ := c.Executions(); n != 1 {
		t.Fatalf("executions = %d, want 1", n)
	}
}

// TestFingerprintPinned pins the fingerprints against values computed
// outside Go (Python hashlib over the same canonical JSON).
func TestFingerprintPinned(t *testing.T) {
	cases := []struct{ tool, args, canon, fp string }{
		{"charge_account", `{"cents":1200,"account":"acct-9"}`, `{"account":"acct-9","cents":1200}`, "4a13f80605936335b9c09fd492fef4f4e94766029227b769a8502134859de904"},
		{"reserve_inventory", `{"tenant":"acme","sku":"SKU-1","quantity":2}`, `{"operation":"reserve_inventory","quantity":2,"sku":"SKU-1","tenant":"acme"}`, "ac22e0c822fc121c21c1e17e22f5393419b67579c46ab6a9f217bdb2a2495ddf"},
	}
	for _, c := range cases {
		in, err := ledger.Prepare(c.tool, json.RawMessage(c.args), json.RawMessage(`1`))
		if err != nil {
			t.Fatal(err)
		}
		if string(in.Args) != c.canon || in.Fingerprint != c.fp {
			t.Errorf("%s: canonical %s fingerprint %s; want %s %s", c.tool, in.Args, in.Fingerprint, c.canon, c.fp)
		}
	}
}

// TestRules proves the ledger rules of DOMAIN.md §4 one by one.
func TestRules(t *testing.T) {
	t.Run("key reused with different arguments is rejected", func(t *testing.T) {
		c := connect(t, memLedger(t))
		ledger.Apply(c, 1, charge(t, `{"account":"a","cents":100,"idempotencyKey":"k"}`, `1`), true)
		_, err := ledger.Apply(c, 2, charge(t, `{"account":"a","cents":999,"idempotencyKey":"k"}`, `2`), true)
		if !errors.Is(err, ledger.ErrKeyConflict) {
			t.Fatalf("err = %v, want ledger.ErrKeyConflict", err)
		}
		if n, _ := c.Executions(); n != 1 {
			t.Fatalf("executions = %d: a rejected call must not execute", n)
		}
	})
	t.Run("without a key every call executes", func(t *testing.T) {
		c := connect(t, memLedger(t))
		for i := 0; i < 3; i++ {
			if _, err := ledger.Apply(c, int64(i), charge(t, `{"account":"a","cents":100}`, fmt.Sprint(i)), true); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := c.Executions(); n != 3 {
			t.Fatalf("executions = %d, want 3", n)
		}
	})
	t.Run("cents <= 0 is rejected", func(t *testing.T) {
		for _, a := range []string{`{"account":"a","cents":0}`, `{"account":"a","cents":-5}`, `{"account":"a"}`, `[]`} {
			if _, err := ledger.Prepare("charge_account", json.RawMessage(a), json.RawMessage(`1`)); !errors.Is(err, ledger.ErrInvalid) {
				t.Errorf("%s: err = %v, want ledger.ErrInvalid", a, err)
			}
		}
	})
	t.Run("mutating a returned result cannot change the stored one", func(t *testing.T) {
		c := connect(t, memLedger(t))
		in := charge(t, `{"account":"a","cents":100,"idempotencyKey":"k"}`, `1`)
		out, _ := ledger.Apply(c, 1, in, true)
		out.Result[2] = 'X' // the caller scribbles on what it got
		again, _ := ledger.Apply(c, 2, in, true)
		if string(again.Result) != `{"account":"a","cents":100,"receipt":"charge-001","rpcId":1}` {
			t.Fatalf("replay after mutation = %s", again.Result)
		}
	})
	t.Run("committed records survive closing and reopening", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "ledger.db")
		l, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := l.Connect()
		first, _ := ledger.Apply(c, 1, charge(t, `{"account":"a","cents":100,"idempotencyKey":"k"}`, `1`), true)
		c.Close()
		l2, _ := OpenFile(path)
		c2 := connect(t, l2)
		again, err := ledger.Apply(c2, 2, charge(t, `{"account":"a","cents":100,"idempotencyKey":"k"}`, `2`), true)
		if err != nil || !again.Replayed || string(again.Result) != string(first.Result) {
			t.Fatalf("after reopen: %+v %v", again, err)
		}
	})
}

// TestBeginImmediateLocks proves the race mechanism the engine drives: while
// one connection holds BEGIN IMMEDIATE, a second connection's BEGIN
// IMMEDIATE is refused with ledger.ErrBusy, then succeeds after the commit and
// replays the committed record (memdb shares the database by name).
func TestBeginImmediateLocks(t *testing.T) {
	l := memLedger(t)
	a, b := connect(t, l), connect(t, l)
	in := charge(t, `{"account":"a","cents":100,"idempotencyKey":"k"}`, `1`)
	if err := a.Begin(); err != nil {
		t.Fatal(err)
	}
	if err := b.Begin(); !errors.Is(err, ledger.ErrBusy) {
		t.Fatalf("second BEGIN IMMEDIATE: %v, want ledger.ErrBusy", err)
	}
	if _, err := a.Execute(1, in, true); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := b.Begin(); err != nil {
		t.Fatal(err)
	}
	rec, err := b.Lookup("k")
	if err != nil || rec == nil {
		t.Fatalf("b sees no record: %v", err)
	}
	b.Commit()
	if n, _ := b.Executions(); n != 1 {
		t.Fatalf("executions = %d, want 1", n)
	}
}

// TestGoroutineRace races goroutines on independent connections to one
// file many times (run with -race): the same key always executes once.
func TestGoroutineRace(t *testing.T) {
	dir := t.TempDir()
	for round := 0; round < 20; round++ {
		l, err := OpenFile(filepath.Join(dir, fmt.Sprintf("race-%d.db", round)))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		replays := make([]bool, 4)
		for g := range replays {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := l.Connect()
				if err != nil {
					t.Error(err)
					return
				}
				defer c.Close()
				in, _ := ledger.Prepare("charge_account", json.RawMessage(`{"account":"a","cents":100,"idempotencyKey":"race"}`), json.RawMessage(fmt.Sprint(g)))
				out, err := ledger.Apply(c, int64(g), in, true)
				if err != nil {
					t.Error(err)
					return
				}
				replays[g] = out.Replayed
			}()
		}
		wg.Wait()
		c, _ := l.Connect()
		n, _ := c.Executions()
		c.Close()
		fresh := 0
		for _, r := range replays {
			if !r {
				fresh++
			}
		}
		if n != 1 || fresh != 1 {
			t.Fatalf("round %d: %d executions, %d fresh results; want exactly one", round, n, fresh)
		}
	}
}

// TestCrashAfterCommit proves durability: a child process commits a charge
// and is killed (SIGKILL) right after the commit, before it could answer;
// reopening the file shows the record, and a retry with the key replays it
// with no second execution.
func TestCrashAfterCommit(t *testing.T) {
	if path := os.Getenv("LEDGER_CRASH_CHILD"); path != "" {
		l, err := OpenFile(path)
		if err != nil {
			os.Exit(3)
		}
		c, _ := l.Connect()
		in, _ := ledger.Prepare("charge_account", json.RawMessage(`{"account":"a","cents":700,"idempotencyKey":"crash-1"}`), json.RawMessage(`41`))
		if _, err := ledger.Apply(c, 1, in, true); err != nil {
			os.Exit(4)
		}
		os.Stdout.WriteString("committed\n")
		p, _ := os.FindProcess(os.Getpid())
		p.Kill() // SIGKILL: no deferred close, no answer
		select {}
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashAfterCommit$")
	cmd.Env = append(os.Environ(), "LEDGER_CRASH_CHILD="+path)
	out, err := cmd.Output()
	if string(out) != "committed\n" {
		t.Fatalf("child said %q (%v)", out, err)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("child was not killed: %v", err)
	}
	l, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, l)
	again, err := ledger.Apply(c, 2, charge(t, `{"account":"a","cents":700,"idempotencyKey":"crash-1"}`, `42`), true)
	if err != nil || !again.Replayed || string(again.Result) != `{"account":"a","cents":700,"receipt":"charge-001","rpcId":41}` {
		t.Fatalf("after the crash: %+v %s %v", again, again.Result, err)
	}
	if n, _ := c.Executions(); n != 1 {
		t.Fatalf("executions = %d, want 1", n)
	}
}

// TestMemoryReopen proves the in-memory ledger keeps committed records
// while every connection is closed and reopened (the browser's reopen
// control), until the ledger itself is closed.
func TestMemoryReopen(t *testing.T) {
	l := memLedger(t)
	c, _ := l.Connect()
	first, err := ledger.Apply(c, 1, charge(t, `{"account":"a","cents":100,"idempotencyKey":"k"}`, `1`), true)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	c2 := connect(t, l)
	again, err := ledger.Apply(c2, 2, charge(t, `{"account":"a","cents":100,"idempotencyKey":"k"}`, `2`), true)
	if err != nil || !again.Replayed || string(again.Result) != string(first.Result) {
		t.Fatalf("after reopening every connection: %+v %v", again, err)
	}
}
