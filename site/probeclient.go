package site

// `mcplab probe-client`: the command line of package probeclient, which
// judges a real client against a fresh mock per situation; here are its
// flags, its usage and its exit statuses.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/site/internal/junit"
	"github.com/mcplab/mcplab/site/internal/live"
	"github.com/mcplab/mcplab/site/internal/mock"
	"github.com/mcplab/mcplab/site/internal/probeclient"
)

const probeClientUsage = `usage: mcplab probe-client [-situation NAME]... [-transport stdio|streamable-http] [-protocol P]
       [-out DIR] [-checks] [-json] [-junit FILE] [-idle-timeout MS] [-max-timeout MS] [-limit D] [-timeout D] -- CLIENT COMMAND...

Runs a real MCP client once per situation against a fresh mock server, as
the official conformance suite runs clients: on Streamable HTTP the mock's
URL (http://127.0.0.1:PORT/mcp) is appended as the command's last argument;
on stdio the command gets MCPLAB_SERVER_COMMAND, the JSON array of the
command line to launch as its server. Every run gets MCPLAB_SITUATION (its
name) and MCPLAB_TRANSPORT (stdio or streamable-http). Each situation runs on
both transports unless -transport names one (those of a listen stream or a
session only on Streamable HTTP). Situations:
  slow-progress           a slow tool with progress: idle reset, maximum, telling the server on giving up
  late-response           the response comes after the client's timeout
  progress-after-final    a progress notification after the final response
  listen-dropped          the listen stream breaks, the first reconnect gets 503: growing backoff, refetch
  listen-ended            the server ends the listen stream cleanly: reopen it, refetch
  session-retired         (2025-11-25) a 404 mid-call: initialize again, re-issue once
  lost-response-mutation  an unsafe mutation whose response never comes: no retry with a new id
Prints a line per situation (pass, fail or undecided, the engine's checks of
the mock's transcript, the transcript's path); -json prints them as JSON;
-checks exits 3 when a rule fails. -idle-timeout and -max-timeout state the
client's configured timeouts so the rules can judge them. Rules that judge
a misbehaviour the mock stages on purpose are left out of the verdict (and
skipped in -junit's report, "staged by the mock", never a failure). The
client runs in its own process group, killed at the end of each situation,
at -limit, at -timeout and on SIGINT or SIGTERM; the mock serves loopback only.
A response stream that breaks because the lab stopped the client is marked
in the transcript as the lab's doing ("The lab ended the client"), never
judged as the client's cancellation: a rule that would fail on it is
undecided.

Exit status: 0 done, 1 failure (a signal stopped it, the client could not
start, never launched the mock or never connected to it, a transcript could
not be written), 2 bad input or usage, 3 a check failed (-checks: a situation's
verdict is fail), 4 internal error (a bug in mcplab while judging a
transcript: please report it).`

// probeClientConfig is probe-client's parsed command line: the run
// (probeclient.Config) and what to do with its results.
type probeClientConfig struct {
	probeclient.Config
	checks, json bool
	junit        string // -junit FILE, "" for none
}

// situationFlag is -situation, repeatable.
type situationFlag []string

func (s *situationFlag) String() string { return strings.Join(*s, ",") }
func (s *situationFlag) Set(v string) error {
	if _, ok := mock.SituationNamed(v); !ok {
		return fmt.Errorf("no situation is called %q (they are %s)", v, situationList())
	}
	*s = append(*s, v)
	return nil
}

