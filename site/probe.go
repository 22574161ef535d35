package site

// `mcplab probe`: the command line of package probe (site/internal/probe),
// which drives a live MCP server through the lab's situations; here are
// its flags, its usage and its exit statuses.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mcplab/mcplab/site/internal/junit"
	"github.com/mcplab/mcplab/site/internal/probe"
)

const probeUsage = `usage: mcplab probe [-protocol P] [-tool NAME] [-args JSON] [-out DIR] [-checks] [-json] [-junit FILE] [-limit D] [-timeout D] [-only LIST] -- COMMAND [ARG...]
       mcplab probe [-protocol P] [-tool NAME] [-args JSON] [-out DIR] [-checks] [-json] [-junit FILE] [-limit D] [-timeout D] [-only LIST] [-header 'Name: value'...] URL

Drives a live MCP server (stdio: the probe starts COMMAND; Streamable HTTP:
the URL) through the lab's situations: a clean call with a progress token,
cancel after the first progress, cancel at once, the cancel/complete race
swept around the tool's completion time, bad cancellations then a normal
call, on HTTP closing the stream instead, and a client idle timeout shorter
than the progress interval. Prints one line per situation with its
verdicts, writes each transcript (the lab's JSON Lines, observed by the
client, real times) to -out, and with -checks exits 3 if a rule is violated.
It speaks -protocol 2026-07-28 (stateless: server/discover, params._meta
on every request, the request headers on every POST), 2025-11-25 (the
initialize handshake and its session) or, by default, auto: server/discover
first, then initialize when the server does not speak 2026-07-28. After each
cancellation the probe sends a fence (ping; server/discover under
2026-07-28, which has no ping): whatever the server sends for the request
after answering it, it sent after reading the cancellation. Under
2026-07-28 on Streamable HTTP a cancellation closes the request's stream,
after which the client sees nothing of it: those situations are undecided.
A situation whose deciding rule is undecided prints undecided, never pass. Flags come before the command or URL. The URL is http:// or
https://; -header (repeatable) adds a header to every request, e.g.
-header 'Authorization: Bearer TOKEN' for a server that wants
authentication (it answers 401). A stdio server is started afresh for each
situation and ended gently after it: its standard input closed, 1 s to
leave, then SIGTERM to its process group, 2 s, then SIGKILL to whatever is
left (so mcplab mock or mcplab proxy as the server writes its transcript).
SIGINT, SIGTERM and SIGHUP stop the probe and end the server's process
group the same way. A stdio server's stdout may carry
only JSON-RPC messages: any other line fails the situation.`

// cmdProbe is `mcplab probe` (probe.Run). Errors: a bad command line
// (flags after the URL, a URL that is not http(s), a -tool the server does
// not list) is a usageError (exit 2); with -checks a violated rule is a
// checksFailed (exit 3); a situation that could not run (no answer, the
// server died or was never reached) or a signal (probe.SignalContext)
// makes the probe exit 1 after printing every line.
func cmdProbe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := probe.Options{Log: stderr, Limit: probe.SituationLimit, Timeout: probe.TotalLimit}
	fs.StringVar(&o.Tool, "tool", "", "the tool to call: one that takes a while and reports progress when given a token (default: the first listed)")
	argsJSON := fs.String("args", "{}", "the tool's arguments, a JSON object")
	fs.StringVar(&o.Dir, "out", "", "directory for the transcripts (default: a new temporary directory, printed)")
	check := fs.Bool("checks", false, "exit 3 if any rule is violated (for CI)")
	asJSON := fs.Bool("json", false, "print the verdicts as JSON on standard output (the lines go to standard error)")
	junitFile := fs.String("junit", "", "also write the verdicts to `FILE` as JUnit XML: a test case per situation and rule")
	fs.Func("limit", "time limit of one situation, a Go `duration` such as 15s or 2m (default 15s)", positiveDuration(&o.Limit))
	fs.Func("timeout", "time limit of the whole probe, a Go `duration` (default 1m0s)", positiveDuration(&o.Timeout))
	fs.StringVar(&o.Protocol, "protocol", probe.Auto, "the protocol revision to speak: auto (server/discover, then initialize if the server does not speak 2026-07-28), 2026-07-28 or 2025-11-25")
	only := fs.String("only", "", "run only these situations (comma-separated names; the warm-up \"clean\" always runs)")
	var headers headerFlag
	fs.Var(&headers, "header", "an HTTP header for every request to the URL, 'Name: value' (repeatable; e.g. 'Authorization: Bearer TOKEN')")
	fs.Usage = func() { fmt.Fprintln(stderr, probeUsage); fs.PrintDefaults() }
	if err := parseFlagsOnce(fs, args); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { o.ArgsGiven = o.ArgsGiven || f.Name == "args" })
	if err := probeTarget(&o, fs, fs.Args()); err != nil {
		return err
	}
	o.Header, o.Only = http.Header(headers), onlyList(*only)
	if err := json.Unmarshal([]byte(*argsJSON), &o.Args); err != nil || o.Args == nil {
		return &usageError{fmt.Errorf("-args must be a JSON object: %q", *argsJSON)}
	}
	ctx, stop := probe.SignalContext(context.Background(), stderr, o.URL != "")
	defer stop()
	text := stdout
	if *asJSON {
		text = stderr
	}
	rep, err := probe.Run(ctx, o, text)
	if err != nil {
		return probeError(err)
	}
	if *asJSON {
		if err := rep.WriteJSON(stdout); err != nil {
			return err
		}
	}
	if *junitFile != "" {
		if err := junit.WriteFile(*junitFile, "mcplab probe", junitOfProbe(strings.Join(fs.Args(), " "), rep.Situations)); err != nil {
			return err
		}
	}
	return probeExit(rep, *check)
}

