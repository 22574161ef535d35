package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/ledger"
)

// TestRunReadsFilesThroughTheLimit (issue 12, Unbounded reads): a file is
// read through the same 4 MiB limit as standard input, so a 256 MiB file
// (sparse: it costs no disk) is refused as too large, exit 2, after
// allocating at most 32 MiB (main read all of it; `run /dev/zero` grew past
// 1.4 GB).
func TestRunReadsFilesThroughTheLimit(t *testing.T) {
	name := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// review reads its file the same way (it read the whole file before).
	for _, verb := range []string{"run", "review"} {
		var out, errOut bytes.Buffer
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err = run([]string{verb, name}, &out, &errOut)
		runtime.ReadMemStats(&after)
		if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), "more than 4194304 bytes (4 MiB), the most mcplab reads") {
			t.Fatalf("%s: exit %d, stderr %q; want 2 and a size error naming the 4 MiB limit", verb, code, errOut.String())
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
			t.Errorf("%s: reading a 256 MiB file allocated %d bytes, want <= 32 MiB", verb, n)
		}
	}
}

// TestRunExitStatus: bad input exits 2 with its located cause (issue 12's
// mutate-result without a ledger panicked on main and exited 2 with a Go
// stack); a panic inside the engine exits 4, not 2, with a message asking
// for a report.
func TestRunExitStatus(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":1,"do":"mutate-result","of":1}]}`), 0o644)
	var out, errOut bytes.Buffer
	err := run([]string{"run", bad}, &out, &errOut)
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), "error: steps[1].do: ") || out.Len() > 0 {
		t.Errorf("mutate-result without a ledger: exit %d, stderr %q, %d bytes out; want 2 and the located cause", code, errOut.String(), out.Len())
	}

	file := filepath.Join(dir, "ledger.json")
	os.WriteFile(file, examplestest.Get(t, "ledger-keyed-race").JSON, 0o644)
	saved := runOptions
	t.Cleanup(func() { runOptions = saved })
	runOptions = engine.Options{OpenLedger: func() (ledger.Store, error) { panic("a bug") }}
	out.Reset()
	errOut.Reset()
	err = run([]string{"run", file}, &out, &errOut)
	if code := exitCode(err); code != 4 || !strings.Contains(errOut.String(), "please report it") || out.Len() > 0 {
		t.Errorf("a panic in the engine: exit %d, stderr %q, %d bytes out; want 4 and a request for a report", code, errOut.String(), out.Len())
	}
}
