package mock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// The environment a client under probe-client gets (SCENARIO.md, "Live").
const (
	// EnvServerCommand is the JSON array of the argv that launches the
	// mock as a stdio server.
	EnvServerCommand = "MCPLAB_SERVER_COMMAND"
	// EnvSituation is the situation's name.
	EnvSituation = "MCPLAB_SITUATION"
	// EnvTransport is "stdio" or "streamable-http".
	EnvTransport = "MCPLAB_TRANSPORT"
)

// WriteGrace bounds how long a stdio mock is given to write its transcript
// once the client has left: 2 s (live.StopGrace).
const WriteGrace = live.StopGrace

// Trial is one run of a client command against a fresh mock playing a
// situation.
type Trial struct {
	Situation Situation
	// Transport is scenario.TransportStdio or scenario.TransportHTTP.
	Transport string
	// Protocol is the mock's -protocol (ProtocolAuto or a revision).
	Protocol string
	// Argv is the client command; on Streamable HTTP the mock's URL is
	// appended.
	Argv []string
	// Mock is the command line that runs `mcplab mock` (stdio: the client
	// launches it with -out, -name, -protocol and -situation added).
	Mock []string
	// Transcript is the path the transcript is written to (NAME.jsonl: a
	// stdio mock writes it there itself, so the path it prints stays).
	Transcript string
	// Limit bounds the run: the client is stopped when it passes.
	Limit time.Duration
	// Output gets the client's standard output and error (and a stdio
	// mock's standard error).
	Output io.Writer
}

// Outcome is how a trial went.
type Outcome struct {
	// Written reports whether the transcript was written.
	Written bool
	// Client says how the client's process ended ("exited 0", "killed at
	// the situation's limit"...).
	Client string
	// Mock says why the mock's session ended (HTTP) or "" (stdio: the
	// mock runs in the client's process group).
	Mock string
	// TimedOut reports that the limit (or ctx) stopped the client.
	TimedOut bool
}

// Run runs t: a fresh mock, the client once, then every process of the
// client's group killed and the transcript written. ctx ends it early (a
// signal), as the limit does.
func Run(ctx context.Context, t Trial) (Outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, t.Limit)
	defer cancel()
	if t.Transport == scenario.TransportHTTP {
		return runHTTP(ctx, t)
	}
	return runStdio(ctx, t)
}

// stopWhy says why the lab stopped the client once ctx, the trial's, has
// ended: at its limit, or a signal (or the whole run's -timeout).
func (t Trial) stopWhy(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("it stopped the client at its time limit, %v", t.Limit)
	}
	return "it stopped the client: a signal or the run's limit"
}

// command is the client's command with its environment.
func (t Trial) command(extra ...string) *exec.Cmd {
	argv := append(append([]string{}, t.Argv...), extra...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), EnvSituation+"="+t.Situation.Name, EnvTransport+"="+t.Transport)
	cmd.Stdout, cmd.Stderr = t.Output, t.Output
	cmd.WaitDelay = WriteGrace // a grandchild holding the output pipe does not hold Wait
	return cmd
}

// runClient starts cmd in its own process group and waits for it to exit
// or ctx to end; its group is asked to end (SIGTERM) and, after grace or
// once done reports true, killed. ending is called first when ctx ends
// it (the lab, not the client, ends the session).
func runClient(ctx context.Context, cmd *exec.Cmd, done func() bool, ending func()) (Outcome, error) {
	if err := live.StartGroup(cmd); err != nil {
		return Outcome{}, fmt.Errorf("starting the client %s: %w", cmd.Path, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var out Outcome
	select {
	case err := <-exited:
		out.Client = "exited 0"
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			out.Client = "exited: " + ee.ProcessState.String()
		} else if err != nil {
			out.Client = "exited: " + err.Error()
		}
	case <-ctx.Done():
		out.TimedOut = true
		out.Client = "stopped at the situation's limit (its process group was killed)"
		ending()
	}
	live.TermGroup(cmd)
	for end := time.Now().Add(WriteGrace); !done() && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	live.KillGroup(cmd)
	if out.TimedOut {
		select {
		case <-exited:
		case <-time.After(WriteGrace):
		}
	}
	return out, nil
}

// runStdio is a trial on stdio: the client launches the mock itself
// (EnvServerCommand), which writes its transcript when the client leaves
// at t.Transcript (-out and -name), the path it prints and the one
// probe-client reports. A transcript an earlier run left there is removed
// first, so only this run's can be judged; a client that starts its server
// more than once starts a mock each time, and the later ones write
// NAME-2.jsonl… beside it (the first written is the one judged).
func runStdio(ctx context.Context, t Trial) (Outcome, error) {
	if err := os.Remove(t.Transcript); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Outcome{}, err
	}
	argv := append(append([]string{}, t.Mock...), "-out", filepath.Dir(t.Transcript), "-name", strings.TrimSuffix(filepath.Base(t.Transcript), ".jsonl"),
		"-protocol", t.Protocol, "-situation", t.Situation.Name)
	b, _ := json.Marshal(argv)
	cmd := t.command()
	cmd.Env = append(cmd.Env, EnvServerCommand+"="+string(b))
	written := func() bool { _, err := os.Stat(t.Transcript); return err == nil }
	out, err := runClient(ctx, cmd, written, func() {})
	if err != nil {
		return out, err
	}
	out.Written = written()
	return out, nil
}

// runHTTP is a trial on Streamable HTTP: the mock serves a loopback port
// in this process and its URL is the client's last argument.
func runHTTP(ctx context.Context, t Trial) (Outcome, error) {
	sc, err := scenario.Decode([]byte(t.Situation.Scenario))
	if err != nil {
		return Outcome{}, fmt.Errorf("situation %s: %w", t.Situation.Name, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Outcome{}, err
	}
	rec := live.NewRecorder(live.Header{Observer: trace.ObserverServer, Transport: scenario.TransportHTTP})
	m := &Server{Scenario: sc, Protocol: t.Protocol, Quirks: t.Situation.Quirks, Rec: rec}
	mctx, stop := context.WithCancel(context.Background())
	why := make(chan string, 1)
	go func() { why <- m.HTTP(mctx, ln) }()
	out, err := runClient(ctx, t.command("http://"+ln.Addr().String()+Path), func() bool { return true }, func() { m.EndingClient(t.stopWhy(ctx)) })
	stop()
	out.Mock = <-why
	if err != nil {
		return out, err
	}
	if _, werr := rec.WriteFile(filepath.Dir(t.Transcript), filepath.Base(t.Transcript)); werr != nil {
		return out, werr
	}
	out.Written = true
	return out, nil
}
