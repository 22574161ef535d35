package site

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/build"
	"github.com/mcplab/mcplab/site/internal/junit"
	"github.com/mcplab/mcplab/site/internal/live"
)

// cmdRun is `site run [-side auto|client|server] FILE|-|LINK`: it prints the
// trace JSON of
//
//   - a scenario file, or standard input for "-", run as written through
//     the one entry (entry.Run), with the SQLite ledger for scenarios that
//     have one;
//   - a share link: a URL or fragment carrying "#s=..." (the scenario in
//     the link) or "#example=<name>" (a built-in scenario), as the
//     playground's address bar holds it (scenario.ParseLink);
//   - a transcript of real traffic, file or standard input, in any format
//     transcript.Sniff recognises (Claude Desktop, VS Code, stdio tee, HAR,
//     HTTP/SSE dump, the Python, C# and Java SDKs' debug logs, Go SDK
//     LoggingTransport, the lab's JSON Lines;
//     transcript.Import): -side says who wrote a one-sided Go SDK log,
//     -observer who recorded it, -zone the zone of local times (its value
//     checked whatever the input), -latency
//     the path's round trip, -max-timeout the client's maximum timeout.
//     These five are a transcript's: given with a scenario (file, standard
//     input or link) they are a usageError naming them (only -checks
//     applies to both), not ignored.
//     Input that is no scenario (not a JSON object) and no known
//     transcript gets the transcript error listing the known formats and
//     quoting the first line.
//
// A file or standard input is read up to transcript.MaxBytes+1 bytes (4 MiB
// and one byte: enough to say it is too large), so `run /dev/zero` stops
// there. A bad link, an unreadable file, an invalid scenario or transcript
// is a usageError whose text is the located cause ("steps[3].at: must be >=
// 0", "server.log: line 4: ...", "bad share link: not base64url ..."), so the process
// prints "error: <cause>" and exits 2. So does a valid scenario whose run
// goes past one of the engine's bounds (an *engine.BoundError: "error: the
// scenario is valid, but its run went past the engine's bound of 100,000
// events (MaxEvents), so it has no trace; to run it, ..."), the same words
// the playground shows. A panic while reading or running
// (a bug in the lab, never the input's fault: entry.ErrInternal) is an
// internalError: the message asks for a report and the process exits 4.
//
// With -checks (for CI jobs), it also prints one line per check to stderr
// and, when any check is violated (ok: false), returns a checksFailed error:
// the process exits 3. Undecided checks (ok: null) do not fail the run.
func cmdRun(args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &internalError{&entry.InternalError{Value: r, Stack: debug.Stack()}}
		}
	}()
	f, err := parseRunFlags(args, stderr)
	if err != nil {
		return err
	}
	name := f.fs.Arg(0)
	f.out.print, f.out.subject = f.checks, name
	if isLink(name) {
		data, err := linkScenario(name)
		if err != nil {
			return &usageError{err}
		}
		if err := transcriptFlagsError(f.given, "the share link carries a scenario", data); err != nil {
			return err
		}
		return runScenario(data, f.out, stdout, stderr)
	}
	data, err := readInput(name, true)
	if err != nil {
		return err
	}
	input := name
	if name == "-" {
		input = "standard input"
	}
	if format := transcript.Sniff(data); format != transcript.FormatScenario {
		return runTranscript(data, format, input, f, stdout, stderr)
	}
	if err := transcriptFlagsError(f.given, input+" is a scenario", data); err != nil {
		return err
	}
	return runScenario(data, f.out, stdout, stderr)
}

// runFlags are run's flags once parsed and checked: the transcript's
// options (side, observer, zone, round trip, maximum timeout), where the
// checks go, and which transcript-only flags were given (a scenario
// refuses them).
type runFlags struct {
	fs                  *flag.FlagSet
	side, observer      string
	loc                 *time.Location
	latency, maxTimeout int64
	checks              bool
	out                 checksOut
	given               []string
}

