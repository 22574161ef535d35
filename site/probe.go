package main

// `probe`: drive a live MCP server through the lab's situations with
// controlled timing, record each exchange as a transcript in the lab's JSON
// Lines, and have the engine's checks judge it (issue 17).
//
// Design record.
//
// Context: the probe is a client, so its transcripts are a client's view.
// engine/transcript (issue 15) judges a JSON Lines transcript by its
// observer, named in its header line: from a client's view a cancellation
// and a result closer than the path's round trip are undecided (the
// legitimate race); one further apart, or after the server answered a
// request sent after the cancellation (stdio reads in order: the fence),
// convicts.
//
// Decision: each transcript starts with the header {"observer":"client",
// "transport":...} and holds the real times the client wrote and read each
// message (file name `*.client.jsonl`). Right after each cancellation the
// probe sends a ping (the fence) and notes when its answer arrives; it
// knows from the warm-up how long the tool takes. A message the engine
// flags or leaves undecided for no-message-after-cancel is confirmed when
// it arrived after the fence's answer, or when it is the request's
// response and arrived well before the tool could have finished (before
// start + warm-up time - max(5% of it, 10 ms)): it answers the
// cancellation. Otherwise the probe calls it undecided (the race, as a
// client sees it).
//
// Consequence: the probe never accuses a server for the race, and says
// which order occurred at each offset of the sweep. `site run FILE` on a
// probe transcript judges it as the client saw it: the race is undecided,
// the fence convicts over stdio; only the warm-up evidence is the probe's
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
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"

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
	argv  []string // stdio: the server command
	url   string   // Streamable HTTP: the one address talked to
	tool  string
	args  map[string]any
	limit time.Duration
	only  map[string]bool // situations to run besides clean; empty: all
	warm  warmup
	log   io.Writer
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
	File      string       `json:"file"`
	Observer  string       `json:"observer"`  // always "client": the probe recorded what it wrote and read
	Transport string       `json:"transport"` // "stdio" or "streamable-http"
	Protocol  string       `json:"protocol,omitempty"`
	Session   string       `json:"session,omitempty"` // Mcp-Session-Id (Streamable HTTP)
	WarmupMs  float64      `json:"warmupMs,omitempty"`
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

