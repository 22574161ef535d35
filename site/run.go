package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcplab/mcplab/engine"
)

// cmdRun is `site run FILE|-`: it runs one scenario and prints its trace
// JSON (engine.RunJSONWith, with the SQLite ledger for scenarios that have
// one) to stdout. An unreadable file or an invalid
// scenario is a usageError whose text is the scenario error itself
// ("steps[3].at: must be >= 0"), so the process prints
// "error: steps[3].at: must be >= 0" and exits 2.
func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: site run FILE|-\n\nRuns the scenario in FILE (- for standard input) and prints its trace JSON.")
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &usageError{fmt.Errorf("run takes one scenario file (or - for stdin), got %d arguments", fs.NArg())}
	}
	name := fs.Arg(0)
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return &usageError{fmt.Errorf("reading scenario: %w", err)}
	}
	out, err := engine.RunJSONWith(data, runOptions)
	if err != nil {
		return &usageError{err}
	}
	_, err = stdout.Write(out)
	return err
}
