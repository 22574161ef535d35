package site

// `probe`: drive a live MCP server through the lab's situations with
// controlled timing, record each exchange as a transcript in the lab's JSON
// Lines, and have the engine's checks judge it.
//
// Design record.
//
// Context: the probe is a client, so its transcripts are a client's view.
// engine/transcript judges a JSON Lines transcript by its
// observer, named in its header line: from a client's view a cancellation
// and a result closer than the path's round trip are undecided (the
// legitimate race); one further apart, or after the server answered a
// request sent after the cancellation (stdio reads in order: the fence),
// convicts.
//
// Decision: each transcript starts with the header {"observer":"client",
// "transport":..., "protocol":...} and holds the real times the client
// wrote and read each message (file name `*.client.jsonl`). Right after
// each cancellation the probe sends a fence (ping; server/discover under
// 2026-07-28, which has no ping) and notes when its answer arrives; it
// knows the fastest completion of the tool it has seen (the warm-up's and
// every uncancelled call's since). A message the engine flags or leaves
// undecided for no-message-after-cancel is confirmed when it arrived after
// the fence's answer, or when it is the request's response and arrived
// well before the tool could have finished (before start + fastest
// completion - max(5% of it, 10 ms)): it answers the cancellation.
// Otherwise the probe calls it undecided (the race, as a client sees it).
// Under 2026-07-28 on Streamable HTTP the cancellation closes the
// request's stream, after which the client reads nothing of it: the
// cancelling situations are undecided there.
//
// Consequence: the probe never accuses a server for the race, and says
// which order occurred at each offset of the sweep. `site run FILE` on a
// probe transcript judges it as the client saw it: the race is undecided,
// the fence convicts over stdio; only the timing evidence is the probe's
// alone.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/junit"
)

// Default bounds of a probe (flags -limit and -timeout change them).
const (
	probeSituationLimit = 15 * time.Second // one situation, initialize included
	probeTotalLimit     = 60 * time.Second // the whole probe
	probeMaxGrace       = 2 * time.Second  // longest wait for stray messages after a call ends or is cancelled
	probeMinGrace       = 200 * time.Millisecond
)

// warmup is what the clean call measured: completion time (request
// written to response read), number of progress notifications, the first's
// time and the mean interval between them.
type warmup struct {
	done, first, interval time.Duration
	progress              int
}

// prober is one run of the probe against one server.
type prober struct {
	argv []string // stdio: the server command
	url  string   // Streamable HTTP: the one address talked to
	tool string
	args map[string]any
	// argsGiven: -args was on the command line (without it a tool whose
	// inputSchema requires arguments is not called).
	argsGiven bool
	// protocol is -protocol (probeProtocols); spoken is the revision the
	// first handshake settled on, which later situations speak at once.
	protocol, spoken string
	server           string // the server's name and version, from the first handshake
	limit            time.Duration
	only             map[string]bool // situations to run besides clean; empty: all
	warm             warmup
	// quickest is the fastest completion seen so far (0: none yet;
	// prober.fastest).
	quickest time.Duration
	log      io.Writer
	// header is -header: added to every HTTP request.
	header http.Header
	// totalLimit is -timeout and total the probe's deadline from it.
	totalLimit time.Duration
	total      time.Time
	sitStart   time.Time // when the current situation started
	// stop is closed when a signal (probeSignals) stops the probe;
	// stopBy names the signal.
	stop   chan struct{}
	stopMu sync.Mutex
	stopBy string
}

// halt stops the probe for signal name: every session's wait returns
// errStopped, so the current situation ends and its server is killed.
func (p *prober) halt(name string) {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	if p.stopBy == "" {
		p.stopBy = name
		close(p.stop)
	}
}

// stopped names the signal that stopped the probe, "" if none did.
func (p *prober) stopped() string {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	return p.stopBy
}

// sitResult is a situation's line of output.
type sitResult struct {
	name     string
	verdict  string // pass, FAIL, undecided, error, skipped
	facts    []string
	checks   []trace.Check
	file     string
	header   transcriptHeader
	broke    bool     // the situation could not run to its end (an error, whatever the verdict)
	badInput error    // the command line asked for what the server lacks (-tool): exit 2
	own      []string // the probe's own observations that fail it, as named in -checks' list
}

