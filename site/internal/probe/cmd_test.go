package probe

// The command line the tests speak: the flags of `mcplab probe` read into
// Options, and a Report's outcome as the exit status the command gives it
// (package site's probeExit; site's tests run the command itself).

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/live"
)

// exitError is an outcome with the command's exit status: 1 failure, 2
// bad input, 3 a check failed.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// exitCode is err's exit status: 0 for nil, 1 for an error with none.
func exitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	}
	return 1
}

// runArgs runs the probe for a command line of `mcplab probe` (its flags
// -out, -tool, -args, -checks, -json, -limit, -timeout, -protocol, -only,
// -header, then -- COMMAND... or a URL), the lines on stdout (stderr with
// -json, the JSON on stdout), and returns the outcome as the command's.
func runArgs(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := Options{Log: stderr}
	fs.StringVar(&o.Dir, "out", "", "")
	fs.StringVar(&o.Tool, "tool", "", "")
	argsJSON := fs.String("args", "{}", "")
	check, asJSON := fs.Bool("checks", false, ""), fs.Bool("json", false, "")
	fs.DurationVar(&o.Limit, "limit", 0, "")
	fs.DurationVar(&o.Timeout, "timeout", 0, "")
	fs.StringVar(&o.Protocol, "protocol", "", "")
	only := fs.String("only", "", "")
	header := http.Header{}
	fs.Func("header", "", func(v string) error { k, v, _ := strings.Cut(v, ":"); header.Add(k, strings.TrimSpace(v)); return nil })
	if err := fs.Parse(args); err != nil {
		return &exitError{2, err}
	}
	fs.Visit(func(f *flag.Flag) { o.ArgsGiven = o.ArgsGiven || f.Name == "args" })
	if err := json.Unmarshal([]byte(*argsJSON), &o.Args); err != nil {
		return &exitError{2, err}
	}
	if *only != "" {
		o.Only = strings.Split(*only, ",")
	}
	if len(header) > 0 {
		o.Header = header
	}
	if rest := fs.Args(); len(rest) == 1 && strings.Contains(rest[0], "://") {
		o.URL = rest[0]
	} else {
		o.Argv = rest
	}
	text := stdout
	if *asJSON {
		text = stderr
	}
	ctx, stop := SignalContext(ctx, stderr, o.URL != "")
	defer stop()
	rep, err := Run(ctx, o, text)
	if errors.As(err, new(*InputError)) {
		return &exitError{2, err}
	} else if err != nil {
		return err
	}
	if *asJSON {
		if err := rep.WriteJSON(stdout); err != nil {
			return err
		}
	}
	return outcome(rep, *check)
}

// outcome is rep's exit status as the command gives it: 3 with check and
// a failed situation, 1 when stopped, 2 for an option the server
// contradicts, 1 when a situation could not run.
func outcome(rep *Report, check bool) error {
	switch failed := rep.Failed(); {
	case check && len(failed) > 0:
		return &exitError{3, fmt.Errorf("%d check(s) failed: %s", len(failed), strings.Join(failed, ", "))}
	case rep.Stopped != "":
		return &exitError{1, fmt.Errorf("stopped by %s", rep.Stopped)}
	case rep.BadInput() != nil:
		return &exitError{2, rep.BadInput()}
	case rep.Broke() > 0:
		return &exitError{1, fmt.Errorf("%d situation(s) could not run to their end (see above)", rep.Broke())}
	}
	return nil
}

// judgeFile judges the transcript at file alone, as `mcplab run -checks
// FILE` does, its lines on w ("pass  RULE", "FAIL  RULE: DETAIL", "  ?
// RULE: DETAIL"), message-valid among its checks: exit status 3 when a
// rule fails.
func judgeFile(file string, w io.Writer) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	tr, err := transcript.Import(data, transcript.Options{})
	if err != nil {
		return &exitError{2, err}
	}
	tr.Checks = append(tr.Checks, schema.Check(tr)) // as the native command adds it
	var failed []string
	for _, c := range tr.Checks {
		switch {
		case c.OK == nil:
			fmt.Fprintf(w, "  ?   %s: %s\n", c.Rule, live.CiteLines(tr, c.Detail))
		case *c.OK:
			fmt.Fprintf(w, "pass  %s\n", c.Rule)
		default:
			failed = append(failed, string(c.Rule))
			fmt.Fprintf(w, "FAIL  %s: %s\n", c.Rule, live.CiteLines(tr, c.Detail))
		}
	}
	if len(failed) > 0 {
		return &exitError{3, fmt.Errorf("%d check(s) failed: %s", len(failed), strings.Join(failed, ", "))}
	}
	return nil
}
