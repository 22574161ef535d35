// Package probeclient judges a real MCP client (`mcplab probe-client`:
// Run): it runs the client once per situation against a fresh mock
// server (package mock), as the official conformance suite runs clients,
// and has the engine's checks judge the transcript the mock wrote, the
// rules the mock breaks on purpose (a situation's Staged) left out of the
// verdict. On Streamable HTTP the mock's URL is the client's last
// argument; on stdio the client launches Config.Mock, the command that
// runs `mcplab mock`, as its server. The command (package site) parses
// the command line, prints the reports and maps them to an exit status.
package probeclient

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
	"github.com/mcplab/mcplab/site/internal/mock"
)

// Default bounds of probe-client (Config.Limit and Config.Timeout, the
// command's -limit and -timeout, change them).
const (
	SituationLimit = 20 * time.Second // one situation: the client's whole run
	TotalLimit     = 5 * time.Minute  // every situation on every transport
)

// Check is one rule's verdict on a run (as -json prints it).
type Check struct {
	Rule   trace.RuleID `json:"rule"`
	OK     *bool        `json:"ok"`
	Detail string       `json:"detail"`
	// Staged is true for a rule the mock broke on purpose (the situation's
	// Staged): its verdict is left out of the situation's.
	Staged bool `json:"staged,omitempty"`
}

// Result is one situation's run on one transport: its verdict by the
// engine's checks of the mock's transcript. Every report of probe-client
// (its lines, -json, JUnit XML) reads the list Run returns.
type Result struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	Protocol  string `json:"protocol"`
	Verdict   string `json:"verdict"` // pass, fail or undecided
	// Reason is the verdict's reason line: Facts joined with "; ".
	Reason     string  `json:"reason"`
	Checks     []Check `json:"checks"`
	Transcript string  `json:"transcript,omitempty"`
	// Facts say how the run went (the client's exit, a limit), for the
	// text output; Staged the rules left out of the verdict.
	Facts  []string       `json:"-"`
	Staged []trace.RuleID `json:"-"`
	// Broke reports that the run could not happen (the client did not
	// start, never launched the mock or never connected to it, a
	// transcript could not be written).
	Broke bool `json:"-"`
}

// Verdicts of a Result.
const (
	Pass      = "pass"
	Fail      = "fail"
	Undecided = "undecided"
)

// Config is one probe-client run: the client, the situations and
// transports to run it in, and the client's stated timeouts.
type Config struct {
	Argv []string // the client's command line
	// Mock is the command line that runs `mcplab mock`: a stdio client
	// launches it as its server (MCPLAB_SERVER_COMMAND).
	Mock       []string
	Situations []mock.Situation // in order
	Transports []string         // scenario.TransportStdio, scenario.TransportHTTP
	// Protocol is the revision the mock speaks: mock.ProtocolAuto (the
	// client's), jsonrpc.Revision20260728 or jsonrpc.Revision20251125.
	Protocol string
	Dir      string // the transcripts' directory, which exists
	// IdleTimeoutMs and MaxTimeoutMs are the client's configured timeouts
	// per request in ms (0: none stated), so the rules can judge them.
	IdleTimeoutMs, MaxTimeoutMs int64
	// Limit bounds one situation's run (0: SituationLimit), Timeout the
	// whole run (0: TotalLimit).
	Limit, Timeout time.Duration
}

// PrintTranscripts says where the runs' transcripts are, or that none
// was written (every run broke before the mock wrote one).
func PrintTranscripts(w io.Writer, dir string, results []Result) {
	for _, r := range results {
		if r.Transcript != "" {
			fmt.Fprintf(w, "transcripts: %s (judge one again with mcplab run -checks FILE)\n", dir)
			return
		}
	}
	fmt.Fprintf(w, "transcripts: none written (%s is empty of them)\n", dir)
}