// transcriptHeader is what a transcript's JSON Lines cannot say yet (issue
// 15 item 2 proposes an optional first line for it); the probe writes it
// for every transcript into probe.json beside them.
type transcriptHeader struct {
	File      string  `json:"file"`
	Observer  string  `json:"observer"`  // always "client": the probe recorded what it wrote and read
	Transport string  `json:"transport"` // "stdio" or "streamable-http"
	Protocol  string  `json:"protocol,omitempty"`
	Session   string  `json:"session,omitempty"` // Mcp-Session-Id (Streamable HTTP)
	WarmupMs  float64 `json:"warmupMs,omitempty"`
	// FastestMs is the fastest completion of the tool seen by the end of
	// the situation, the time its timing evidence is measured against.
	FastestMs float64      `json:"fastestMs,omitempty"`
	Cancels   []cancelJSON `json:"cancellations,omitempty"`
	// StdoutNotJSONRPC lists the first lines a stdio server wrote on its
	// standard output that are not JSON-RPC messages (probe_stray.go):
	// the transcript's JSON Lines have no place for them.
	StdoutNotJSONRPC []strayJSON `json:"stdoutNotJSONRPC,omitempty"`
}

// cancelJSON is one cancellation and its evidence: when the client wrote
// it and when the fence ping after it was answered (absent: never).
type cancelJSON struct {
	RequestID string `json:"requestId"`
	At        string `json:"at"`
	FenceAt   string `json:"fenceAnsweredAt,omitempty"`
	Unseen    bool   `json:"callNotYetAnswered,omitempty"`
}

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

// cmdProbe is `site probe`. Errors: a bad command line (flags after the
// URL, a URL that is not http(s), a -tool the server does not list) is a
// usageError (exit 2); with -checks a violated rule is a checksFailed
// (exit 3); a situation that could not run (no answer, the server died or
// was never reached) or a signal (probeSignals) makes the probe exit 1
// after printing every line.
func cmdProbe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tool := fs.String("tool", "", "the tool to call: one that takes a while and reports progress when given a token (default: the first listed)")
	argsJSON := fs.String("args", "{}", "the tool's arguments, a JSON object")
	out := fs.String("out", "", "directory for the transcripts (default: a new temporary directory, printed)")
	check := fs.Bool("checks", false, "exit 3 if any rule is violated (for CI)")
	asJSON := fs.Bool("json", false, "print the verdicts as JSON on standard output (the lines go to standard error)")
	junitFile := fs.String("junit", "", "also write the verdicts to `FILE` as JUnit XML: a test case per situation and rule")
	limit, total := new(time.Duration), new(time.Duration)
	*limit, *total = probeSituationLimit, probeTotalLimit
	fs.Func("limit", "time limit of one situation, a Go `duration` such as 15s or 2m (default 15s)", positiveDuration(limit))
	fs.Func("timeout", "time limit of the whole probe, a Go `duration` (default 1m0s)", positiveDuration(total))
	protocol := fs.String("protocol", probeAuto, "the protocol revision to speak: auto (server/discover, then initialize if the server does not speak 2026-07-28), 2026-07-28 or 2025-11-25")
	only := fs.String("only", "", "run only these situations (comma-separated names; the warm-up \"clean\" always runs)")
	var headers headerFlag
	fs.Var(&headers, "header", "an HTTP header for every request to the URL, 'Name: value' (repeatable; e.g. 'Authorization: Bearer TOKEN')")
	fs.Usage = func() { fmt.Fprintln(stderr, probeUsage); fs.PrintDefaults() }
	if err := parseFlagsOnce(fs, args); err != nil {
		return err
	}
	p := &prober{tool: *tool, limit: *limit, totalLimit: *total, log: stderr, only: map[string]bool{}, stop: make(chan struct{}), protocol: *protocol}
	if !slices.Contains(probeProtocols, p.protocol) {
		return &usageError{fmt.Errorf("-protocol: want %s, not %q", strings.Join(probeProtocols, ", "), p.protocol)}
	}
	fs.Visit(func(f *flag.Flag) { p.argsGiven = p.argsGiven || f.Name == "args" })
	if err := p.onlySituations(*only); err != nil {
		return err
	}
	if err := p.target(fs, fs.Args()); err != nil {
		return err
	}
	if len(headers) > 0 && p.url == "" {
		return &usageError{errors.New("-header is for a Streamable HTTP URL, not a stdio command")}
	}
	p.header = http.Header(headers)
	if err := json.Unmarshal([]byte(*argsJSON), &p.args); err != nil || p.args == nil {
		return &usageError{fmt.Errorf("-args must be a JSON object: %q", *argsJSON)}
	}
	dir, wrote, err := *out, false, error(nil)
	if dir == "" {
		d, err := os.MkdirTemp("", "mcplab-probe-")
		if err != nil {
			return err
		}
		dir = d
		defer func() {
			if !wrote {
				os.RemoveAll(d) // nothing to keep: no run leaves an empty directory behind
			}
		}()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	defer p.watchSignals(stderr)()
	p.total = time.Now().Add(*total)
	text := stdout
	if *asJSON {
		text = stderr
	}
	results := p.run(p.total, dir, text)
	if *asJSON {
		if err := p.writeJSON(stdout, results); err != nil {
			return err
		}
	}
	if wrote, err = writeIndex(dir, results, text); err != nil {
		return err
	}
	if *junitFile != "" {
		if err := junit.WriteFile(*junitFile, "mcplab probe", junitOfProbe(strings.Join(fs.Args(), " "), results)); err != nil {
			return err
		}
	}
	return p.exitFor(results, *check)
}