// parseRunFlags reads run's command line and checks every value before the
// input is read, whatever the input: a typo should not pass in silence.
func parseRunFlags(args []string, stderr io.Writer) (*runFlags, error) {
	f := &runFlags{fs: flag.NewFlagSet("run", flag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	fs.StringVar(&f.side, "side", "auto", "for a one-sided transcript: who wrote it (`auto|client|server`)")
	fs.StringVar(&f.observer, "observer", "", "who recorded the transcript (`client|server|wire`); empty: inferred from its format")
	zone := fs.String("zone", "", "time `zone` of a log with local times (VS Code): an IANA name or an offset such as +02:00; empty: UTC")
	fs.Func("latency", "the path's round trip in whole `ms` (0: inferred from the fastest answered exchange)", wholeMs(&f.latency))
	fs.Func("max-timeout", "the client's maximum total timeout per request in whole `ms`, so max-timeout-enforced can judge a transcript (0: none)", wholeMs(&f.maxTimeout))
	fs.BoolVar(&f.checks, "checks", false, "list the checks on stderr, each with its rule's page, and exit 3 if any is violated (for CI)")
	fs.StringVar(&f.out.junit, "junit", "", "also write the checks to `FILE` as JUnit XML: a test case per rule, a failure with its detail, an undecided one skipped")
	fs.StringVar(&f.out.base, "base-url", "", "the site's `URL` (as build -base-url): rule pages print under it (default: the path /rules/RULE/)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, runUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return nil, &usageError{fmt.Errorf("run takes one scenario file, transcript file, - for stdin, or a share link; got %d arguments", fs.NArg())}
	}
	// A rule page printed under a base that is not an absolute URL
	// (lab.example/rules/...) is a dead link in a CI log: refused as
	// build -base-url refuses it.
	base, err := build.ParseBaseURL(f.out.base)
	if err != nil {
		return nil, &usageError{fmt.Errorf("-base-url %w", err)}
	}
	f.out.base = base
	switch f.side {
	case "auto", string(trace.ActorClient), string(trace.ActorServer):
	default:
		return nil, &usageError{fmt.Errorf("-side %q: want auto, client or server", f.side)}
	}
	switch f.observer {
	case "", trace.ObserverClient, trace.ObserverServer, trace.ObserverWire:
	default:
		return nil, &usageError{fmt.Errorf("-observer %q: want client, server or wire (or nothing: inferred from the transcript's format)", f.observer)}
	}
	if *zone != "" {
		loc, err := time.LoadLocation(*zone) // a zone name, natively
		if err != nil {
			loc, err = transcript.ParseZone(*zone)
		}
		if err != nil {
			// transcript.ParseZone's message is the web page's, which
			// knows no zone names; here they are known.
			return nil, &usageError{fmt.Errorf("-zone %q: not a time zone this machine knows: want an IANA name such as Europe/Oslo, UTC, or an offset such as +02:00", *zone)}
		}
		f.loc = loc
	}
	// The flags set that only a transcript reads: a scenario given them is
	// refused (transcriptFlagsError), not run as if they had changed it.
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name != "checks" && fl.Name != "junit" && fl.Name != "base-url" {
			f.given = append(f.given, "-"+fl.Name)
		}
	})
	return f, nil
}

// runTranscript imports a transcript of real traffic (format as sniffed)
// with run's options and writes its trace and checks.
func runTranscript(data []byte, format transcript.Format, input string, f *runFlags, stdout, stderr io.Writer) error {
	opts := transcript.Options{Observer: f.observer, LatencyMs: f.latency, MaxTimeoutMs: f.maxTimeout, Zone: f.loc}
	if f.side != "auto" {
		opts.Side = f.side
	}
	tr, err := transcript.Import(data, opts)
	if err != nil && format == transcript.FormatUnknown {
		// "NAME: neither a scenario (...) nor a transcript: line 1:
		// unknown format. Known: ...", the transcript's error said once
		// (transcriptError) after what the input is not.
		said := transcriptError(input, err).Error()
		return &usageError{&reworded{input + ": neither a scenario (a JSON object starting with \"mcplab\": 1; see the site's /scenario.schema.json) nor a transcript: " + strings.TrimPrefix(said, input+": "), err}}
	}
	if err != nil {
		return &usageError{transcriptError(input, err)}
	}
	return writeTrace(tr, f.out, stdout, stderr)
}