// Run runs the client c names once per situation of c on every transport
// of c, each with a fresh mock, within c's limits, and returns their
// results in order. When ctx ends (a signal) the run in progress stops
// (the client's process group is killed) and the rest are undecided, not
// run. log gets a line as each run starts and the client's output,
// prefixed. Judging a transcript never fails a run; a panic while judging
// is a bug of the lab and is not recovered here.
func Run(ctx context.Context, c Config, log io.Writer) []Result {
	if c.Limit <= 0 {
		c.Limit = SituationLimit
	}
	if c.Timeout <= 0 {
		c.Timeout = TotalLimit
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	var out []Result
	n := 0
	for _, st := range c.Situations {
		for _, tr := range c.Transports {
			if st.HTTPOnly && tr != scenario.TransportHTTP || st.Stateful && c.Protocol == jsonrpc.Revision20260728 {
				continue
			}
			n++
			r := Result{Name: st.Name, Transport: tr, Protocol: c.Protocol, Staged: st.Staged, Checks: []Check{}}
			if ctx.Err() != nil {
				r.Verdict, r.Facts = Undecided, []string{"not run: the run's limit (-timeout) or a signal stopped it"}
				out = append(out, r)
				continue
			}
			fmt.Fprintf(log, "probe-client: %s on %s …\n", st.Name, tr)
			out = append(out, runSituation(ctx, c, st, tr, filepath.Join(c.Dir, fmt.Sprintf("%d-%s.%s.server.jsonl", n, st.Name, transportShort(tr))), log))
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
func runSituation(ctx context.Context, c Config, st mock.Situation, tr, file string, log io.Writer) Result {
	r := Result{Name: st.Name, Transport: tr, Protocol: c.Protocol, Staged: st.Staged, Checks: []Check{}, Verdict: Undecided}
	// A stdio mock would judge on its own as the client leaves (on the
	// client's stderr), without the situation's staged rules left out:
	// it writes the transcript only, and probe-client judges it.
	self := append(append([]string{}, c.Mock...), "-idle-timeout", strconv.FormatInt(c.IdleTimeoutMs, 10), "-max-timeout", strconv.FormatInt(c.MaxTimeoutMs, 10), "-verdicts=false")
	out, err := mock.Run(ctx, mock.Trial{Situation: st, Transport: tr, Protocol: c.Protocol, Argv: c.Argv, Mock: self,
		Transcript: file, Limit: c.Limit, Output: prefixed(log, "  client: ")})
	if err != nil {
		r.Facts, r.Broke = append(r.Facts, err.Error()), true
		return r
	}
	r.Facts = append(r.Facts, "client "+out.Client)
	if out.TimedOut && ctx.Err() == nil {
		r.Facts[len(r.Facts)-1] = fmt.Sprintf("client stopped at the situation's limit (-limit %s)", c.Limit)
	}
	if !out.Written {
		r.Facts, r.Broke = append(r.Facts, "no transcript: the client never launched the mock (is MCPLAB_SERVER_COMMAND its server command?)"), true
		return r
	}
	r.Transcript = file
	t, err := mock.Judge(file, c.MaxTimeoutMs, c.IdleTimeoutMs)
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
		c := Check{Rule: ch.Rule, OK: ch.OK, Detail: live.CiteLines(t, ch.Detail), Staged: isOneOf(ch.Rule, st.Staged)}
		if ch.OK != nil && !*ch.OK && citesAny(ch.Events, labClosed) {
			c.OK, c.Detail = nil, "ended by the lab, undecided: it rests on a stream the lab broke when it stopped the client ("+c.Detail+")"
		}
		r.Checks = append(r.Checks, c)
	}
	r.Verdict = clientVerdict(r.Checks, st.Staged, st.Subject)
	switch {
	case r.Verdict == Undecided && len(labClosed) > 0:
		r.Facts = append(r.Facts, fmt.Sprintf("the lab ended the client with %d call(s) open, so how it would have ended them cannot show (the transcript marks those streams' ends as the lab's)", len(labClosed)))
	case r.Verdict != Undecided:
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
func clientVerdict(cs []Check, staged, subject []trace.RuleID) string {
	v := Undecided
	for _, c := range cs {
		switch {
		case c.OK == nil || isOneOf(c.Rule, staged):
		case !*c.OK:
			return Fail
		case isOneOf(c.Rule, subject):
			v = Pass
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

// isOneOf reports whether rule is one of rules.
func isOneOf(rule trace.RuleID, rules []trace.RuleID) bool {
	for _, s := range rules {
		if s == rule {
			return true
		}
	}
	return false
}

// Print writes a result's lines, as the probe prints its own: the
// verdict and facts, the checks (staged ones marked), the transcript.
func Print(w io.Writer, r Result) {
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

// prefixWriter is prefixed's writer: bol says the next byte begins a
// line.
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
