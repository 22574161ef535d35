package sqlite

import (
	"encoding/json"
	"errors"
	"fmt"
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
