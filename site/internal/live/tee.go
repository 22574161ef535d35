package live

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// StopGrace bounds how long a stdio server is given to leave once its
// standard input closes (MCP stdio transport: the client closes it to
// end the session), and how long the relays are awaited after its process
// group is killed: 2 s each.
const StopGrace = 2 * time.Second

// Tee is a recording tee for stdio (SCENARIO.md, Live: proxy): it launches
// the server command in its own process group and relays the client's
// standard input to the server's and the server's standard output to the
// client's byte for byte, recording every JSON-RPC line on both hops; a
// line that is no message passes through unrecorded. The server's
// standard error goes to Stderr.
type Tee struct {
	// Argv is the server command.
	Argv []string
	// Faults: latency and buffer (Faults.CheckStdio refuses the others).
	Faults Faults
	// Rec records the wire.
	Rec *Recorder
	// Stdin and Stdout are the client's side; Stderr gets the server's.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	pid atomic.Int64
}

// PID is the server's process id (its process group's) once Run started
// it, 0 before.
func (t *Tee) PID() int { return int(t.pid.Load()) }

// Run runs the server until it exits, the client closes its input (the
// server then gets StopGrace to leave) or ctx ends; then the server's
// whole process group is killed. It returns why the session ended.
func (t *Tee) Run(ctx context.Context) (string, error) {
	if len(t.Argv) == 0 {
		return "", errors.New("no server command")
	}
	if err := t.Faults.CheckStdio(); err != nil {
		return "", err
	}
	cmd := exec.Command(t.Argv[0], t.Argv[1:]...)
	setProcessGroup(cmd)
	cmd.Stderr = t.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting %s: %w", t.Argv[0], err)
	}
	defer killGroup(cmd)
	t.pid.Store(int64(cmd.Process.Pid))
	exited := make(chan error, 1)
	serverDone := make(chan struct{})
	go func() {
		defer close(serverDone)
		t.relay(ctx, trace.ActorServer, out, t.Stdout)
	}()
	clientDone := make(chan struct{})
	go func() {
		defer close(clientDone)
		t.relay(ctx, trace.ActorClient, t.Stdin, in)
		in.Close()
	}()
	go func() {
		<-serverDone // Wait closes the pipes: read them to the end first
		exited <- cmd.Wait()
	}()
	why := ""
	select {
	case err := <-exited:
		why = "the server exited"
		if err != nil {
			why += " (" + err.Error() + ")"
		}
	case <-clientDone:
		select {
		case <-exited:
			why = "the client closed the server's input and the server left"
		case <-time.After(StopGrace):
			why = fmt.Sprintf("the client closed the server's input; the server did not leave within %v, so its process group was killed", StopGrace)
		case <-ctx.Done():
			why = "stopped (" + context.Cause(ctx).Error() + ") after the client closed the server's input"
		}
	case <-ctx.Done():
		why = "stopped: " + context.Cause(ctx).Error()
	}
	killGroup(cmd)
	select {
	case <-serverDone:
	case <-time.After(StopGrace): // a grandchild outside the group holds stdout
	}
	return why, nil
}

// relay copies lines from r to w exactly, recording each JSON-RPC line as
// from's send and, once written, its delivery; latency delays each line,
// buffer holds the server's lines until a final response or N bytes.
func (t *Tee) relay(ctx context.Context, from trace.Actor, r io.Reader, w io.Writer) {
	br := bufio.NewReaderSize(r, 64<<10)
	var held []heldEvent
	heldBytes := 0
	write := func(ev heldEvent) bool {
		if _, err := w.Write(ev.raw); err != nil {
			return false
		}
		for i, m := range ev.msgs {
			t.Rec.Delivered(from, m, ev.wires[i], "")
		}
		return true
	}
	buffering := from == trace.ActorServer && t.Faults.Buffering()
	for {
		raw, err := readLine(br)
		if len(raw) > 0 {
			ev := heldEvent{raw: raw, msgs: Messages(raw)}
			final := false
			for _, m := range ev.msgs {
				wire, _ := t.Rec.Sent(from, m, "")
				ev.wires = append(ev.wires, wire)
				final = final || m.Msg.IsFinal()
			}
			switch {
			case buffering:
				held = append(held, ev)
				heldBytes += len(raw)
				last := 0
				if n := len(ev.wires); n > 0 {
					last = ev.wires[n-1]
				}
				if final || t.Faults.BufferBytes > 0 && heldBytes >= t.Faults.BufferBytes {
					if len(held) == 1 && final { // nothing was held back
						if !write(ev) {
							return
						}
						held, heldBytes = nil, 0
						continue
					}
					t.Rec.Event(trace.ActorProxy, trace.TypeFlush, "", last, nil, fmt.Sprintf("The tee flushes %d held line(s), %d bytes, at once.", len(held), heldBytes))
					for _, h := range held {
						if !write(h) {
							return
						}
					}
					held, heldBytes = nil, 0
				} else {
					for _, wi := range ev.wires {
						t.Rec.Event(trace.ActorProxy, trace.TypeHold, "", wi, nil, fmt.Sprintf("The tee holds the server's output: %d bytes held.", heldBytes))
					}
				}
			default:
				if !sleepCtx(ctx, time.Duration(t.Faults.LatencyMs)*time.Millisecond) || !write(ev) {
					return
				}
			}
		}
		if err != nil {
			break
		}
	}
	if len(held) > 0 { // the server's output ended: what was held goes out
		t.Rec.Event(trace.ActorProxy, trace.TypeFlush, "", 0, nil, fmt.Sprintf("The tee flushes %d held line(s), %d bytes, at once (the server's output ended).", len(held), heldBytes))
	}
	for _, h := range held {
		if !write(h) {
			return
		}
	}
}

// readLine reads one line from br exactly as sent, newline included (the
// last line of a stream may have none); err is io.EOF at the end.
func readLine(br *bufio.Reader) ([]byte, error) {
	var raw []byte
	for {
		l, err := br.ReadSlice('\n')
		raw = append(raw, l...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return raw, err
	}
}