// runUsage is run's usage text, before its flags.
const runUsage = `usage: mcplab run [-side auto|client|server] [-observer client|server|wire]
                  [-zone ZONE] [-latency MS] [-max-timeout MS] [-checks]
                  [-junit FILE] [-base-url URL] FILE|-|LINK

Prints the trace JSON of a scenario file (- for standard input), of a share
link ('https://.../playground/#s=...' or '#example=NAME'), or of a transcript
of real MCP traffic (Claude Desktop or VS Code log, stdio tee, HAR, HTTP/SSE
dump, Python, C# or Java SDK debug log, Go SDK LoggingTransport log or the
lab's JSON Lines), detected from its content.
A file or standard input is read up to 4 MiB; a transcript has at most
20,000 lines (a HAR: 20,000 entries). -side, -observer, -zone, -latency and
-max-timeout are a transcript's: a scenario or share link refuses them.

Exit status: 0 done, 1 failure (such as a failed write), 2 bad input or
usage (or a valid scenario whose run goes past one of the engine's bounds),
3 a check failed (-checks), 4 internal error (a bug in mcplab: please
report it).`

// transcriptError says an import error of the transcript input (a file's
// name, or "standard input") once: "NAME: line 2: CAUSE", or "NAME: HAR
// entry 3: CAUSE" (the entry is the line), without the engine's category
// ("bad transcript: ", transcript.ErrTranscript) the name already says;
// the result still unwraps to err.
func transcriptError(input string, err error) error {
	var te *transcript.Error
	if !errors.As(err, &te) || te.Error() != err.Error() {
		return fmt.Errorf("%s: %w", input, err)
	}
	cause := strings.TrimPrefix(te.Err.Error(), transcript.ErrTranscript.Error()+": ")
	switch {
	case te.Line > 0 && te.Column > 0:
		cause = fmt.Sprintf("line %d, column %d: %s", te.Line, te.Column, cause)
	case te.Line > 0 && !strings.HasPrefix(cause, fmt.Sprintf("HAR entry %d: ", te.Line)):
		cause = fmt.Sprintf("line %d: %s", te.Line, cause)
	}
	return &reworded{input + ": " + cause, err}
}

// transcriptFlagsError is the usageError for transcript flags given (-side,
// -observer, -zone, -latency, -max-timeout, as set on the command line)
// with a scenario, which reads none of them: what says what the input is
// ("scenario.json is a scenario"), and the message says what the scenario
// has instead. It is nil when none was given, or when data is not a valid
// scenario: its own error is the one to fix first.
func transcriptFlagsError(given []string, what string, data []byte) error {
	if len(given) == 0 {
		return nil
	}
	if _, err := scenario.Decode(data); err != nil {
		return nil
	}
	var instead []string
	other := false
	for _, f := range given {
		switch f {
		case "-latency":
			instead = append(instead, `its latency is its own "latencyMs" member`)
		case "-max-timeout":
			instead = append(instead, `its maximum timeout "client.maxTimeoutMs" or a call's "maxTimeoutMs"`)
		default:
			other = true
		}
	}
	why := strings.Join(instead, ", ")
	if other {
		if why != "" {
			why += "; "
		}
		why += "it plays both sides on a virtual clock"
	}
	verb, them := "apply", "them"
	if len(given) == 1 {
		verb, them = "applies", "it"
	}
	return &usageError{fmt.Errorf("%s %s to a transcript of real traffic; %s (%s): run it without %s", strings.Join(given, ", "), verb, what, why, them)}
}

// wholeMs parses a flag's whole milliseconds into *ms, in [0,
// transcript.MaxGivenMs] as the import page's fields are: 7.5 is refused
// with what is wanted, not flag's bare "parse error".
func wholeMs(ms *int64) func(string) error {
	return func(s string) error {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n < 0 || n > transcript.MaxGivenMs {
			return fmt.Errorf("want whole milliseconds from 0 to %d (a day)", transcript.MaxGivenMs)
		}
		*ms = n
		return nil
	}
}

// readLimited reads r up to transcript.MaxBytes+1 bytes: the largest input
// run accepts (a transcript; a scenario is at most scenario.MaxBytes) and
// one byte more, so the decoder can say the input is too large without
// anything reading further.
func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, transcript.MaxBytes+1))
	if err == nil && len(data) > transcript.MaxBytes {
		return nil, fmt.Errorf("more than 4 MiB (%s bytes), the most mcplab reads (a scenario is at most %s bytes)", trace.Thousands(transcript.MaxBytes), trace.Thousands(scenario.MaxBytes))
	}
	return data, err
}

