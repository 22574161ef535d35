// Package site is the mcplab command's verbs: flags, usage, exit statuses
// and the work each verb does or hands to its package. The command itself
// is site/cmd/mcplab (`go install github.com/mcplab/mcplab/site/cmd/mcplab@latest`
// installs it as mcplab; `make mcplab` builds it as bin/mcplab; `go run
// ./site/cmd/mcplab` runs it from a checkout):
//
//	mcplab build [-out dist] [-base-url URL] [-cache DIR]  compile the wasm, prerender every page into dist/
//	mcplab serve [-dir dist] [-addr :8080] [-build]  serve dist/ (PORT overrides the port; -build builds it first)
//	mcplab run FILE|-|LINK                  print the trace JSON of a scenario, share link or transcript
//	mcplab review [-json] [-op ID] FILE|-|LINK  the reliability review of one call (engine/review)
//	mcplab explore [-json] [-vary PATH=FROM..TO[/BY]]... FILE|-|LINK  every timing in a window (engine/explore)
//	mcplab probe [flags] -- CMD | URL     drive a live MCP server through the lab's situations
//	mcplab proxy [flags] URL | -- CMD     record (and fault) the path between a real client and server
//	mcplab mock [flags] SCENARIO          play a scenario's server handlers to one real client
//	mcplab probe-client [flags] -- CMD    judge a real client against the lab's situations
//	mcplab links                            the share link length of every built-in scenario
//
// The build is deterministic apart from the wasm binary's toolchain: the
// pages are the templ components of package templates rendered over the
// engine's trace of every built-in scenario (package examples). Every page
// is rendered into a buffer before it is written, so an error never leaves
// half a page. The doc comment of build lists the files of dist/; README.md
// says which headers a static host must send (dist/_headers holds them).
package site

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// Main runs the command line args (without the program name), writing to
// stdout and stderr, and returns the process's exit status: 0 done, 1
// failure, 2 bad input or usage, 3 a check failed, 4 an internal error
// (the statuses of usage).
func Main(args []string, stdout, stderr io.Writer) int {
	if err := run(args, stdout, stderr); err != nil {
		return exitCode(err)
	}
	return 0
}

// usageError marks an error caused by the command line or the input (a bad
// flag, an unreadable or invalid scenario): the process exits with status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// internalError marks a bug in the lab found while running a scenario (a
// recovered panic, entry.ErrInternal), never a fault of the input: the
// process exits with status 4 and the message asks for a report.
type internalError struct{ err error }

func (e *internalError) Error() string { return e.err.Error() }
func (e *internalError) Unwrap() error { return e.err }

