package examplestest_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// TestRunGivesTheGoldenTrace: Run's trace is the built-in scenario's golden
// trace (engine/examples/testdata), byte for byte once encoded, for a
// scenario without a ledger and one whose ledger needs SQLite.
func TestRunGivesTheGoldenTrace(t *testing.T) {
	for _, name := range []string{"a-cancel-then-complete", "flagship-retry-charges-twice"} {
		got, err := engine.Encode(examplestest.Run(t, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "testdata", name+".trace.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: Run's trace differs from the golden trace", name)
		}
	}
}

// fatal records the first Fatalf and stops the goroutine, as a test's does.
type fatal struct {
	testing.TB
	msg string
}

func (f *fatal) Helper() {}
func (f *fatal) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure returns the message helper fails with, "" if it does not.
func failure(helper func(t testing.TB)) string {
	f := &fatal{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		helper(f)
	}()
	wg.Wait()
	return f.msg
}

// TestHelpersFailWithTheName: a missing scenario, one that does not decode
// (version 2) and one that does not run (a step at -1 ms) each fail the
// test with the scenario's name; scenario A decodes without failing it.
func TestHelpersFailWithTheName(t *testing.T) {
	for _, tc := range []struct {
		what   string
		helper func(t testing.TB)
		want   string
	}{
		{"Get of a missing name", func(t testing.TB) { examplestest.Get(t, "no-such") }, "no built-in scenario no-such"},
		{"Run of a missing name", func(t testing.TB) { examplestest.Run(t, "no-such") }, "no built-in scenario no-such"},
		{"DecodeExample of a bad version", func(t testing.TB) {
			examplestest.DecodeExample(t, examples.Example{Name: "v2", JSON: []byte(`{"mcplab":2,"steps":[]}`)})
		}, `scenario v2 does not decode: the "mcplab" member: this lab reads version 1`},
		{"RunExample of a bad step", func(t testing.TB) {
			examplestest.RunExample(t, examples.Example{Name: "late", JSON: []byte(`{"mcplab":1,"steps":[{"at":-1,"do":"call","id":1}]}`)})
		}, "scenario late does not run: steps[0].at"},
	} {
		if got := failure(tc.helper); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s fails with %q, want %q...", tc.what, got, tc.want)
		}
	}
	if got := failure(func(t testing.TB) { examplestest.Decode(t, "a-cancel-then-complete") }); got != "" {
		t.Errorf("Decode of scenario A fails: %s", got)
	}
}
