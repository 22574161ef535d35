package mock

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// Play is one run of `mcplab mock`: a Server for one client on stdio or
// Streamable HTTP, whose transcript is written when the client leaves.
type Play struct {
	Scenario *scenario.Scenario
	Quirks   Quirks
	Protocol string // ProtocolAuto or a revision
	// Listener serves Streamable HTTP at http://ADDR/mcp (Path); nil:
	// stdio, on Stdin and Stdout.
	Listener net.Listener
	Stdin    io.Reader
	Stdout   io.Writer
	// Log gets the server's lines: the URL served, why the session ended,
	// the transcript's path.
	Log io.Writer
	// Dir is the transcript's directory ("" a new temporary one); Name its
	// base name: Name.jsonl, or Name-2.jsonl… when that exists
	// (live.Recorder.WriteFree), so no mock replaces another's.
	Dir, Name string
	// Ready, if not nil, gets the URL once the mock listens (HTTP).
	Ready func(url string)
}

// Run serves until the client leaves or ctx ends (a signal), then writes
// the transcript, saying why the session ended and where the transcript
// is on Log. It returns the transcript's path and how many records it
// holds (0: the client sent nothing, nothing to judge). Errors: the
// directory or the transcript could not be written.
func (p *Play) Run(ctx context.Context) (path string, records int, err error) {
	dir := p.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "mcplab-mock-"); err != nil {
			return "", 0, err
		}
	}
	transport := scenario.TransportStdio
	if p.Listener != nil {
		transport = scenario.TransportHTTP
	}
	rec := live.NewRecorder(live.Header{Observer: trace.ObserverServer, Transport: transport})
	m := &Server{Scenario: p.Scenario, Protocol: p.Protocol, Quirks: p.Quirks, Rec: rec, Log: p.Log}
	var why string
	if p.Listener != nil {
		url := "http://" + p.Listener.Addr().String() + Path
		fmt.Fprintf(p.Log, "mcplab mock: serving %s (stop it with Ctrl-C, or, under 2025-11-25, end the session with DELETE, to write the transcript)\n", url)
		if p.Ready != nil {
			p.Ready(url)
		}
		why = m.HTTP(ctx, p.Listener)
	} else {
		why = m.Serve(ctx, p.Stdin, p.Stdout)
	}
	// The transcript first: a client that closes the server's stderr as it
	// leaves (mcp-go's stdio transport does) ends a process that writes
	// there next.
	if path, err = rec.WriteFree(dir, p.Name); err != nil {
		return "", 0, err
	}
	fmt.Fprintf(p.Log, "mcplab mock: %s\n", why)
	if rec.Len() == 0 {
		fmt.Fprintf(p.Log, "mcplab mock: transcript %s: the client sent nothing, so no verdicts\n", path)
		return path, 0, nil
	}
	fmt.Fprintf(p.Log, "mcplab mock: transcript %s (%d records; judge it again with mcplab run -checks %s)\n", path, rec.Len(), path)
	return path, rec.Len(), nil
}
