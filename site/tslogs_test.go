package site

// Real peers for the log readers: the official TypeScript
// SDK (pinned by testdata/probe/ts/package-lock.json) as client and server
// over stdio and Streamable HTTP, driven by testdata/probe/ts/peers.mjs
// through a clean call, a user's cancel, the ordinary race, an idle
// timeout, a maximum timeout, a server restart (two sessions) and an HTTP
// cancel. Each case leaves the logs people have (a Claude Desktop log of
// the client, a stdio tee, the server's own log, a HAR); each is imported
// with transcript.Import and judged. Where real timing decides (a progress
// the server may send before it reads the cancellation) the test accepts
// the undecided verdict, never a false conviction.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/peertest"
)

// tsCases are the situations peers.mjs runs (its header says what each does).
var tsCases = []string{"clean", "user-cancel", "race", "idle-timeout", "max-timeout", "sessions", "http-cancel"}

var (
	tsPeersOnce sync.Once
	tsPeersDir  string
	tsPeersErr  error
)

// tsPeerLogs runs every case of peers.mjs once per test binary and returns
// the directory holding CASE/claude.log, CASE/tee.log, CASE/server.jsonl
// and CASE/client.har.
func tsPeerLogs(t *testing.T) string {
	t.Helper()
	peertest.TypeScript(t)
	tsPeersOnce.Do(func() {
		tsPeersDir, tsPeersErr = os.MkdirTemp("", "mcplab-ts-peers-")
		if tsPeersErr != nil {
			return
		}
		cmd := exec.Command("node", append([]string{filepath.Join("testdata", "probe", "ts", "peers.mjs"), tsPeersDir}, tsCases...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			tsPeersErr = &peerError{err: err, out: string(out)}
		}
	})
	if tsPeersErr != nil {
		t.Fatal(tsPeersErr)
	}
	return tsPeersDir
}

type peerError struct {
	err error
	out string
}

func (e *peerError) Error() string { return "node peers.mjs: " + e.err.Error() + "\n" + e.out }

// verdict is a check's outcome as a word: "pass", "fail", "undecided", or
// "absent" when the rule was not judged.
func verdict(tr *trace.Trace, rule trace.RuleID) string {
	for _, c := range tr.Checks {
		if c.Rule != rule {
			continue
		}
		switch {
		case c.OK == nil:
			return "undecided"
		case *c.OK:
			return "pass"
		}
		return "fail"
	}
	return "absent"
}

// TestTypeScriptSDKLogs imports what real TypeScript SDK peers logged and
// asserts the fair verdict of each rule the situation decides: allowed
// lists every verdict real timing can give, and a conviction is allowed
// only where the SDK really broke the rule (the maximum timeout it enforces
// late and silently).
func TestTypeScriptSDKLogs(t *testing.T) {
	// Parallel, like the probe tests: npm ci and the peers' real-time
	// exchanges wait on the network and the clock, not the CPU, so they
	// overlap the other parallel tests rather than hold up the suite.
	t.Parallel()
	dir := tsPeerLogs(t)
	type want struct {
		rule    trace.RuleID
		allowed []string
	}
	tests := []struct {
		name, file string
		opts       transcript.Options
		format     string
		observer   string
		wants      []want
		// cause of the cancelled request (tools/call id 1), "" for none.
		cause string
		// sessions is how many session labels the events carry (0: none).
		sessions int
	}{
		// A clean call: each request answered once; the protocol comes from
		// the answer to initialize.
		{name: "clean, client", file: "clean/claude.log", format: transcript.FormatClaude, observer: "client",
			wants: []want{{"one-response-per-request", []string{"pass"}}, {"no-message-after-cancel", []string{"absent"}}}},
		{name: "clean, tee", file: "clean/tee.log", format: transcript.FormatTee, observer: "wire",
			wants: []want{{"one-response-per-request", []string{"pass"}}}},
		// The user's cancel at the first progress: the server honours it. Its
		// own log proves it; the client's log may show a progress the server
		// wrote before reading the cancellation (the race), never a fault.
		{name: "user cancel, client", file: "user-cancel/claude.log", format: transcript.FormatClaude, observer: "client", cause: trace.CauseClient,
			wants: []want{{"no-message-after-cancel", []string{"pass", "undecided"}}}},
		{name: "user cancel, server", file: "user-cancel/server.jsonl", format: transcript.FormatJSONL, observer: "server",
			wants: []want{{"no-message-after-cancel", []string{"pass"}}}},
		// The ordinary race: the result crossed the cancellation. The client's
		// log cannot order them (undecided, not the false accusation of the
		// issue); it dropped the late result and had told the server.
		{name: "race, client", file: "race/claude.log", format: transcript.FormatClaude, observer: "client", cause: trace.CauseClient,
			wants: []want{{"no-message-after-cancel", []string{"undecided"}}, {"late-response-ignored", []string{"pass"}}, {"abandon-tells-server", []string{"pass"}}}},
		{name: "race, tee", file: "race/tee.log", format: transcript.FormatTee, observer: "wire",
			wants: []want{{"no-message-after-cancel", []string{"pass"}}}},
		{name: "race, server", file: "race/server.jsonl", format: transcript.FormatJSONL, observer: "server",
			wants: []want{{"no-message-after-cancel", []string{"absent", "pass"}}, {"one-response-per-request", []string{"pass"}}}},
		// The SDK's request timeout: a cancellation whose reason names the
		// timeout (cause idle-timeout); the server honours it.
		{name: "idle timeout, client", file: "idle-timeout/claude.log", format: transcript.FormatClaude, observer: "client", cause: trace.CauseIdleTimeout,
			wants: []want{{"no-message-after-cancel", []string{"pass"}}}},
		{name: "idle timeout, server", file: "idle-timeout/server.jsonl", format: transcript.FormatJSONL, observer: "server",
			wants: []want{{"no-message-after-cancel", []string{"pass"}}}},
		// maxTotalTimeout 150 ms: the SDK checks it only when progress
		// arrives, gives up past the deadline and tells the server nothing.
		// Given the client's maximum, the lab convicts both, fairly.
		{name: "max timeout, client", file: "max-timeout/claude.log", format: transcript.FormatClaude, observer: "client", opts: transcript.Options{MaxTimeoutMs: 150},
			wants: []want{{"max-timeout-enforced", []string{"fail"}}, {"abandon-tells-server", []string{"fail"}}}},
		{name: "max timeout not given", file: "max-timeout/claude.log", format: transcript.FormatClaude, observer: "client",
			wants: []want{{"max-timeout-enforced", []string{"absent"}}}},
		// A server restart: two sessions, each initialize id 0 and call id 1.
		{name: "two sessions, client", file: "sessions/claude.log", format: transcript.FormatClaude, observer: "client", sessions: 2,
			wants: []want{{"one-response-per-request", []string{"pass"}}}},
		// Streamable HTTP under 2025-11-25: the SDK POSTs the cancellation.
		{name: "http cancel, har", file: "http-cancel/client.har", format: transcript.FormatHAR, observer: "client", cause: trace.CauseClient,
			wants: []want{{"http-cancel-posts-notification", []string{"pass"}}, {"no-message-after-cancel", []string{"pass", "undecided"}}}},
		{name: "http cancel, server", file: "http-cancel/server.jsonl", format: transcript.FormatJSONL, observer: "server",
			wants: []want{{"no-message-after-cancel", []string{"pass"}}, {"http-cancel-posts-notification", []string{"pass"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := transcript.Sniff(data); got != tt.format {
				t.Fatalf("Sniff = %q, want %q", got, tt.format)
			}
			tr, err := transcript.Import(data, tt.opts)
			if err != nil {
				t.Fatalf("Import: %v\n%s", err, data)
			}
			if tr.Source.Observer != tt.observer {
				t.Errorf("observer %q, want %q", tr.Source.Observer, tt.observer)
			}
			if tr.Source.Protocol != "2025-11-25" {
				t.Errorf("protocol %q, want 2025-11-25 (from initialize or the header): %s", tr.Source.Protocol, tr.Source.Note)
			}
			// The tee writes as logging wrappers do, a time before each
			// channel and an [INFO] line of its own: read with its times.
			if tt.format == transcript.FormatTee && (tr.Source.Clock != "ms" || !strings.Contains(string(data), "[INFO]")) {
				t.Errorf("the tee is read with clock %q (want ms), its log:\n%s", tr.Source.Clock, data)
			}
			for _, w := range tt.wants {
				got := verdict(tr, w.rule)
				ok := false
				for _, a := range w.allowed {
					ok = ok || a == got
				}
				if !ok {
					t.Errorf("%s: %s, want %s\n%s", w.rule, got, strings.Join(w.allowed, " or "), checkText(tr, w.rule))
				}
			}
			if tt.cause != "" {
				var got string
				for _, r := range tr.Requests {
					if r.ID.Raw() == "1" && r.Method == "tools/call" && r.Cause != nil {
						got = *r.Cause
					}
				}
				if got != tt.cause {
					t.Errorf("cause of request 1: %q, want %q (%s)", got, tt.cause, tr.Source.Note)
				}
			}
			labels := map[string]bool{}
			for _, e := range tr.Events {
				if e.Session != "" {
					labels[e.Session] = true
				}
			}
			if len(labels) != tt.sessions {
				t.Errorf("events name %d sessions (%v), want %d", len(labels), labels, tt.sessions)
			}
			if t.Failed() {
				t.Logf("%s:\n%s", tt.file, data)
			}
		})
	}
}

// checkText is rule's check as text, for a failure message.
func checkText(tr *trace.Trace, rule trace.RuleID) string {
	for _, c := range tr.Checks {
		if c.Rule == rule {
			return c.Detail
		}
	}
	return "(not judged)"
}

// TestTypeScriptSDKLogsCLI proves `mcplab run` reads the same real logs
// with no flag for the format: the client's Claude Desktop log of the
// SDK's maximum timeout passes every check without -max-timeout (nothing
// to judge the timeout by) and, given -max-timeout 150 -checks, fails
// max-timeout-enforced and exits 3; the race's log never fails
// no-message-after-cancel.
func TestTypeScriptSDKLogsCLI(t *testing.T) {
	// Parallel, like the probe tests: npm ci and the peers' real-time
	// exchanges wait on the network and the clock, not the CPU, so they
	// overlap the other parallel tests rather than hold up the suite.
	t.Parallel()
	dir := tsPeerLogs(t)
	maxLog := filepath.Join(dir, "max-timeout", "claude.log")
	var out, errb bytes.Buffer
	err := run([]string{"run", "-max-timeout", "150", "-checks", maxLog}, &out, &errb)
	var cf *checksFailed
	if !errors.As(err, &cf) || !slices.Contains(cf.rules, "max-timeout-enforced") {
		t.Fatalf("run -max-timeout 150 -checks: %v, want max-timeout-enforced failed (exit 3)\n%s", err, errb.String())
	}
	errb.Reset()
	err = run([]string{"run", "-checks", filepath.Join(dir, "race", "claude.log")}, &out, &errb)
	if strings.Contains(errb.String(), "FAIL  no-message-after-cancel") || !strings.Contains(errb.String(), "?   no-message-after-cancel") {
		t.Fatalf("run -checks on the race's client log (err %v): no-message-after-cancel should be undecided\n%s", err, errb.String())
	}
}
