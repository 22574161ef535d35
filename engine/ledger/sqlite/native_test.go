//go:build !js

// These tests need a real file system with locks and child processes,
// which GOOS=js under Node does not have; the browser uses the in-memory
// ledger, which the other tests and the golden traces cover.

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

// TestFileReopen: committed records survive closing and reopening the file.
func TestFileReopen(t *testing.T) {
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
