package site

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/junit"
	"github.com/mcplab/mcplab/site/internal/live"
	"github.com/mcplab/mcplab/site/internal/mock"
)

// Default bounds of probe-client (-limit and -timeout change them).
const (
	clientSituationLimit = 20 * time.Second // one situation: the client's whole run
	clientTotalLimit     = 5 * time.Minute  // every situation on every transport
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
a misbehaviour the mock stages on purpose are left out of the verdict. The
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

// clientCheck is one rule's verdict in -json.
type clientCheck struct {
	Rule   trace.RuleID `json:"rule"`
	OK     *bool        `json:"ok"`
	Detail string       `json:"detail"`
	// Staged is true for a rule the mock broke on purpose (the situation's
	// Staged): its verdict is left out of the situation's.
	Staged bool `json:"staged,omitempty"`
}

// ClientResult is one situation's run on one transport: its verdict by the
// engine's checks of the mock's transcript. A report (-json, or JUnit
// XML) reads the list probeClientResults returns.
type ClientResult struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	Protocol  string `json:"protocol"`
	Verdict   string `json:"verdict"` // pass, fail or undecided
	// Reason is the verdict's reason line: Facts joined with "; ".
	Reason     string        `json:"reason"`
	Checks     []clientCheck `json:"checks"`
	Transcript string        `json:"transcript,omitempty"`
	// Facts say how the run went (the client's exit, a limit), for the
	// text output; Staged the rules left out of the verdict.
	Facts  []string       `json:"-"`
	Staged []trace.RuleID `json:"-"`
	// Broke reports that the run could not happen (the client did not
	// start, never launched the mock or never connected to it, a
	// transcript could not be written).
	Broke bool `json:"-"`
}

// Verdicts of probe-client.
const (
	verdictPass      = "pass"
	verdictFail      = "fail"
	verdictUndecided = "undecided"
)

