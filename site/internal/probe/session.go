package probe

// The probe's MCP client: a session over one conn that sends exactly what a
// situation asks, when it asks, and reads until a condition, a deadline or
// the server's end. Everything it writes and reads is recorded by the conn;
// the situations analyse those records afterwards.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// msgInfo is what the probe needs from a message, as engine/jsonrpc
// reads it.
type msgInfo struct {
	id       string // id text ("" if none)
	method   string
	response bool
	isError  bool
	token    string // progress token text of notifications/progress
	progress float64
}

// parseMsg reads raw with jsonrpc.Parse; anything that is not a JSON-RPC
// object is the zero msgInfo.
func parseMsg(raw json.RawMessage) msgInfo {
	m, err := jsonrpc.Parse(raw)
	if err != nil {
		return msgInfo{}
	}
	mi := msgInfo{id: m.ID, method: m.Method}
	mi.response = m.Kind == jsonrpc.Response || m.Kind == jsonrpc.Error
	mi.isError = mi.response && m.Error != nil
	if m.Method == jsonrpc.MethodProgress {
		mi.token = m.ProgressToken
		if m.Progress != nil {
			mi.progress = *m.Progress
		}
	}
	return mi
}

// errDead: the server can send nothing more (see conn.why); errTimeout: the
// deadline passed first (prober.situation says which limit it was);
// errStopped: a signal stopped the probe (prober.stopped says which).
var (
	errDead    = errors.New("the server is gone")
	errTimeout = errors.New("no answer")
	errStopped = errors.New("stopped")
)

// session is one MCP session of the probe.
type session struct {
	c      conn
	nextID int
	// version is the revision in use: 2026-07-28 after server/discover
	// (stateless), else what the server answered initialize with.
	version   string
	stateless bool
	// fellBack says why -protocol auto fell back to initialize ("" when
	// it did not, or did not try server/discover).
	fellBack string
	server   string            // serverInfo name and version
	tokens   map[string]string // progress token text → request id text
	sent     map[string]string // request id text → the probe's request as written
	calls    []string          // the tools/call requests' id texts, in order
	// cancelledAt is when the probe cancelled a request (id text).
	cancelledAt map[string]time.Time
	stop        <-chan struct{} // closed when a signal stops the probe
}

func newSession(c conn, stop <-chan struct{}) *session {
	return &session{c: c, nextID: 1, tokens: map[string]string{}, sent: map[string]string{}, cancelledAt: map[string]time.Time{}, stop: stop}
}

// era is the wire the session writes: 2026-07-28's once stateless, else
// 2025-11-25's (whose shape the earlier revisions share).
func (s *session) era() jsonrpc.Era {
	if s.stateless {
		return jsonrpc.Era{Revision: jsonrpc.Revision20260728}
	}
	return jsonrpc.Era{Revision: jsonrpc.Revision20251125}
}

// echoed reports whether an inbound request is one the probe sent,
// written back byte for byte (once compacted): the "server" echoes its
// input (cat), and answering it would only feed the echo.
func (s *session) echoed(raw json.RawMessage, mi msgInfo) bool {
	if mi.method == "" || mi.id == "" || mi.response {
		return false
	}
	sent, ok := s.sent[mi.id]
	if !ok {
		return false
	}
	var b bytes.Buffer
	return json.Compact(&b, raw) == nil && b.String() == sent
}

// request sends method with params (nil for none) and returns its id
// text. With token, params._meta.progressToken is "p<id>". Under
// 2026-07-28 the request carries the era's params._meta (jsonrpc.Era.Request).
func (s *session) request(method string, params map[string]any, token bool) (string, time.Time, error) {
	id := strconv.Itoa(s.nextID) // the id send gives it
	var p json.RawMessage
	if params != nil {
		p = jsonrpc.Marshal(params)
	}
	if token {
		tok := "p" + id
		p = jsonrpc.WithMeta(p, "progressToken", jsonrpc.Marshal(tok))
		s.tokens[strconv.Quote(tok)] = id
	}
	return s.send(func(id string) json.RawMessage { return s.era().Request(jsonrpc.NewRequest(id, method, p)) })
}

// send writes the request build makes with the session's next id and
// returns that id text; the request is remembered (session.echoed).
func (s *session) send(build func(id string) json.RawMessage) (string, time.Time, error) {
	id := strconv.Itoa(s.nextID)
	s.nextID++
	msg := build(id)
	s.sent[id] = string(msg)
	at, err := s.c.write(msg)
	return id, at, err
}

// notify sends a notification (params nil for none).
func (s *session) notify(method string, params any) (time.Time, error) {
	var p json.RawMessage
	if params != nil {
		p = jsonrpc.Marshal(params)
	}
	return s.c.write(jsonrpc.NewNotification(method, p))
}

// cancel sends notifications/cancelled for request id (its id text).
func (s *session) cancel(id, reason string) (time.Time, error) {
	return s.c.write(jsonrpc.NewCancel(id, &reason))
}

// about returns the request id text a server message concerns: a
// response's id, or the request whose progress token it carries.
func (s *session) about(mi msgInfo) string {
	if mi.response {
		return mi.id
	}
	if mi.method == "notifications/progress" {
		return s.tokens[mi.token]
	}
	return ""
}

