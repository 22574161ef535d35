package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	"github.com/mcplab/mcplab/site/internal/live"
)

// Default bounds of a probe (Options.Limit and Options.Timeout, the
// command's -limit and -timeout, change them).
const (
	SituationLimit = 15 * time.Second // one situation, initialize included
	TotalLimit     = 60 * time.Second // the whole probe
	probeMaxGrace  = 2 * time.Second  // longest wait for stray messages after a call ends or is cancelled
	probeMinGrace  = 200 * time.Millisecond
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
	// protocol is -protocol (Protocols); spoken is the revision the
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
	// stop is closed when the probe is stopped (Run's context ends: a
	// signal, SignalContext); stopBy names why.
	stop   chan struct{}
	stopMu sync.Mutex
	stopBy string
}

// halt stops the probe for name (a signal's): every session's wait returns
// errStopped, so the current situation ends and its server is killed.
func (p *prober) halt(name string) {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	if p.stopBy == "" {
		p.stopBy = name
		close(p.stop)
	}
}

// stopped names what stopped the probe (a signal), "" if nothing did.
func (p *prober) stopped() string {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	return p.stopBy
}

// Result is one situation's outcome, the line the probe prints for it.
type Result struct {
	Name    string
	Verdict string // pass, FAIL, undecided, error, skipped
	// Facts are the line's phrases: what happened, why it was skipped.
	Facts []string
	// Checks are the engine's verdicts on the transcript, refined by the
	// probe's timing evidence; details cite the transcript's lines.
	Checks []trace.Check
	File   string // the transcript's path, "" when none was written
	Header TranscriptHeader
	Broke  bool // the situation could not run to its end (an error, whatever the verdict)
	// BadInput is the error of an option that asks for what the server
	// lacks (Options.Tool it does not list; a tool that requires
	// arguments without Options.Args): the command line's fault, not the
	// server's.
	BadInput error
	// Own are the probe's own observations that fail the situation, named
	// as a list of failed rules names them ("the probe's own observation",
	// "stdout carries only JSON-RPC (MCP stdio transport)").
	Own []string
}

// TranscriptHeader is what a transcript's JSON Lines header does not say:
// the probe writes it for every transcript into probe.json beside them.
type TranscriptHeader struct {
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
	// standard output that are not JSON-RPC messages (stray.go):
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

// Options are one probe's settings, the command line of `mcplab probe`
// parsed: the server (Argv for stdio, else URL), what to call and how
// long each part may take.
type Options struct {
	Argv []string // stdio: the server command, started afresh per situation
	URL  string   // Streamable HTTP: the one address talked to (http or https)
	// Header is added to every HTTP request (authentication); a stdio
	// server has none.
	Header http.Header
	Tool   string // the tool to call; "" the first listed
	// Args are the tool's arguments; ArgsGiven says they were given (a
	// tool whose inputSchema requires arguments is not called without).
	Args      map[string]any
	ArgsGiven bool
	// Protocol is the revision to speak: Auto (the default for ""),
	// jsonrpc.Revision20260728 or jsonrpc.Revision20251125.
	Protocol string
	// Only are the situations to run besides clean (Situations); none:
	// all of them.
	Only []string
	// Limit bounds one situation (0: SituationLimit), Timeout the whole
	// probe (0: TotalLimit).
	Limit, Timeout time.Duration
	// Dir is the directory for the transcripts and probe.json, made when
	// missing; "" a new temporary directory, removed again when no
	// transcript was written.
	Dir string
	// Log gets a line as each situation starts (nil: none).
	Log io.Writer
}

// Report is a whole probe: the server, each situation's Result in order,
// where the transcripts are and what stopped the probe early.
type Report struct {
	Peer       Peer
	Transport  string // scenario.TransportStdio or scenario.TransportHTTP
	Situations []Result
	Dir        string // the transcripts' directory ("" when none was written)
	Stopped    string // what stopped the probe (a signal's name), "" if nothing did
}

// InputError is an error of the options, or of an option the server
// contradicts (a -tool it does not list): bad input, never the server's
// fault. The command exits 2 for it.
type InputError struct{ msg string }

// Error says what is wrong and with which option ("-only: no situation
// is called ...").
func (e *InputError) Error() string { return e.msg }

// Run probes the server o names: every situation in order within o's
// limits, each line written to text as it ends (the server's line after
// the first handshake, a line per situation, then where the transcripts
// are). When ctx ends (a signal: SignalContext) the probe stops as its limits
// stop it: the current situation ends, its server's process group is
// killed, the rest are skipped, and Report.Stopped names ctx's cause.
// Errors: *InputError for bad options (an unknown protocol or situation,
// Header for a stdio server), else the transcripts' directory or index
// could not be written.
func Run(ctx context.Context, o Options, text io.Writer) (*Report, error) {
	p, err := newProber(o)
	if err != nil {
		return nil, err
	}
	dir, temp := o.Dir, o.Dir == ""
	if temp {
		if dir, err = os.MkdirTemp("", "mcplab-probe-"); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			p.halt(stopCause(ctx))
		case <-done:
		}
	}()
	p.total = time.Now().Add(p.totalLimit)
	rep := &Report{Peer: Peer{Command: p.argv, URL: p.url}, Transport: p.transport(), Dir: dir}
	rep.Situations = p.run(p.total, dir, text)
	rep.Peer.Server, rep.Peer.Protocol, rep.Stopped = p.server, p.spoken, p.stopped()
	wrote, err := writeIndex(dir, rep.Situations, text)
	if !wrote {
		rep.Dir = ""
		if temp {
			os.RemoveAll(dir) // nothing to keep: no run leaves an empty directory behind
		}
	}
	return rep, err
}

