package live

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
)

// Session is one run of `mcplab proxy`: an HTTPProxy for the server at
// Target, or a Tee for the stdio server Argv, with Faults, recording both
// hops into one transcript as the messages pass.
type Session struct {
	Target   *url.URL     // Streamable HTTP: the server's URL
	Listener net.Listener // Streamable HTTP: where the proxy serves
	Argv     []string     // stdio (no Target): the server's command
	Faults   Faults
	// Stdin and Stdout are the client's side of a stdio session; Log gets
	// the proxy's lines and, on stdio, the server's standard error.
	Stdin  io.Reader
	Stdout io.Writer
	Log    io.Writer
	// Dir is the transcript's directory ("" a new temporary one), made at
	// start; Name its base name: Name.jsonl, or Name-2.jsonl… when that
	// exists (CreateFree).
	Dir, Name string
	// Ready, if not nil, gets the proxy's URL once it listens (HTTP).
	Ready func(url string)
}

// Run records until ctx ends (a signal; stdio: or the server or the
// client ends), then writes the transcript whole once more and says where
// it is on Log. It returns the transcript's path and how many records it
// holds (0: nothing crossed the proxy, nothing to judge). Errors: the
// directory or the transcript could not be written, the server could not
// start; the Listener is closed in any case.
func (s *Session) Run(ctx context.Context) (path string, records int, err error) {
	dir := s.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "mcplab-proxy-"); err != nil {
			s.closeListener()
			return "", 0, err
		}
	}
	name := "mcplab proxy"
	if s.Faults.String() != "" {
		name += " -faults " + s.Faults.String()
	}
	transport := scenario.TransportStdio
	if s.Target != nil {
		transport = scenario.TransportHTTP
	}
	rec := NewRecorder(Header{Observer: trace.ObserverWire, Transport: transport, Proxy: name})
	// The file is claimed now and written as the wire runs: a proxy killed
	// mid-session (SIGKILL) so leaves every record but the one being
	// written.
	if path, err = rec.Stream(dir, s.Name); err != nil {
		s.closeListener()
		return "", 0, err
	}
	fmt.Fprintf(s.Log, "mcplab proxy: recording to %s as messages pass\n", path)
	if err := s.relay(ctx, rec); err != nil {
		return "", 0, err
	}
	if err := rec.Finish(); err != nil {
		return "", 0, err
	}
	if rec.Len() == 0 {
		fmt.Fprintf(s.Log, "mcplab proxy: transcript %s: nothing crossed the proxy, so no verdicts\n", path)
		return path, 0, nil
	}
	fmt.Fprintf(s.Log, "mcplab proxy: transcript %s (%d records; judge it again with mcplab run -checks %s)\n", path, rec.Len(), path)
	if n := rec.Cut(); n > 0 {
		fmt.Fprintf(s.Log, "mcplab proxy: %d records past the transcript's limits (%d lines, 4 MiB) were passed on but not recorded\n", n, transcript.MaxLines)
	}
	return path, rec.Len(), nil
}

// relay passes the wire through until the session ends: the HTTP proxy
// until ctx ends, or the stdio tee until either side leaves.
func (s *Session) relay(ctx context.Context, rec *Recorder) error {
	if s.Target == nil {
		tee := &Tee{Argv: s.Argv, Faults: s.Faults, Rec: rec, Stdin: s.Stdin, Stdout: s.Stdout, Stderr: s.Log}
		why, err := tee.Run(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.Log, "mcplab proxy: %s\n", why)
		return nil
	}
	p := &HTTPProxy{Target: s.Target, Faults: s.Faults, Rec: rec}
	self := "http://" + s.Listener.Addr().String() + s.Target.EscapedPath()
	faults := s.Faults.String()
	if faults == "" {
		faults = "none"
	}
	fmt.Fprintf(s.Log, "mcplab proxy: %s → %s (faults: %s); stop it (Ctrl-C) to write the transcript\n", self, s.Target, faults)
	if s.Ready != nil {
		s.Ready(self)
	}
	if err := p.Serve(ctx, s.Listener); err != nil {
		return err
	}
	fmt.Fprintln(s.Log, "mcplab proxy: stopped")
	return nil
}

// closeListener closes the Listener of a session that ends before serving.
func (s *Session) closeListener() {
	if s.Listener != nil {
		s.Listener.Close()
	}
}