const probeUsage = `usage: mcplab probe [-tool NAME] [-args JSON] [-out DIR] [-checks] [-junit FILE] [-limit D] [-timeout D] [-only LIST] -- COMMAND [ARG...]
       mcplab probe [-tool NAME] [-args JSON] [-out DIR] [-checks] [-junit FILE] [-limit D] [-timeout D] [-only LIST] [-header 'Name: value'...] URL

Drives a live MCP server (stdio: the probe starts COMMAND; Streamable HTTP:
the URL) through the lab's situations: a clean call with a progress token,
cancel after the first progress, cancel at once, the cancel/complete race
swept around the tool's completion time, bad cancellations then a normal
call, on HTTP closing the stream instead, and a client idle timeout shorter
than the progress interval. Prints one line per situation with its
verdicts, writes each transcript (the lab's JSON Lines, observed by the
client, real times) to -out, and with -checks exits 3 if a rule is violated.
After each cancellation the probe sends a ping, the fence: whatever the
server sends for the request after answering it, it sent after reading the
cancellation. Flags come before the command or URL. The URL is http:// or
https://; -header (repeatable) adds a header to every request, e.g.
-header 'Authorization: Bearer TOKEN' for a server that wants
authentication (it answers 401). SIGINT, SIGTERM and SIGHUP stop the probe
and kill the server's process group. A stdio server's stdout may carry
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
	junitFile := fs.String("junit", "", "also write the verdicts to `FILE` as JUnit XML: a test case per situation and rule")
	limit, total := new(time.Duration), new(time.Duration)
	*limit, *total = probeSituationLimit, probeTotalLimit
	fs.Func("limit", "time limit of one situation, a Go `duration` such as 15s or 2m (default 15s)", positiveDuration(limit))
	fs.Func("timeout", "time limit of the whole probe, a Go `duration` (default 1m0s)", positiveDuration(total))
	only := fs.String("only", "", "run only these situations (comma-separated names; the warm-up \"clean\" always runs)")
	var headers headerFlag
	fs.Var(&headers, "header", "an HTTP header for every request to the URL, 'Name: value' (repeatable; e.g. 'Authorization: Bearer TOKEN')")
	fs.Usage = func() { fmt.Fprintln(stderr, probeUsage); fs.PrintDefaults() }
	if err := parseFlagsOnce(fs, args); err != nil {
		return err
	}
	p := &prober{tool: *tool, limit: *limit, totalLimit: *total, log: stderr, only: map[string]bool{}, stop: make(chan struct{})}
	for _, name := range strings.Split(*only, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !knownSituation(name) {
			return &usageError{fmt.Errorf("-only: no situation is called %q (they are %s)", name, situationNames())}
		}
		p.only[name] = true
	}
	rest := fs.Args()
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
		p.url = rest[0]
	default:
		p.argv = rest
	}
	if len(headers) > 0 && p.url == "" {
		return &usageError{errors.New("-header is for a Streamable HTTP URL, not a stdio command")}
	}
	p.header = http.Header(headers)
	if err := json.Unmarshal([]byte(*argsJSON), &p.args); err != nil || p.args == nil {
		return &usageError{fmt.Errorf("-args must be a JSON object: %q", *argsJSON)}
	}
	dir, wrote := *out, false
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
	// A signal ends the probe as its limits do: the server's process group
	// is killed and probe.json written. A second signal kills the probe.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, probeSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			if p.url != "" {
				fmt.Fprintf(stderr, "probe: %s: stopping (the session is closed)\n", signalName(s))
			} else {
				fmt.Fprintf(stderr, "probe: %s: stopping (the server's process group is killed)\n", signalName(s))
			}
			p.halt(signalName(s))
		case <-done:
		}
	}()
	defer func() { signal.Stop(sigs); close(done) }()
	p.total = time.Now().Add(*total)
	results := p.run(p.total, dir, stdout)
	var heads []transcriptHeader
	for _, r := range results {
		if r.file != "" {
			heads = append(heads, r.header)
		}
	}
	if wrote = len(heads) > 0; wrote {
		if b, err := json.MarshalIndent(heads, "", "  "); err == nil {
			if err := os.WriteFile(filepath.Join(dir, "probe.json"), append(b, '\n'), 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "transcripts: %s (open one with: mcplab run -checks FILE, or drop it on /import/, which judge the transcript alone, as the client saw it: a message the probe convicted only by the warm-up's timing is undecided there; probe.json says who observed each and holds that evidence)\n", dir)
	} else {
		fmt.Fprintln(stdout, "transcripts: none written")
	}
	if *junitFile != "" {
		if err := junit.WriteFile(*junitFile, "mcplab probe", junitOfProbe(strings.Join(rest, " "), results)); err != nil {
			return err
		}
	}
	var failed []string
	errs := 0
	for _, r := range results {
		if r.verdict == "FAIL" {
			var rules []string
			for _, c := range r.checks {
				if c.OK != nil && !*c.OK {
					rules = append(rules, c.Rule)
				}
			}
			rules = append(rules, r.own...)
			if len(rules) == 0 {
				rules = append(rules, "the probe's own observation")
			}
			failed = append(failed, r.name+" ("+strings.Join(rules, ", ")+")")
		}
		if r.broke {
			errs++
		}
	}
	if *check && len(failed) > 0 {
		return &checksFailed{rules: failed}
	}
	if by := p.stopped(); by != "" {
		return fmt.Errorf("stopped by %s", by)
	}
	for _, r := range results {
		if r.badInput != nil {
			return &usageError{r.badInput} // the command line named what the server does not have
		}
	}
	if errs > 0 {
		return fmt.Errorf("%d situation(s) could not run to their end (see above)", errs)
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
			if r.broke && (st.name == "clean" || strings.Contains(strings.Join(r.facts, " "), "initialize")) {
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
	err := s.initialize(deadline)
	if err == nil && st.name == "clean" {
		transport := "stdio `" + strings.Join(p.argv, " ") + "`"
		if p.url != "" {
			transport = "Streamable HTTP " + p.url
		}
		fmt.Fprintf(stdout, "server: %s over %s; offered %s, negotiated %s%s\n", strings.TrimSpace(s.server), transport, probeOffered, s.version, earlierNote(s.version))
	}
	if err == nil {
		err = st.run(p, s, &rep, deadline)
	}
	if err == nil && p.stopped() != "" {
		err = errStopped // a situation that saw only its waits end early
	}
	c.close()
	res.facts = rep.facts
	var skip errSkip
	switch {
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
	recs := c.records()
	res.header = transcriptHeader{File: filepath.Base(file), Observer: "client", Transport: "stdio", Protocol: s.version,
		WarmupMs: float64(p.warm.done.Microseconds()) / 1000}
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
	if werr := writeTranscript(file, p.transport(), recs); werr != nil {
		res.facts = append(res.facts, "writing the transcript: "+werr.Error())
	} else {
		res.file = file
	}
	data, _ := os.ReadFile(file)
	if tr, ierr := transcript.Import(data, transcript.Options{}); ierr == nil {
		res.checks = p.refine(tr, recs, s, rep.cancels)
		for i := range res.checks {
			// Cite the lines of the transcript printed below, as
			// `mcplab run -checks` does, not the trace's event numbers.
			res.checks[i].Detail = citeLines(tr, res.checks[i].Detail)
		}
	} else {
		res.facts = append(res.facts, "the engine could not read the transcript: "+ierr.Error())
	}
	res.verdict = verdictOf(res.checks, rep.violated, err)
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

// verdictOf: FAIL when a rule is violated (by the engine's checks or the
// probe's own observation), error when the situation could not run to its
// end, undecided when no check passed and some could not decide, else pass.
func verdictOf(cs []trace.Check, violated string, err error) string {
	var passed, open int
	for _, c := range cs {
		switch {
		case c.OK == nil:
			open++
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
	case passed == 0 && open > 0:
		return "undecided"
	}
	return "pass"
}

// writeTranscript writes recs as the lab's JSON Lines: the header line
// (observer client, the transport) then one {"t": RFC 3339 time, "from":
// ..., "message": ...} per message.
func writeTranscript(file, transport string, recs []record) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"observer":"client","transport":%q}`+"\n", transport) // the JSON Lines header: a client's view (engine/transcript judges what it could see)
	for _, r := range recs {
		line, err := json.Marshal(struct {
			T       string          `json:"t"`
			From    string          `json:"from"`
			Message json.RawMessage `json:"message"`
		}{r.at.UTC().Format(time.RFC3339Nano), r.from, r.msg})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
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
				parts = append(parts, "? "+c.Rule)
			case *c.OK:
				parts = append(parts, "pass "+c.Rule)
			default:
				parts = append(parts, "FAIL "+c.Rule+" ("+c.Detail+")")
			}
		}
		fmt.Fprintf(w, "%-22s %-9s checks: %s\n", "", "", strings.Join(parts, ", "))
	}
	if r.file != "" {
		fmt.Fprintf(w, "%-22s %-9s %s\n", "", "", r.file)
	}
}