// stopCause names why ctx ended: its cause's message (a signal's name,
// SignalContext), else "its caller".
func stopCause(ctx context.Context) string {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) && !errors.Is(c, context.DeadlineExceeded) {
		return c.Error()
	}
	return "its caller"
}

// newProber checks o and makes the prober that runs it.
func newProber(o Options) (*prober, error) {
	p := &prober{argv: o.Argv, url: o.URL, header: o.Header, tool: o.Tool, args: o.Args, argsGiven: o.ArgsGiven,
		protocol: o.Protocol, limit: o.Limit, totalLimit: o.Timeout, log: o.Log, only: map[string]bool{}, stop: make(chan struct{})}
	switch {
	case p.protocol == "":
		p.protocol = Auto
	case !slices.Contains(Protocols, p.protocol):
		return nil, &InputError{fmt.Sprintf("-protocol: want %s, not %q", strings.Join(Protocols, ", "), p.protocol)}
	}
	switch {
	case len(p.argv) == 0 && p.url == "":
		return nil, &InputError{"probe needs a server: -- COMMAND [ARG...] or a URL"}
	case len(p.header) > 0 && p.url == "":
		return nil, &InputError{"-header is for a Streamable HTTP URL, not a stdio command"}
	}
	for _, name := range o.Only {
		if !knownSituation(name) {
			return nil, &InputError{fmt.Sprintf("-only: no situation is called %q (they are %s)", name, Situations())}
		}
		p.only[name] = true
	}
	if p.args == nil {
		p.args = map[string]any{}
	}
	if p.limit <= 0 {
		p.limit = SituationLimit
	}
	if p.totalLimit <= 0 {
		p.totalLimit = TotalLimit
	}
	if p.log == nil {
		p.log = io.Discard
	}
	return p, nil
}

// knownSituation reports whether a situation is called name.
func knownSituation(name string) bool {
	for _, st := range situations {
		if st.name == name {
			return true
		}
	}
	return false
}

// Situations names the probe's situations in the order they run,
// comma-separated (the command's usage and -only's errors list them).
func Situations() string {
	var names []string
	for _, st := range situations {
		names = append(names, st.name)
	}
	return strings.Join(names, ", ")
}