// wait reads server messages until stop(message) is true (nil: the
// message that stopped it), the deadline passes (errTimeout), the server
// ends (errDead) or a signal stops the probe (errStopped). It answers the server's own requests (ping with {}, any
// other with method-not-found) so a server that asks something is not
// left waiting.
func (s *session) wait(deadline time.Time, stop func(inbound, msgInfo) bool) error {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case in := <-s.c.inbox():
			mi := parseMsg(in.msg)
			if mi.method != "" && mi.id != "" && !s.echoed(in.msg, mi) {
				s.answer(mi)
			}
			if stop != nil && stop(in, mi) {
				return nil
			}
		case <-s.c.dead():
			// Deliver what was read before the end.
			for {
				select {
				case in := <-s.c.inbox():
					if stop != nil && stop(in, parseMsg(in.msg)) {
						return nil
					}
				default:
					return errDead
				}
			}
		case <-timer.C:
			return errTimeout
		case <-s.stop:
			return errStopped
		}
	}
}

func (s *session) answer(mi msgInfo) {
	msg := jsonrpc.NewError(mi.id, jsonrpc.ErrorObject{Code: -32601, Message: "the mcplab probe answers no " + mi.method})
	if mi.method == jsonrpc.MethodPing {
		msg = jsonrpc.NewResult(mi.id, json.RawMessage(`{}`))
	}
	_, _ = s.c.write(msg)
}

// response waits for the response to request id; it returns its receipt
// time and whether it is an error.
func (s *session) response(id string, deadline time.Time) (time.Time, bool, error) {
	in, mi, err := s.answerTo(id, deadline)
	return in.at, mi.isError, err
}

// answerTo waits for the response to request id (the probe's ids are
// numbers). A response whose id is that number as a string ends the wait
// at once with an error saying so: JSON-RPC 2.0 requires the response to
// carry the request's id unchanged, so no client matches it to the request.
// So does the request itself coming back (session.echoed): the server
// echoes its input rather than answering it.
func (s *session) answerTo(id string, deadline time.Time) (inbound, msgInfo, error) {
	var got inbound
	var gm msgInfo
	wrong, echo := "", ""
	var refused *httpRefusedError
	err := s.wait(deadline, func(in inbound, mi msgInfo) bool {
		switch {
		case in.refused != nil && in.refused.id == id:
			refused = in.refused
			return true
		case mi.response && mi.id == id:
			got, gm = in, mi
			return true
		case mi.response && mi.id == strconv.Quote(id):
			wrong = mi.id
			return true
		case mi.id == id && s.echoed(in.msg, mi):
			echo = mi.method
			return true
		}
		return false
	})
	switch {
	case err == nil && refused != nil:
		err = refused
	case err == nil && wrong != "":
		err = fmt.Errorf("the server answered request id %s with id %s, a string: JSON-RPC requires the request's id unchanged (the number %s), so no client matches the answer to the request", id, wrong, id)
	case err == nil && echo != "":
		err = fmt.Errorf("the server sent the probe's %s request back instead of answering it (is it an MCP server, or does it echo its input?)", echo)
	}
	return got, gm, err
}

// heard reports whether the server sent any message on this session.
func (s *session) heard() bool {
	for _, r := range s.c.records() {
		if r.from == trace.ActorServer {
			return true
		}
	}
	return false
}

// explain turns errDead into the server's end as the conn saw it.
func (s *session) explain(err error) error {
	if errors.Is(err, errDead) {
		return fmt.Errorf("%w: %s", errDead, s.c.why())
	}
	return err
}

// probeTool is a tool the server lists: its name and inputSchema.
type probeTool struct {
	name   string
	schema json.RawMessage
}

// tools lists the server's tools (first page only).
func (s *session) tools(deadline time.Time) ([]probeTool, error) {
	id, _, err := s.request("tools/list", nil, false)
	if err != nil {
		return nil, err
	}
	in, _, err := s.answerTo(id, deadline)
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", s.explain(err))
	}
	m, _ := jsonrpc.Parse(in.msg)
	var r struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(m.Result, &r)
	var out []probeTool
	for _, t := range r.Tools {
		out = append(out, probeTool{t.Name, t.InputSchema})
	}
	return out, nil
}

// fenceMethod is the request the fence sends: ping under 2025-11-25;
// under 2026-07-28, which has no ping, server/discover (every server
// answers it, cheaply).
func (s *session) fenceMethod() string {
	if s.stateless {
		return jsonrpc.MethodDiscover
	}
	return jsonrpc.MethodPing
}

// fence sends a request (fenceMethod) right after a cancellation and
// waits for its answer: on stdio the server reads in order, so everything
// it writes after that answer was written after it read the cancellation.
// It returns the time the answer arrived (zero if none came before
// deadline).
func (s *session) fence(deadline time.Time) time.Time {
	id, _, err := s.request(s.fenceMethod(), nil, false)
	if err != nil {
		return time.Time{}
	}
	at, _, err := s.response(id, deadline)
	if err != nil {
		return time.Time{}
	}
	return at
}