// readInput reads the file name ("-" for standard input) through
// readLimited; a failure is a usageError naming the input ("standard
// input" for "-") and what the verb takes: a scenario or a transcript
// (run), or only a scenario (review, transcripts false).
func readInput(name string, transcripts bool) ([]byte, error) {
	var data []byte
	var err error
	what := name
	if name == "-" {
		what = "standard input"
		data, err = readLimited(os.Stdin)
	} else {
		data, err = readFile(name)
	}
	file, want := "a scenario or transcript file", "a scenario (a JSON object, see the site's /scenario.schema.json) or a transcript of real traffic"
	if !transcripts {
		file, want = "a scenario file", "a scenario (a JSON object, see the site's /scenario.schema.json)"
	}
	if err != nil {
		// The file's name once, the system's reason (not "open NAME:"
		// again), and what run and review take (a raw Go error);
		// an input too large needs no such advice.
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, &usageError{fmt.Errorf("cannot read %s: %w; give %s, - for standard input, or a share link", what, pe.Err, file)}
		}
		return nil, &usageError{fmt.Errorf("cannot read %s: %w", what, err)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &usageError{fmt.Errorf("%s is empty: want %s", what, want)}
	}
	return data, nil
}

// mcplabMemberError adds to the error of a document without the "mcplab"
// member ("not a scenario: a scenario starts with "mcplab": 1", in
// scenario.Error's words) where the format is described. Other errors, and
// one wrapped in more text, are returned as they are; the result still
// unwraps to err (errors.Is(err, scenario.ErrMissing)).
func mcplabMemberError(err error) error {
	var se *scenario.Error
	if !errors.As(err, &se) || se.Path != "mcplab" || err.Error() != se.Error() || !errors.Is(se.Err, scenario.ErrMissing) {
		return err
	}
	return &reworded{se.Error() + " (see the site's /scenario.schema.json)", err}
}

// reworded is err said in other words (msg).
type reworded struct {
	msg string
	err error
}

func (e *reworded) Error() string { return e.msg }
func (e *reworded) Unwrap() error { return e.err }

// readFile reads the file name through readLimited, as standard input is.
func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f)
}

// runOptions are the engine options of the verbs' native runs (run,
// review, explore): the in-memory SQLite ledger for scenarios that have
// one, as package build prerenders the pages, so the command prints what
// a page shows.
var runOptions = engine.Options{OpenLedger: sqlite.NewMemory}

// runScenario runs a scenario document as written through the engine's one
// entry (entry.Run) and writes its trace (writeTrace). An invalid
// scenario is a usageError with the located cause; a panic in the engine is
// an internalError.
func runScenario(data []byte, checks checksOut, stdout, stderr io.Writer) error {
	res, err := entry.Run(data, entry.Document{Options: runOptions})
	if errors.Is(err, entry.ErrInternal) {
		return &internalError{err}
	}
	if err != nil {
		return &usageError{mcplabMemberError(err)}
	}
	return writeTrace(res.Trace, checks, stdout, stderr)
}

// writeTrace writes tr's JSON to stdout and, if checks, one line per check
// to stderr ("pass  rule", "FAIL  rule: detail", "  ?   rule: why") and a
// count; it returns a checksFailed error if any check is violated.
//
// The native command adds rule message-valid (package checks/schema),
// which the browser binaries do not link: its validator and the two
// official schemas would cost the pages their transfer budget.
func writeTrace(tr *trace.Trace, checks checksOut, stdout, stderr io.Writer) error {
	tr.Checks = append(tr.Checks, schema.Check(tr))
	out, err := engine.Encode(tr)
	var be *engine.BoundError
	if errors.As(err, &be) {
		return &usageError{err}
	}
	if err != nil {
		return err
	}
	if _, err := stdout.Write(out); err != nil {
		return err
	}
	if checks.junit != "" {
		subject := checks.subject
		if tr.Scenario != nil && tr.Scenario.Title != "" {
			subject = tr.Scenario.Title
		}
		if err := junit.WriteFile(checks.junit, "mcplab run", junitOfTrace(subject, checks.base, tr)); err != nil {
			return err
		}
	}
	if !checks.print {
		return nil
	}
	return printChecksAt(stderr, tr, checks.base)
}

