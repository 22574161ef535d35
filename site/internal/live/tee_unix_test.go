//go:build unix

package live

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProxyStdioTee: a real Go SDK client talks to a real Go SDK server
// launched by the tee; with and without faults the client reads exactly
// the bytes the server wrote, the transcript imports with no failing rule
// (buffer=final shows the tee's three holds of the call's progress), and
// once the client closes its side the server's process group is gone.
func TestProxyStdioTee(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		faults string
		holds  int
	}{{"", 0}, {"buffer=final", 3}, {"latency=30", 0}} {
		t.Run("faults="+c.faults, func(t *testing.T) {
			t.Parallel()
			f, err := ParseFaults(c.faults)
			if err != nil {
				t.Fatal(err)
			}
			teeSession(t, f, c.holds)
		})
	}
}

func teeSession(t *testing.T, faults Faults, wantHolds int) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out := t.TempDir() + "/server-stdout"
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c2pR, c2pW := io.Pipe() // client → tee
	p2cR, p2cW := io.Pipe() // tee → client
	rec := NewRecorder(Header{Observer: trace.ObserverWire, Transport: scenario.TransportStdio, Proxy: "mcplab proxy"})
	tee := &Tee{Argv: []string{"env", liveServerEnv + "=stdio", liveOutEnv + "=" + out, exe}, Faults: faults, Rec: rec, Stdin: c2pR, Stdout: p2cW, Stderr: io.Discard}
	ended := make(chan string, 1)
	go func() {
		why, err := tee.Run(ctx)
		if err != nil {
			why = err.Error()
		}
		p2cW.Close()
		ended <- why
	}()
	var got bytes.Buffer
	var progress int
	client := mcp.NewClient(&mcp.Implementation{Name: "lab-client", Version: "v0.0.1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress++ },
	})
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(p2cR, &got)), Writer: c2pW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
	params.SetProgressToken("tok-1")
	if _, err := cs.CallTool(ctx, params); err != nil {
		t.Fatalf("CallTool through the tee: %v", err)
	}
	cs.Close()
	var why string
	select {
	case why = <-ended:
	case <-ctx.Done():
		t.Fatal("the tee did not end after the client left")
	}
	_, _ = io.Copy(io.Discard, p2cR)
	wrote, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), wrote) {
		t.Errorf("the client read %q, the server wrote %q (%s)", got.Bytes(), wrote, why)
	}
	if progress != 3 {
		t.Errorf("the client got %d progress notifications, want 3", progress)
	}
	if left := groupLeft(t, tee.PID()); left != "" {
		t.Errorf("the server's process group %d still runs %s after: %s", tee.PID(), left, why)
	}
	tr := judge(t, rec)
	holds := 0
	for _, e := range tr.Events {
		if e.Actor == trace.ActorProxy && e.Type == trace.TypeHold {
			holds++
		}
	}
	if holds != wantHolds {
		t.Errorf("%d holds on the timeline, want %d", holds, wantHolds)
	}
	if len(tr.Requests) < 2 {
		t.Errorf("the transcript holds %d requests, want initialize and the call", len(tr.Requests))
	}
	for _, c := range tr.Checks {
		if c.OK != nil && !*c.OK {
			t.Errorf("%s fails on a clean tee: %s", c.Rule, c.Detail)
		}
	}
}

// TestProxyStdioKillsGroup: a server that ignores its closed input and
// leaves a grandchild behind gets StopGrace, then its whole process group
// is killed: nothing is left and Run returns in bounded time.
func TestProxyStdioKillsGroup(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tee := &Tee{Argv: []string{"sh", "-c", "sleep 30 & sleep 30"}, Rec: NewRecorder(Header{Observer: trace.ObserverWire}), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	start := time.Now()
	why, err := tee.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*StopGrace+time.Second {
		t.Errorf("Run took %v, want at most about StopGrace (%v)", d, StopGrace)
	}
	if !strings.Contains(why, "process group was killed") {
		t.Errorf("why = %q, want the group killed", why)
	}
	// SIGKILL is delivered asynchronously: a killed process can show as
	// running in /proc for a moment after Run returns. Poll /proc (no event
	// tells when the kernel has finished) for at most a second.
	left := groupLeft(t, tee.PID())
	for deadline := time.Now().Add(time.Second); left != "" && time.Now().Before(deadline); left = groupLeft(t, tee.PID()) {
		time.Sleep(10 * time.Millisecond)
	}
	if left != "" {
		t.Errorf("process group %d still runs %s a second after Run returned", tee.PID(), left)
	}
}

// groupLeft names the live processes of process group pgid ("" for
// none): /proc's stat lines, zombies aside (a killed orphan waits there
// for a parent that reaps it, which a container's init may never do).
func groupLeft(t *testing.T, pgid int) string {
	t.Helper()
	if pgid == 0 {
		t.Fatal("the tee started no server")
	}
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return ""
	}
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("process group %d answers kill(2) and there is no /proc to tell a zombie from a live process: %v", pgid, err)
	}
	var left []string
	for _, d := range dirs {
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its ")".
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			left = append(left, string(stat[:i+1]))
		}
	}
	return strings.Join(left, ", ")
}