// probeError is probe.Run's error as the command returns it: bad options
// (*probe.InputError) are a usageError (exit 2).
func probeError(err error) error {
	if errors.As(err, new(*probe.InputError)) {
		return &usageError{err}
	}
	return err
}

// onlyList is -only, a comma-separated list of situation names (blanks
// left out; probe.Run refuses a name it does not know).
func onlyList(list string) []string {
	var names []string
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// positiveDuration parses a -limit or -timeout value into *d: a Go
// duration above zero ("15s", "2m", "1m30s"), else an error saying so.
func positiveDuration(d *time.Duration) func(string) error {
	return func(s string) error {
		v, err := time.ParseDuration(s)
		if err != nil || v <= 0 {
			return fmt.Errorf("want a duration above zero such as 15s, 2m or 1m30s")
		}
		*d = v
		return nil
	}
}

// probeTarget reads the server from the command line's rest into o: a URL
// (http or https, nothing after it) or a stdio command. Errors are
// usageErrors.
func probeTarget(o *probe.Options, fs *flag.FlagSet, rest []string) error {
	switch {
	case len(rest) == 0:
		fs.Usage()
		return &usageError{errors.New("probe needs a server: -- COMMAND [ARG...] or a URL")}
	case strings.Contains(rest[0], "://"):
		scheme, _, _ := strings.Cut(rest[0], "://")
		if s := strings.ToLower(scheme); s != "http" && s != "https" {
			return &usageError{fmt.Errorf("%s: the probe talks stdio (-- COMMAND) or Streamable HTTP (an http:// or https:// URL), not %s", rest[0], scheme)}
		}
		if len(rest) > 1 {
			return &usageError{fmt.Errorf("flags go before the URL (mcplab probe [flags] URL); after %s came %s", rest[0], strings.Join(rest[1:], " "))}
		}
		o.URL = rest[0]
	default:
		o.Argv = rest
	}
	return nil
}

// probeExit is the probe's error for rep: with check (-checks) a
// checksFailed naming the failed situations and rules (exit 3); a signal's
// stop, a command line the server contradicts (exit 2), or situations that
// could not run (exit 1); nil otherwise.
func probeExit(rep *probe.Report, check bool) error {
	if failed := rep.Failed(); check && len(failed) > 0 {
		return &checksFailed{rules: failed}
	}
	if rep.Stopped != "" {
		return fmt.Errorf("stopped by %s", rep.Stopped)
	}
	if err := rep.BadInput(); err != nil {
		return &usageError{err} // the command line named what the server does not have
	}
	if n := rep.Broke(); n > 0 {
		return fmt.Errorf("%d situation(s) could not run to their end (see above)", n)
	}
	return nil
}

// headerFlag is -header, repeatable: each 'Name: value' is added to every
// HTTP request the probe sends.
type headerFlag http.Header

func (h *headerFlag) String() string { return "" }

func (h *headerFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return fmt.Errorf("want 'Name: value', got %q", v)
	}
	if *h == nil {
		*h = headerFlag{}
	}
	http.Header(*h).Add(name, strings.TrimSpace(value))
	return nil
}