// probeClientConfig is probe-client's parsed command line.
type probeClientConfig struct {
	situations           []mock.Situation
	transports           []string
	protocol, out        string
	checks, json         bool
	junit                string // -junit FILE, "" for none
	idleTimeout, maxTime int64
	limit, total         time.Duration
	argv, mock           []string
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
	c := &probeClientConfig{limit: clientSituationLimit, total: clientTotalLimit}
	var names situationFlag
	fs.Var(&names, "situation", "run only this situation `NAME` (repeatable; default: all)")
	transport := fs.String("transport", "", "run only on this `transport`: stdio or streamable-http (default: both)")
	fs.StringVar(&c.protocol, "protocol", mock.ProtocolAuto, "the `revision` the mock speaks: auto (the client's), 2026-07-28 or 2025-11-25")
	fs.StringVar(&c.out, "out", "", "`directory` for the transcripts (default: a new temporary directory, printed)")
	fs.BoolVar(&c.checks, "checks", false, "exit 3 if a rule fails (for CI)")
	fs.BoolVar(&c.json, "json", false, "print the results as JSON on standard output")
	fs.StringVar(&c.junit, "junit", "", "also write the results to `FILE` as JUnit XML: a test case per situation, transport and rule")
	fs.Func("idle-timeout", "the client's configured idle timeout in whole `ms` (0: none stated)", wholeMs(&c.idleTimeout))
	fs.Func("max-timeout", "the client's configured maximum timeout per request in whole `ms`, so max-timeout-enforced and abandon-tells-server can judge it (0: none stated)", wholeMs(&c.maxTime))
	fs.Func("limit", "time limit of one situation's run, a Go `duration` (default 20s)", positiveDuration(&c.limit))
	fs.Func("timeout", "time limit of the whole run, a Go `duration` (default 5m0s)", positiveDuration(&c.total))
	fs.Usage = func() { fmt.Fprintln(stderr, probeClientUsage); fs.PrintDefaults() }
	if err := parseFlagsOnce(fs, args); err != nil {
		return nil, err
	}
	if err := checkProtocol(c.protocol); err != nil {
		return nil, err
	}
	switch *transport {
	case "":
		c.transports = []string{scenario.TransportStdio, scenario.TransportHTTP}
	case scenario.TransportStdio, scenario.TransportHTTP:
		c.transports = []string{*transport}
	default:
		return nil, &usageError{fmt.Errorf("-transport %q: want stdio or streamable-http", *transport)}
	}
	for _, st := range mock.Situations {
		if len(names) == 0 || strings.Contains(","+names.String()+",", ","+st.Name+",") {
			c.situations = append(c.situations, st)
		}
	}
	if c.argv = fs.Args(); len(c.argv) == 0 {
		fs.Usage()
		return nil, &usageError{errors.New("probe-client needs the client: -- CLIENT COMMAND [ARG...]")}
	}
	mockArgv, err := mockCommand()
	if err != nil {
		return nil, fmt.Errorf("finding mcplab's own path (the stdio server command): %w", err)
	}
	c.mock = mockArgv
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
	if c.out == "" {
		if c.out, err = os.MkdirTemp("", "mcplab-probe-client-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	results := probeClientResults(ctx, c, stderr)
	if c.json {
		b, _ := json.MarshalIndent(struct {
			Peer       map[string]any `json:"peer"`
			Situations []ClientResult `json:"situations"`
		}{map[string]any{"role": "client", "command": c.argv}, results}, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else {
		for _, r := range results {
			printClientResult(stdout, r)
		}
		printTranscriptsLine(stdout, c.out, results)
	}
	if c.junit != "" {
		if err := junit.WriteFile(c.junit, "mcplab probe-client", junitOfProbeClient(strings.Join(c.argv, " "), results)); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return errors.New("stopped by a signal (the client's process group was killed)")
	}
	var failed []string
	for _, r := range results {
		if r.Verdict == verdictFail {
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

// printTranscriptsLine says where the runs' transcripts are, or that none
// was written (every run broke before the mock wrote one).
func printTranscriptsLine(w io.Writer, dir string, results []ClientResult) {
	for _, r := range results {
		if r.Transcript != "" {
			fmt.Fprintf(w, "transcripts: %s (judge one again with mcplab run -checks FILE)\n", dir)
			return
		}
	}
	fmt.Fprintf(w, "transcripts: none written (%s is empty of them)\n", dir)
}

// probeClientResults runs every situation of c on every transport of c,
// each with a fresh mock, within c's limits, and returns their results in
// order: the value every report of probe-client (text, -json, JUnit XML)
// is written from. log gets a line as each run starts.
func probeClientResults(ctx context.Context, c *probeClientConfig, log io.Writer) []ClientResult {
	ctx, cancel := context.WithTimeout(ctx, c.total)
	defer cancel()
	var out []ClientResult
	n := 0
	for _, st := range c.situations {
		for _, tr := range c.transports {
			if st.HTTPOnly && tr != scenario.TransportHTTP || st.Stateful && c.protocol == jsonrpc.Revision20260728 {
				continue
			}
			n++
			r := ClientResult{Name: st.Name, Transport: tr, Protocol: c.protocol, Staged: st.Staged, Checks: []clientCheck{}}
			if ctx.Err() != nil {
				r.Verdict, r.Facts = verdictUndecided, []string{"not run: the run's limit (-timeout) or a signal stopped it"}
				out = append(out, r)
				continue
			}
			fmt.Fprintf(log, "probe-client: %s on %s …\n", st.Name, tr)
			out = append(out, runSituation(ctx, c, st, tr, filepath.Join(c.out, fmt.Sprintf("%d-%s.%s.server.jsonl", n, st.Name, transportShort(tr))), log))
		}
	}
	for i := range out {
		out[i].Reason = strings.Join(out[i].Facts, "; ")
	}
	return out
}

// transportShort names a transport in a file name.
func transportShort(tr string) string {
	if tr == scenario.TransportHTTP {
		return "http"
	}
	return "stdio"
}

// runSituation runs one situation on one transport and judges the
// transcript the mock wrote to file.
func runSituation(ctx context.Context, c *probeClientConfig, st mock.Situation, tr, file string, log io.Writer) ClientResult {
	r := ClientResult{Name: st.Name, Transport: tr, Protocol: c.protocol, Staged: st.Staged, Checks: []clientCheck{}, Verdict: verdictUndecided}
	// A stdio mock would judge on its own as the client leaves (on the
	// client's stderr), without the situation's staged rules left out:
	// it writes the transcript only, and probe-client judges it.
	self := append(append([]string{}, c.mock...), "-idle-timeout", strconv.FormatInt(c.idleTimeout, 10), "-max-timeout", strconv.FormatInt(c.maxTime, 10), "-verdicts=false")
	out, err := mock.Run(ctx, mock.Trial{Situation: st, Transport: tr, Protocol: c.protocol, Argv: c.argv, Mock: self,
		Transcript: file, Limit: c.limit, Output: prefixed(log, "  client: ")})
	if err != nil {
		r.Facts, r.Broke = append(r.Facts, err.Error()), true
		return r
	}
	r.Facts = append(r.Facts, "client "+out.Client)
	if out.TimedOut && ctx.Err() == nil {
		r.Facts[len(r.Facts)-1] = fmt.Sprintf("client stopped at the situation's limit (-limit %s)", c.limit)
	}
	if !out.Written {
		r.Facts, r.Broke = append(r.Facts, "no transcript: the client never launched the mock (is MCPLAB_SERVER_COMMAND its server command?)"), true
		return r
	}
	r.Transcript = file
	t, err := judgeTranscript(file, c.maxTime, c.idleTimeout)
	if err != nil {
		r.Facts = append(r.Facts, "the engine could not read the transcript: "+err.Error())
		return r
	}
	if t.Source != nil && t.Source.Protocol != "" {
		r.Protocol = t.Source.Protocol
	}
	if !connected(t) {
		r.Facts, r.Broke = append(r.Facts, "the client never connected: the mock saw no message from it"), true
		return r
	}
	labClosed := labEnded(t)
	for _, ch := range t.Checks {
		c := clientCheck{Rule: ch.Rule, OK: ch.OK, Detail: live.CiteLines(t, ch.Detail), Staged: isOneOf(ch.Rule, st.Staged)}
		if ch.OK != nil && !*ch.OK && citesAny(ch.Events, labClosed) {
			c.OK, c.Detail = nil, "ended by the lab, undecided: it rests on a stream the lab broke when it stopped the client ("+c.Detail+")"
		}
		r.Checks = append(r.Checks, c)
	}
	r.Verdict = clientVerdict(r.Checks, st.Staged, st.Subject)
	switch {
	case r.Verdict == verdictUndecided && len(labClosed) > 0:
		r.Facts = append(r.Facts, fmt.Sprintf("the lab ended the client with %d call(s) open, so how it would have ended them cannot show (the transcript marks those streams' ends as the lab's)", len(labClosed)))
	case r.Verdict != verdictUndecided:
	case st.Listen && !listened(t):
		r.Facts = append(r.Facts, "the client never opened a listen stream (no GET, no subscriptions/listen), so nothing it does when one ends can show")
	case st.Listen && gaveUpRefused(t):
		r.Facts = append(r.Facts, "the server refused the client's reconnect (503) and the client never tried again, so no backoff and no reopened stream could show")
	case st.Stateful && !metNotFound(t):
		r.Facts = append(r.Facts, "no request of the client's met the 404 after the server retired its session (it sent nothing more), so nothing it does after one can show")
	default:
		r.Facts = append(r.Facts, "no rule the situation asks about ("+ruleList(st.Subject)+") could be judged from the server's side of this run")
	}
	return r
}

// labEnded is the seqs of the stream closes the lab caused by stopping
// the client (the mock's mock.LabEndedNote), none when the client left
// on its own.
func labEnded(t *trace.Trace) []int {
	var seqs []int
	for _, e := range t.Events {
		if e.Type == trace.TypeCloseStream && e.Actor == trace.ActorNetwork && strings.Contains(e.Note, mock.LabEndedNote) {
			seqs = append(seqs, e.Seq)
		}
	}
	return seqs
}

// citesAny reports whether a check's events include one of seqs.
func citesAny(events, seqs []int) bool {
	for _, e := range events {
		if slices.Contains(seqs, e) {
			return true
		}
	}
	return false
}

// connected reports whether the mock saw any message from the client.
func connected(t *trace.Trace) bool {
	for _, e := range t.Events {
		if e.From == trace.ActorClient && len(e.Message) > 0 {
			return true
		}
	}
	return false
}

// gaveUpRefused reports whether the client's last reconnect of its listen
// stream was refused (the server's 503) with no reconnect after it.
func gaveUpRefused(t *trace.Trace) bool {
	refused := false
	for _, e := range t.Events {
		switch {
		case e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect:
			refused = false
		case e.Actor == trace.ActorServer && e.Type == trace.TypeReject && e.Status == "503":
			refused = true
		}
	}
	return refused
}

// metNotFound reports whether the mock's transcript shows the server
// refusing a request of a retired session with 404.
func metNotFound(t *trace.Trace) bool {
	for _, e := range t.Events {
		if e.Actor == trace.ActorServer && e.Type == trace.TypeReject && e.Status == "404" {
			return true
		}
	}
	return false
}

// listened reports whether the mock's transcript shows the client opening
// a listen stream its revision has: the server's start of a stream no
// request owns (a 2025-11-25 GET), or a subscriptions/listen request,
// which only 2026-07-28 defines (under 2025-11-25 it opens nothing, and
// message-valid fails it).
func listened(t *trace.Trace) bool {
	listens := t.Source == nil || t.Source.Protocol != jsonrpc.Revision20251125
	for _, e := range t.Events {
		if e.Actor == trace.ActorServer && e.Type == trace.TypeStart && e.ID == nil || listens && e.Type == trace.TypeSend && e.From == trace.ActorClient && bytes.Contains(e.Message, []byte(`"`+jsonrpc.MethodListen+`"`)) {
			return true
		}
	}
	return false
}

// clientVerdict is a situation's verdict from its checks, the staged
// rules left out: fail when a rule fails, pass when a subject rule passes
// and none fails, undecided when no subject rule decides.
func clientVerdict(cs []clientCheck, staged, subject []trace.RuleID) string {
	v := verdictUndecided
	for _, c := range cs {
		switch {
		case c.OK == nil || isOneOf(c.Rule, staged):
		case !*c.OK:
			return verdictFail
		case isOneOf(c.Rule, subject):
			v = verdictPass
		}
	}
	return v
}

// ruleList is rules as a reader reads them, comma-separated.
func ruleList(rules []trace.RuleID) string {
	s := make([]string, len(rules))
	for i, r := range rules {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}

// isStaged reports whether rule is one of rules.
func isOneOf(rule trace.RuleID, rules []trace.RuleID) bool {
	for _, s := range rules {
		if s == rule {
			return true
		}
	}
	return false
}

// printClientResult writes a situation's lines, as probe prints its own.
func printClientResult(w io.Writer, r ClientResult) {
	name := r.Name + " (" + transportShort(r.Transport) + ")"
	fmt.Fprintf(w, "%-34s %-9s %s; protocol %s\n", name, r.Verdict, strings.Join(r.Facts, "; "), r.Protocol)
	var parts []string
	for _, c := range r.Checks {
		staged := ""
		if isOneOf(c.Rule, r.Staged) {
			staged = " [staged by the mock]"
		}
		switch {
		case c.OK == nil:
			parts = append(parts, "? "+string(c.Rule)+staged)
		case *c.OK:
			parts = append(parts, "pass "+string(c.Rule)+staged)
		default:
			parts = append(parts, "FAIL "+string(c.Rule)+staged+" ("+c.Detail+")")
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "%-34s %-9s checks: %s\n", "", "", strings.Join(parts, ", "))
	}
	if r.Transcript != "" {
		fmt.Fprintf(w, "%-34s %-9s %s\n", "", "", r.Transcript)
	}
}

// prefixed is w with each line prefixed (the client's output among
// probe-client's own lines).
func prefixed(w io.Writer, prefix string) io.Writer {
	return &prefixWriter{w: w, prefix: prefix, bol: true}
}

type prefixWriter struct {
	w      io.Writer
	prefix string
	bol    bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	var out []byte
	for _, c := range b {
		if p.bol {
			out = append(out, p.prefix...)
		}
		out = append(out, c)
		p.bol = c == '\n'
	}
	if _, err := p.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}