// checksOut is what `run` does with a trace's checks: print them (-checks),
// write them as JUnit XML (-junit), with rule pages under base (-base-url);
// subject names the input in the JUnit report when the trace has no title.
type checksOut struct {
	print                bool
	junit, base, subject string
}

// checksFailed is returned by `run -checks` when checks are violated; the
// process exits 3, so a CI job can tell "the scenario breaks a rule" (3)
// from "the scenario is invalid" (2).
type checksFailed struct{ rules []string }

func (e *checksFailed) Error() string {
	return fmt.Sprintf("%d check(s) failed: %s", len(e.rules), strings.Join(e.rules, ", "))
}

// isLink reports whether a run argument is a share link rather than a file
// name: it has a fragment, or is a bare "s=..." or "example=..." fragment.
// A file whose name contains "#" can still be run as ./name or via -.
//
// An http:// or https:// URL is a link too, with or without a fragment, so
// that one without is refused as a link (linkScenario), not as a missing
// file.
func isLink(arg string) bool {
	if _, err := os.Stat(arg); err == nil {
		return false
	}
	return strings.Contains(arg, "#") || strings.HasPrefix(arg, "s=") || strings.HasPrefix(arg, "example=") || isURL(arg)
}

// isURL reports whether arg starts with http:// or https:// (any case).
func isURL(arg string) bool {
	a := strings.ToLower(strings.TrimSpace(arg))
	return strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://")
}

// linkScenario returns the scenario JSON a share link names: the document
// it carries, or the built-in example's file. Errors wrap scenario.ErrShare;
// besides scenario.ParseLink's, a URL with no fragment says mcplab reads a
// link's fragment and fetches nothing, and an empty "#s=" says the link
// carries no scenario (not that its data is damaged).
func linkScenario(link string) ([]byte, error) {
	link = strings.TrimSpace(link)
	frag, hasFrag := link, false
	if i := strings.IndexByte(link, '#'); i >= 0 {
		frag, hasFrag = link[i+1:], true
	}
	if !hasFrag && isURL(link) {
		return nil, fmt.Errorf("%w: %s has no fragment: mcplab reads a share link by its fragment and does not fetch URLs; want a link with #s=... or #example=NAME, or a file", scenario.ErrShare, link)
	}
	if f, _, _ := strings.Cut(frag, "&"); f == "s=" {
		return nil, fmt.Errorf("%w: the link carries no scenario (empty #s=); copy the whole link from the playground's address bar", scenario.ErrShare)
	}
	l, err := scenario.ParseLink(link)
	if err != nil {
		return nil, err
	}
	return examples.Open(l)
}

// printChecks writes tr's checks to stderr, one line each ("pass", "FAIL" with
// its detail, "  ?" undecided with its reason), then their counts, and
// returns a *checksFailed naming the failing rules (exit status 3) or nil.
func printChecks(stderr io.Writer, tr *trace.Trace) error { return printChecksAt(stderr, tr, "") }

// printChecksAt is printChecks with each rule's page (ruleURL) under base:
// on a passing rule's line, and on a line of its own under a failing or
// undecided rule's detail.
func printChecksAt(stderr io.Writer, tr *trace.Trace, base string) error {
	var pass, undecided int
	var failed []string
	for _, c := range tr.Checks {
		switch {
		case c.OK == nil:
			undecided++
			fmt.Fprintf(stderr, "  ?   %s: %s\n      %s\n", c.Rule, live.CiteLines(tr, c.Detail), ruleURL(base, c.Rule))
		case *c.OK:
			pass++
			fmt.Fprintf(stderr, "pass  %s  %s\n", c.Rule, ruleURL(base, c.Rule))
		default:
			failed = append(failed, string(c.Rule))
			fmt.Fprintf(stderr, "FAIL  %s: %s\n      %s\n", c.Rule, live.CiteLines(tr, c.Detail), ruleURL(base, c.Rule))
		}
	}
	fmt.Fprintf(stderr, "checks: %d pass, %d fail, %d undecided\n", pass, len(failed), undecided)
	if len(failed) > 0 {
		return &checksFailed{rules: failed}
	}
	return nil
}