// parseProbeClient reads probe-client's command line (usageErrors).
func parseProbeClient(args []string, stderr io.Writer) (*probeClientConfig, error) {
	fs := flag.NewFlagSet("probe-client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &probeClientConfig{Config: probeclient.Config{Limit: probeclient.SituationLimit, Timeout: probeclient.TotalLimit}}
	var names situationFlag
	fs.Var(&names, "situation", "run only this situation `NAME` (repeatable; default: all)")
	transport := fs.String("transport", "", "run only on this `transport`: stdio or streamable-http (default: both)")
	fs.StringVar(&c.Protocol, "protocol", mock.ProtocolAuto, "the `revision` the mock speaks: auto (the client's), 2026-07-28 or 2025-11-25")
	fs.StringVar(&c.Dir, "out", "", "`directory` for the transcripts (default: a new temporary directory, printed)")
	fs.BoolVar(&c.checks, "checks", false, "exit 3 if a rule fails (for CI)")
	fs.BoolVar(&c.json, "json", false, "print the results as JSON on standard output")
	fs.StringVar(&c.junit, "junit", "", "also write the results to `FILE` as JUnit XML: a test case per situation, transport and rule")
	fs.Func("idle-timeout", "the client's configured idle timeout in whole `ms` (0: none stated)", wholeMs(&c.IdleTimeoutMs))
	fs.Func("max-timeout", "the client's configured maximum timeout per request in whole `ms`, so max-timeout-enforced and abandon-tells-server can judge it (0: none stated)", wholeMs(&c.MaxTimeoutMs))
	fs.Func("limit", "time limit of one situation's run, a Go `duration` (default 20s)", positiveDuration(&c.Limit))
	fs.Func("timeout", "time limit of the whole run, a Go `duration` (default 5m0s)", positiveDuration(&c.Timeout))
	fs.Usage = func() { fmt.Fprintln(stderr, probeClientUsage); fs.PrintDefaults() }
	if err := parseFlagsOnce(fs, args); err != nil {
		return nil, err
	}
	if err := checkProtocol(c.Protocol); err != nil {
		return nil, err
	}
	switch *transport {
	case "":
		c.Transports = []string{scenario.TransportStdio, scenario.TransportHTTP}
	case scenario.TransportStdio, scenario.TransportHTTP:
		c.Transports = []string{*transport}
	default:
		return nil, &usageError{fmt.Errorf("-transport %q: want stdio or streamable-http", *transport)}
	}
	for _, st := range mock.Situations {
		if len(names) == 0 || strings.Contains(","+names.String()+",", ","+st.Name+",") {
			c.Situations = append(c.Situations, st)
		}
	}
	if c.Argv = fs.Args(); len(c.Argv) == 0 {
		fs.Usage()
		return nil, &usageError{errors.New("probe-client needs the client: -- CLIENT COMMAND [ARG...]")}
	}
	mockArgv, err := mockCommand()
	if err != nil {
		return nil, fmt.Errorf("finding mcplab's own path (the stdio server command): %w", err)
	}
	c.Mock = mockArgv
	return c, nil
}

// mockCommand is the command line that runs `mcplab mock`, which a stdio
// client launches as its server: this executable's own.
var mockCommand = func() ([]string, error) {
	self, err := os.Executable()
	return []string{self, "mock"}, err
}

// cmdProbeClient is `mcplab probe-client`. Errors: a bad command line is a
// usageError (exit 2); with -checks a failing rule a checksFailed (exit
// 3); a signal stops it after killing the client's process group (exit 1).
func cmdProbeClient(args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil { // judging a transcript: never the client's fault
			err = &internalError{&entry.InternalError{Value: r, Stack: debug.Stack()}}
		}
	}()
	c, err := parseProbeClient(args, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), live.Signals...)
	defer stop()
	if c.Dir == "" {
		if c.Dir, err = os.MkdirTemp("", "mcplab-probe-client-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	results := probeclient.Run(ctx, c.Config, stderr)
	if c.json {
		b, _ := json.MarshalIndent(struct {
			Peer       map[string]any       `json:"peer"`
			Situations []probeclient.Result `json:"situations"`
		}{map[string]any{"role": "client", "command": c.Argv}, results}, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else {
		for _, r := range results {
			probeclient.Print(stdout, r)
		}
		probeclient.PrintTranscripts(stdout, c.Dir, results)
	}
	if c.junit != "" {
		if err := junit.WriteFile(c.junit, "mcplab probe-client", junitOfProbeClient(strings.Join(c.Argv, " "), results)); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return errors.New("stopped by a signal (the client's process group was killed)")
	}
	var failed []string
	for _, r := range results {
		if r.Verdict == probeclient.Fail {
			failed = append(failed, r.Name+" on "+r.Transport)
		}
	}
	if c.checks && len(failed) > 0 {
		return &checksFailed{rules: failed}
	}
	broke := 0
	for _, r := range results {
		if r.Broke {
			broke++
		}
	}
	if broke > 0 {
		return fmt.Errorf("%d run(s) could not happen (see above)", broke)
	}
	return nil
}
