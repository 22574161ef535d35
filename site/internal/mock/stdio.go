package mock

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// pipe is the stdio transport's one stream: every message a line on w.
type pipe struct {
	mu  sync.Mutex
	w   io.Writer
	rec *live.Recorder
}

// write records the message and writes it as one line, under one lock so
// the transcript's order is the wire's.
func (p *pipe) write(m jsonrpc.Message, raw json.RawMessage) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rec.Saw(trace.ActorServer, live.Message{Raw: raw, Msg: m})
	_, err := p.w.Write(append(append([]byte{}, raw...), '\n'))
	return err
}

// Serve plays the server on stdio (MCP stdio transport: one JSON-RPC
// message a line) until the client closes r (it left), a line is longer
// than live.MaxMessage, or ctx ends; then every handler still working is
// stopped. It returns why the session ended.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) string {
	s.init()
	defer s.Stop()
	p := &pipe{w: w, rec: s.Rec}
	lines := make(chan []byte)
	why := make(chan string, 1)
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := readLine(br, live.MaxMessage)
			if len(line) > 0 {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				switch {
				case errors.Is(err, io.EOF):
					why <- "the client closed the server's input"
				default:
					why <- "reading the client's input: " + err.Error()
				}
				return
			}
		}
	}()
	for {
		select {
		case line := <-lines:
			for _, m := range live.Messages(line) {
				s.receive(m, p)
			}
		case w := <-why:
			return w
		case <-ctx.Done():
			return "stopped: " + context.Cause(ctx).Error()
		}
	}
}

// errLineTooLong is a stdio line past live.MaxMessage.
var errLineTooLong = errors.New("a line is longer than 4 MiB, the limit of one message")

// readLine reads one line (without its newline) of at most max bytes.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var out []byte
	for {
		l, err := br.ReadSlice('\n')
		out = append(out, l...)
		if len(out) > max {
			return nil, errLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(out) > 0 && out[len(out)-1] == '\n' {
			out = out[:len(out)-1]
		}
		return out, err
	}
}