// onlySituations reads -only, a comma-separated list of situation names,
// into p.only; an unknown name is a usage error naming the known ones.
func (p *prober) onlySituations(list string) error {
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !knownSituation(name) {
			return &usageError{fmt.Errorf("-only: no situation is called %q (they are %s)", name, situationNames())}
		}
		p.only[name] = true
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

// badInputError is a situation's error caused by the command line (a -tool
// the server does not list): the probe exits 2, as for bad input.
type badInputError struct{ msg string }

func (e *badInputError) Error() string { return e.msg }

func knownSituation(name string) bool {
	for _, st := range situations {
		if st.name == name {
			return true
		}
	}
	return false
}

func situationNames() string {
	var names []string
	for _, st := range situations {
		names = append(names, st.name)
	}
	return strings.Join(names, ", ")
}

// run runs every situation in order before deadline and prints each line.
func (p *prober) run(deadline time.Time, dir string, stdout io.Writer) []sitResult {
	var results []sitResult
	var stop string // why the remaining situations are skipped
	n := 0
	for _, st := range situations {
		if len(p.only) > 0 && st.name != "clean" && !p.only[st.name] {
			continue
		}
		if st.http && p.url == "" {
			if p.only[st.name] {
				r := sitResult{name: st.name, verdict: "skipped", facts: []string{"applies to Streamable HTTP only (it closes a request's response stream); this server talks stdio"}}
				printResult(stdout, r)
				results = append(results, r)
			}
			continue
		}
		n++
		r := sitResult{name: st.name}
		switch {
		case p.stopped() != "":
			r.verdict, r.facts = "skipped", []string{"the probe was stopped by " + p.stopped()}
		case stop != "":
			r.verdict, r.facts = "skipped", []string{stop}
		case !time.Now().Before(deadline):
			r.verdict, r.facts = "skipped", []string{fmt.Sprintf("the probe's overall limit ran out (-timeout %s)", p.totalLimit)}
		default:
			fmt.Fprintf(p.log, "probe: %s …\n", st.name)
			r = p.situation(st, minTime(deadline, time.Now().Add(p.limit)), filepath.Join(dir, fmt.Sprintf("%d-%s.client.jsonl", n, st.name)), stdout)
			if (r.broke || r.verdict == "skipped") && st.name == "clean" || r.broke && handshakeFailed(r.facts) {
				stop = "the warm-up did not complete"
			}
		}
		printResult(stdout, r)
		results = append(results, r)
	}
	return results
}

// situation runs one situation on a fresh connection, writes its
// transcript to file and judges it.
func (p *prober) situation(st situation, deadline time.Time, file string, stdout io.Writer) sitResult {
	res := sitResult{name: st.name}
	p.sitStart = time.Now()
	var c conn
	if p.url != "" {
		c = startHTTP(p.url, p.header, p.stop)
	} else {
		sc, err := startStdio(p.argv)
		if err != nil {
			res.verdict, res.facts, res.broke = "error", []string{err.Error()}, true
			return res
		}
		c = sc
	}
	s := newSession(c, p.stop)
	var rep sitReport
	err := p.open(s, deadline, stdout)
	if err == nil {
		err = st.run(p, s, &rep, deadline)
	}
	if err == nil && p.stopped() != "" {
		err = errStopped // a situation that saw only its waits end early
	}
	c.close()
	res.facts = rep.facts
	var skip errSkip
	var need *needArgsError
	switch {
	case errors.As(err, &need):
		res.verdict, res.facts, res.badInput = "skipped", append(res.facts, need.Error()), need
		return res
	case errors.As(err, &skip):
		res.verdict, res.facts = "skipped", append(res.facts, skip.Error())
		return res
	case errors.As(err, new(*badInputError)):
		res.badInput = err
		res.facts = append(res.facts, err.Error())
	case errors.Is(err, errStopped):
		res.facts = append(res.facts, fmt.Sprintf("%v by %s", err, p.stopped()))
	case errors.Is(err, errTimeout) && !deadline.Before(p.total):
		res.facts = append(res.facts, fmt.Sprintf("%v before the probe's overall limit ran out (-timeout %s)", err, p.totalLimit))
	case errors.Is(err, errTimeout):
		res.facts = append(res.facts, fmt.Sprintf("%v within the situation's limit (-limit %s)", err, p.limit))
	case err != nil:
		res.facts = append(res.facts, err.Error())
	}
	return p.judge(res, st, s, &rep, err, file)
}

// open opens the session in the revision -protocol asks for, or the one
// the first handshake settled on; the first prints the server line.
func (p *prober) open(s *session, deadline time.Time, stdout io.Writer) error {
	want := p.protocol
	if p.spoken != "" {
		want = p.spoken // settled by the first handshake
	}
	err := s.handshake(deadline, want)
	if err == nil && p.spoken == "" {
		p.spoken = jsonrpc.Revision20251125
		if s.stateless {
			p.spoken = jsonrpc.Revision20260728
		}
		transport := "stdio `" + strings.Join(p.argv, " ") + "`"
		if p.url != "" {
			transport = "Streamable HTTP " + p.url
		}
		p.server = strings.TrimSpace(s.server)
		fmt.Fprintln(stdout, s.handshakeLine(transport))
	}
	return err
}

// judge writes the situation's transcript to file and has the engine judge
// it, refined by the probe's evidence; res holds the facts so far and err
// the situation's end.
func (p *prober) judge(res sitResult, st situation, s *session, rep *sitReport, err error, file string) sitResult {
	c := s.c
	p.noteCompletions(s)
	recs := c.records()
	res.header = transcriptHeader{File: filepath.Base(file), Observer: trace.ObserverClient, Transport: "stdio", Protocol: s.version,
		WarmupMs: float64(p.warm.done.Microseconds()) / 1000, FastestMs: float64(p.fastest().Microseconds()) / 1000}
	if hc, ok := c.(*httpConn); ok {
		res.header.Transport = "streamable-http"
		res.header.Session = hc.session
	}
	for _, m := range rep.cancels {
		cj := cancelJSON{RequestID: m.id, At: m.at.UTC().Format(time.RFC3339Nano), Unseen: m.unseen}
		if !m.fence.IsZero() {
			cj.FenceAt = m.fence.UTC().Format(time.RFC3339Nano)
		}
		res.header.Cancels = append(res.header.Cancels, cj)
	}
	if rep.violated != "" {
		res.own = append(res.own, "the probe's own observation")
	}
	if sc, ok := c.(*stdioConn); ok {
		strays, n := sc.strayLines()
		if v, entries := strayReport(strays, n, recs); v != "" {
			rep.violated = strings.TrimPrefix(rep.violated+"; "+v, "; ")
			res.own = append(res.own, "stdout carries only JSON-RPC (MCP stdio transport)")
			res.header.StdoutNotJSONRPC = entries
		}
	}
	if werr := writeTranscript(file, p.transport(), s.version, recs, c.closes()); werr != nil {
		res.facts = append(res.facts, "writing the transcript: "+werr.Error())
	} else {
		res.file = file
	}
	data, _ := os.ReadFile(file)
	if tr, ierr := transcript.Import(data, transcript.Options{}); ierr == nil {
		// message-valid judges what both sides wrote against the revision's
		// schema (the deliberately malformed cancellations left out).
		res.checks = append(p.refine(tr, recs, s, rep.cancels), schema.Check(tr))
		for i := range res.checks {
			// Cite the lines of the transcript printed below, as
			// `mcplab run -checks` does, not the trace's event numbers.
			res.checks[i].Detail = citeLines(tr, res.checks[i].Detail)
		}
	} else {
		res.facts = append(res.facts, "the engine could not read the transcript: "+ierr.Error())
	}
	res.verdict = verdictOf(res.checks, rep.violated, err, st.decides)
	res.broke = err != nil
	if rep.violated != "" {
		res.facts = append(res.facts, "VIOLATION: "+rep.violated)
	}
	return res
}

// limitName names the limit that sets deadline: the situation's -limit or,
// when it comes first, the whole probe's -timeout.
func (p *prober) limitName(deadline time.Time) string {
	if !deadline.Before(p.total) {
		return fmt.Sprintf("the probe's overall limit (-timeout %s)", p.totalLimit)
	}
	return fmt.Sprintf("the situation's limit (-limit %s)", p.limit)
}

// limitFor is the flag that would give the current situation need more
// time than it has left before deadline, rounded up to a second.
func (p *prober) limitFor(deadline time.Time, need time.Duration) string {
	if !deadline.Before(p.total) {
		used := time.Since(p.total.Add(-p.totalLimit))
		return fmt.Sprintf("-timeout %s or more", (used + need + time.Second).Truncate(time.Second))
	}
	return fmt.Sprintf("-limit %s", (time.Since(p.sitStart) + need + time.Second).Truncate(time.Second))
}

// handshakeFailed reports whether a situation's facts say its handshake
// (server/discover or initialize) failed.
func handshakeFailed(facts []string) bool {
	all := strings.Join(facts, " ")
	return strings.Contains(all, "initialize") || strings.Contains(all, jsonrpc.MethodDiscover)
}

// verdictOf: FAIL when a rule is violated (by the engine's checks or the
// probe's own observation), error when the situation could not run to its
// end, undecided when the situation's deciding rule (decides, "" for none)
// is undecided or when no check passed and some could not decide, else
// pass.
func verdictOf(cs []trace.Check, violated string, err error, decides trace.RuleID) string {
	var passed, open int
	decidingOpen := false // the deciding rule is undecided: so is the situation, whatever else passed
	for _, c := range cs {
		switch {
		case c.OK == nil:
			open++
			decidingOpen = decidingOpen || c.Rule == decides
		case !*c.OK:
			return "FAIL"
		default:
			passed++
		}
	}
	switch {
	case violated != "":
		return "FAIL"
	case err != nil:
		return "error"
	case decidingOpen || passed == 0 && open > 0:
		return "undecided"
	}
	return "pass"
}

// writeTranscript writes recs as the lab's JSON Lines: the header line
// (observer client, the transport, the protocol revision spoken) then one
// {"t": RFC 3339 time, "from": ..., "message": ...} per message, and an
// event line {"t", "actor": "client", "type": "close-stream", "id"} where
// the client closed a request's stream (in time order, a close before the
// messages of its instant).
func writeTranscript(file, transport, protocol string, recs []record, closes []streamClose) error {
	var b bytes.Buffer
	head, _ := json.Marshal(struct {
		Observer  string `json:"observer"`
		Transport string `json:"transport"`
		Protocol  string `json:"protocol,omitempty"`
	}{trace.ObserverClient, transport, protocol}) // a client's view: engine/transcript judges what it could see
	b.Write(head)
	b.WriteByte('\n')
	line := func(v any) error {
		l, err := json.Marshal(v)
		b.Write(l)
		b.WriteByte('\n')
		return err
	}
	for _, r := range recs {
		for len(closes) > 0 && !closes[0].at.After(r.at) {
			if err := line(closeLine(closes[0])); err != nil {
				return err
			}
			closes = closes[1:]
		}
		if err := line(struct {
			T       string          `json:"t"`
			From    trace.Actor     `json:"from"`
			Message json.RawMessage `json:"message"`
		}{r.at.UTC().Format(time.RFC3339Nano), r.from, r.msg}); err != nil {
			return err
		}
	}
	for _, c := range closes {
		if err := line(closeLine(c)); err != nil {
			return err
		}
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}

// closeLine is the JSON Lines event line of a stream the client closed.
func closeLine(c streamClose) any {
	return struct {
		T     string          `json:"t"`
		Actor trace.Actor     `json:"actor"`
		Type  trace.EventType `json:"type"`
		ID    json.RawMessage `json:"id"`
	}{c.at.UTC().Format(time.RFC3339Nano), trace.ActorClient, trace.TypeCloseStream, json.RawMessage(c.id)}
}

// transport is the transport the probe talks, as the JSON Lines header
// names it.
func (p *prober) transport() string {
	if p.url != "" {
		return scenario.TransportHTTP
	}
	return scenario.TransportStdio
}

func printResult(w io.Writer, r sitResult) {
	fmt.Fprintf(w, "%-22s %-9s %s\n", r.name, r.verdict, strings.Join(r.facts, "; "))
	if len(r.checks) > 0 {
		var parts []string
		for _, c := range r.checks {
			switch {
			case c.OK == nil:
				parts = append(parts, "? "+string(c.Rule))
			case *c.OK:
				parts = append(parts, "pass "+string(c.Rule))
			default:
				parts = append(parts, "FAIL "+string(c.Rule)+" ("+c.Detail+")")
			}
		}
		fmt.Fprintf(w, "%-22s %-9s checks: %s\n", "", "", strings.Join(parts, ", "))
	}
	if r.file != "" {
		fmt.Fprintf(w, "%-22s %-9s %s\n", "", "", r.file)
	}
}