// run runs every situation in order before deadline and prints each line.
func (p *prober) run(deadline time.Time, dir string, stdout io.Writer) []Result {
	var results []Result
	var stop string // why the remaining situations are skipped
	n := 0
	for _, st := range situations {
		if len(p.only) > 0 && st.name != "clean" && !p.only[st.name] {
			continue
		}
		if st.http && p.url == "" {
			if p.only[st.name] {
				r := Result{Name: st.name, Verdict: "skipped", Facts: []string{"applies to Streamable HTTP only (it closes a request's response stream); this server talks stdio"}}
				printResult(stdout, r)
				results = append(results, r)
			}
			continue
		}
		n++
		r := Result{Name: st.name}
		switch {
		case p.stopped() != "":
			r.Verdict, r.Facts = "skipped", []string{"the probe was stopped by " + p.stopped()}
		case stop != "":
			r.Verdict, r.Facts = "skipped", []string{stop}
		case !time.Now().Before(deadline):
			r.Verdict, r.Facts = "skipped", []string{fmt.Sprintf("the probe's overall limit ran out (-timeout %s)", p.totalLimit)}
		default:
			fmt.Fprintf(p.log, "probe: %s …\n", st.name)
			r = p.situation(st, minTime(deadline, time.Now().Add(p.limit)), filepath.Join(dir, fmt.Sprintf("%d-%s.client.jsonl", n, st.name)), stdout)
			if (r.Broke || r.Verdict == "skipped") && st.name == "clean" || r.Broke && handshakeFailed(r.Facts) {
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
func (p *prober) situation(st situation, deadline time.Time, file string, stdout io.Writer) Result {
	res := Result{Name: st.name}
	p.sitStart = time.Now()
	var c conn
	if p.url != "" {
		c = startHTTP(p.url, p.header, p.stop)
	} else {
		sc, err := startStdio(p.argv)
		if err != nil {
			res.Verdict, res.Facts, res.Broke = "error", []string{err.Error()}, true
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
	res.Facts = rep.facts
	var skip errSkip
	var need *needArgsError
	switch {
	case errors.As(err, &need):
		res.Verdict, res.Facts, res.BadInput = "skipped", append(res.Facts, need.Error()), need
		return res
	case errors.As(err, &skip):
		res.Verdict, res.Facts = "skipped", append(res.Facts, skip.Error())
		return res
	case errors.As(err, new(*InputError)):
		res.BadInput = err
		res.Facts = append(res.Facts, err.Error())
	case errors.Is(err, errStopped):
		res.Facts = append(res.Facts, fmt.Sprintf("%v by %s", err, p.stopped()))
	case errors.Is(err, errTimeout) && !deadline.Before(p.total):
		res.Facts = append(res.Facts, fmt.Sprintf("%v before the probe's overall limit ran out (-timeout %s)", err, p.totalLimit))
	case errors.Is(err, errTimeout):
		res.Facts = append(res.Facts, fmt.Sprintf("%v within the situation's limit (-limit %s)", err, p.limit))
	case err != nil:
		res.Facts = append(res.Facts, err.Error())
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
func (p *prober) judge(res Result, st situation, s *session, rep *sitReport, err error, file string) Result {
	c := s.c
	p.noteCompletions(s)
	recs := c.records()
	res.Header = TranscriptHeader{File: filepath.Base(file), Observer: trace.ObserverClient, Transport: "stdio", Protocol: s.version,
		WarmupMs: float64(p.warm.done.Microseconds()) / 1000, FastestMs: float64(p.fastest().Microseconds()) / 1000}
	if hc, ok := c.(*httpConn); ok {
		res.Header.Transport = "streamable-http"
		res.Header.Session = hc.session
	}
	for _, m := range rep.cancels {
		cj := cancelJSON{RequestID: m.id, At: m.at.UTC().Format(time.RFC3339Nano), Unseen: m.unseen}
		if !m.fence.IsZero() {
			cj.FenceAt = m.fence.UTC().Format(time.RFC3339Nano)
		}
		res.Header.Cancels = append(res.Header.Cancels, cj)
	}
	if rep.violated != "" {
		res.Own = append(res.Own, "the probe's own observation")
	}
	if sc, ok := c.(*stdioConn); ok {
		strays, n := sc.strayLines()
		if v, entries := strayReport(strays, n, recs); v != "" {
			rep.violated = strings.TrimPrefix(rep.violated+"; "+v, "; ")
			res.Own = append(res.Own, "stdout carries only JSON-RPC (MCP stdio transport)")
			res.Header.StdoutNotJSONRPC = entries
		}
	}
	if werr := writeTranscript(file, p.transport(), s.version, recs, c.closes()); werr != nil {
		res.Facts = append(res.Facts, "writing the transcript: "+werr.Error())
	} else {
		res.File = file
	}
	data, _ := os.ReadFile(file)
	if tr, ierr := transcript.Import(data, transcript.Options{}); ierr == nil {
		// message-valid judges what both sides wrote against the revision's
		// schema (the deliberately malformed cancellations left out).
		res.Checks = append(p.refine(tr, recs, s, rep.cancels), schema.Check(tr))
		for i := range res.Checks {
			// Cite the lines of the transcript printed below, as
			// `mcplab run -checks` does, not the trace's event numbers.
			res.Checks[i].Detail = live.CiteLines(tr, res.Checks[i].Detail)
		}
	} else {
		res.Facts = append(res.Facts, "the engine could not read the transcript: "+ierr.Error())
	}
	res.Verdict = verdictOf(res.Checks, rep.violated, err, st.decides)
	res.Broke = err != nil
	if rep.violated != "" {
		res.Facts = append(res.Facts, "VIOLATION: "+rep.violated)
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

// printResult writes a situation's line, its checks' line and its
// transcript's path, in columns.
func printResult(w io.Writer, r Result) {
	fmt.Fprintf(w, "%-22s %-9s %s\n", r.Name, r.Verdict, strings.Join(r.Facts, "; "))
	if len(r.Checks) > 0 {
		var parts []string
		for _, c := range r.Checks {
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
	if r.File != "" {
		fmt.Fprintf(w, "%-22s %-9s %s\n", "", "", r.File)
	}
}