// exitCode maps an error returned by run to the process exit status: 2 for
// usage and input errors, 3 for `run -checks` with a violated check or
// `explore` with a counterexample, 4 for an internal error (a bug: please
// report it), 1 for anything else.
func exitCode(err error) int {
	var ie *internalError
	if errors.As(err, &ie) {
		return 4
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	var cf *checksFailed
	if errors.As(err, &cf) {
		return 3
	}
	var ce *counterexamplesFound
	if errors.As(err, &ce) {
		return 3
	}
	return 1
}

const usage = `usage: mcplab <command> [flags]

commands:
  build [-out dist] [-base-url URL] [-cache DIR]
                                    compile the wasm and prerender the site into a directory
                                    (-base-url: where it will be served; adds oEmbed files;
                                    -cache: the build cache, default ~/.cache/mcplab)
  serve [-dir dist] [-addr :8080] [-build [-cache DIR]]
                                    serve a built site (PORT overrides the port; -build builds
                                    it first and serves while the compressed copies are made)
  run [-side S] [-observer O] [-zone Z] [-latency MS] [-max-timeout MS] [-checks]
      [-junit FILE] [-base-url URL] FILE|-|LINK
                                    print the trace JSON of a scenario file (- for stdin), a share
                                    link (#s=... or #example=NAME) or a transcript of real traffic;
                                    -checks lists the checks and exits 3 if one is violated (-base-url:
                                    where the rule pages are; -junit: the checks as JUnit XML too)
  review [-json] [-op ID] [-link-base URL] FILE|-|LINK
                                    the reliability review of one call of a scenario (default: the
                                    first call) as Markdown, or JSON with -json (/review.schema.json):
                                    races, retry class, idempotency, flow control, recovery, failure cards
  explore [-json] [-vary PATH=FROM..TO[/BY]]... [-max-runs N] [-link-base URL] [-junit FILE]
          FILE|-|LINK
                                    run a scenario over every timing in a window (its "explore" member or
                                    -vary): outcome classes and their regions, the smallest counterexample
                                    of every failing rule with its link; exits 3 if one exists
  links                             the share link length of every built-in scenario
  version                           the mcplab build (its module version and commit) and Go toolchain,
                                    to quote in a bug report
  probe [-tool NAME] [-args JSON] [-out DIR] [-checks] [-json] [-junit FILE] [-limit D]
        [-timeout D] [-only LIST] [-protocol P] [-header 'Name: value'...] -- COMMAND [ARG...] | URL
                                    drive a live MCP server (stdio or Streamable HTTP) through the
                                    lab's situations, judge each transcript; -checks exits 3 on a violation
  proxy [-listen ADDR] [-faults SPEC] [-out DIR] (URL | -- SERVER COMMAND...)
                                    sit between a real client and server (Streamable HTTP or stdio),
                                    inject intermediary faults, record both hops and judge them on exit
  mock [-http ADDR] [-out DIR] [-name BASE] [-protocol auto|2026-07-28|2025-11-25] [-max-timeout MS]
       [-idle-timeout MS] [-verdicts=false] SCENARIO | -situation NAME
                                    play a scenario's server handlers in real time to one real client
                                    (stdio, or Streamable HTTP at http://ADDR/mcp); judge on its leaving
  probe-client [-situation NAME]... [-transport T] [-protocol P] [-out DIR] [-checks] [-json] [-junit FILE]
        [-idle-timeout MS] [-max-timeout MS] [-limit D] [-timeout D] -- CLIENT COMMAND...
                                    run a real client against a fresh mock per situation (slow progress,
                                    late response, a dropped listen stream...); -checks exits 3 on a fail

mcplab help COMMAND (or mcplab COMMAND -h) prints one command's usage and flags.

exit status: 0 done, 1 failure, 2 bad input or usage, 3 a check failed (run -checks; explore:
a counterexample exists), 4 internal error (a bug in mcplab: please report it)
`

// run is the whole command: it dispatches args to a subcommand, writes its
// output to stdout and diagnostics to stderr, and returns an error for main
// to turn into an exit status (exitCode). Every error is also printed to
// stderr as "error: <message>" (for a scenario: "error: steps[3].at: must
// be >= 0"), so callers need not print it again.
func run(args []string, stdout, stderr io.Writer) error {
	err := dispatch(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // -h: the FlagSet printed its usage
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
	}
	return err
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return &usageError{errors.New("missing command")}
	}
	switch args[0] {
	case "build":
		return cmdBuild(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "review":
		return cmdReview(args[1:], stdout, stderr)
	case "explore":
		return cmdExplore(args[1:], stdout, stderr)
	case "links":
		return cmdLinks(args[1:], stdout, stderr)
	case "probe":
		return cmdProbe(args[1:], stdout, stderr)
	case "proxy":
		return cmdProxy(args[1:], stdout, stderr)
	case "mock":
		return cmdMock(args[1:], stdout, stderr)
	case "probe-client":
		return cmdProbeClient(args[1:], stdout, stderr)
	case "version", "-version", "--version":
		return cmdVersion(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		return cmdHelp(args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return &usageError{fmt.Errorf("unknown command %q", args[0])}
}

// verbs are the commands dispatch runs, in usage's order (make help and
// the Makefile's header list them all).
var verbs = []string{"build", "serve", "run", "review", "explore", "probe", "proxy", "mock", "probe-client", "links", "version"}

// cmdHelp is `mcplab help [VERB]`: the general usage on stdout, or one
// verb's usage and flags (what `mcplab VERB -h` prints, here on stdout).
// An unknown verb, or more than one, is a usageError; a failed write to
// stdout is returned (exit 1), as run's and review's are.
func cmdHelp(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) == 0:
		_, err := io.WriteString(stdout, usage)
		return err
	case len(args) > 1:
		fmt.Fprint(stderr, usage)
		return &usageError{fmt.Errorf("help takes one command, got %q", args)}
	case !slices.Contains(verbs, args[0]):
		fmt.Fprint(stderr, usage)
		return &usageError{fmt.Errorf("help %s: not a command; want one of %s", args[0], strings.Join(verbs, ", "))}
	}
	w := &stickyWriter{w: stdout}
	err := dispatch([]string{args[0], "-h"}, w, w)
	if w.err != nil {
		return w.err
	}
	return err
}

// stickyWriter writes to w until a write fails, then keeps that error
// (err) and writes nothing more: for output made of many writes whose
// errors the writer's users do not return (a FlagSet's usage, a
// tabwriter's lines).
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// versionUsage is what `mcplab version -h` and `mcplab help version` print.
const versionUsage = `usage: mcplab version

Prints the mcplab build (its module version and commit) and Go toolchain
on one line, to quote in a bug report.`

// cmdVersion is `mcplab version`: it prints version()'s line. It takes no
// arguments: one is a usageError (exit 2), not silently ignored. A failed
// write is returned (exit 1).
func cmdVersion(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, versionUsage) }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &usageError{fmt.Errorf("version takes no arguments, got %q", fs.Args())}
	}
	_, err := fmt.Fprintln(stdout, version())
	return err
}

// parseFlags parses a subcommand's flags, before or after its arguments
// ("run -side server log" and "run log -side server" both work), with
// parseFlagsOnce's errors. fs.Args() are then the positional arguments in
// order.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := parseFlagsOnce(fs, args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

// parseFlagsOnce is fs.Parse(args) for a subcommand: -h prints the
// subcommand's usage and returns flag.ErrHelp; a bad flag returns a
// usageError saying what is wrong once and where the flags are listed
// (`invalid value "7.5" for flag -latency: ...; see mcplab help run`),
// without the whole usage, as the go command does.
func parseFlagsOnce(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard) // the flag package would print the error and the usage
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(out)
			usage()
			return err
		}
		return &usageError{fmt.Errorf("%w; see mcplab help %s", err, fs.Name())}
	}
	return nil
}

// version is the line `mcplab version` prints: "mcplab VERSION (commit
// REV[, modified], DATE) GOVERSION", read from the binary's build
// information (runtime/debug.ReadBuildInfo). VERSION is the module's
// version, "(devel)" for a build from a checkout; the commit and its date
// are there when the binary was built from a git checkout (go build's VCS
// stamping), "(commit unknown)" otherwise (go run, go test).
func version() string {
	ver, rev, at, modified := "(devel)", "", "", false
	goVersion := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			ver = bi.Main.Version
		}
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	commit := "commit unknown"
	if rev != "" {
		commit = "commit " + rev[:min(12, len(rev))]
		if modified {
			commit += ", modified"
		}
		if at != "" {
			commit += ", " + at
		}
	}
	return fmt.Sprintf("mcplab %s (%s) %s", ver, commit, goVersion)
}
