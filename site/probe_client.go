package main

// The probe's MCP client: a session over one conn that sends exactly what a
// situation asks, when it asks, and reads until a condition, a deadline or
// the server's end. Everything it writes and reads is recorded by the conn;
// the situations analyse those records afterwards.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/coordinator"
)

// probeOffered is the protocol revision the probe offers in initialize.
// The 2026-07-28 handshake (server/discover, SEP-2575) is not spoken by
// the probe; under 2025-11-25 both Streamable HTTP cancellation signals can
// still be tried (the notification it prescribes and the stream close).
const probeOffered = "2025-11-25"

// msgInfo is what the probe needs from a message.
type msgInfo struct {
	id       string // id text ("" if none)
	method   string
	response bool
	isError  bool
	token    string // progress token text of notifications/progress
	progress float64
}

func parseMsg(raw json.RawMessage) msgInfo {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return msgInfo{}
	}
	mi := msgInfo{method: m.Method}
	mi.id, _ = coordinator.IDText(m.ID)
	mi.response = m.Method == "" && (m.Result != nil || m.Error != nil)
	mi.isError = m.Error != nil
	if m.Method == "notifications/progress" {
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress float64         `json:"progress"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			mi.token, _ = coordinator.IDText(p.Token)
			mi.progress = p.Progress
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
	c       conn
	nextID  int
	version string            // negotiated protocol revision
	server  string            // serverInfo name and version
	tokens  map[string]string // progress token text → request id text
	sent    map[string]string // request id text → the probe's request as written
	stop    <-chan struct{}   // closed when a signal stops the probe
}

func newSession(c conn, stop <-chan struct{}) *session {
	return &session{c: c, nextID: 1, tokens: map[string]string{}, sent: map[string]string{}, stop: stop}
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

// request sends method with params and returns its id text. With token, it
// adds _meta.progressToken "p<id>" to params (an object).
func (s *session) request(method string, params map[string]any, token bool) (string, time.Time, error) {
	id := s.nextID
	s.nextID++
	if params == nil && token {
		params = map[string]any{}
	}
	if token {
		p := make(map[string]any, len(params)+1)
		for k, v := range params {
			p[k] = v
		}
		tok := "p" + strconv.Itoa(id)
		p["_meta"] = map[string]any{"progressToken": tok}
		params = p
		s.tokens[strconv.Quote(tok)] = strconv.Itoa(id)
	}
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	s.sent[strconv.Itoa(id)] = string(b)
	at, err := s.c.write(b)
	return strconv.Itoa(id), at, err
}

// notify sends a notification.
func (s *session) notify(method string, params any) (time.Time, error) {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return s.c.write(b)
}

// cancel sends notifications/cancelled for request id (its id text).
func (s *session) cancel(id, reason string) (time.Time, error) {
	n, _ := strconv.Atoi(id)
	return s.notify("notifications/cancelled", map[string]any{"requestId": n, "reason": reason})
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
	var m map[string]any
	id := json.RawMessage(mi.id)
	if mi.method == "ping" {
		m = map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{}}
	} else {
		m = map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32601, "message": "the mcplab probe answers no " + mi.method}}
	}
	b, _ := json.Marshal(m)
	_, _ = s.c.write(b)
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
	err := s.wait(deadline, func(in inbound, mi msgInfo) bool {
		switch {
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
	case err == nil && wrong != "":
		err = fmt.Errorf("the server answered request id %s with id %s, a string: JSON-RPC requires the request's id unchanged (the number %s), so no client matches the answer to the request", id, wrong, id)
	case err == nil && echo != "":
		err = fmt.Errorf("the server sent the probe's %s request back instead of answering it (is it an MCP server, or does it echo its input?)", echo)
	}
	return got, gm, err
}

// initialize performs the handshake: initialize offering probeOffered,
// then notifications/initialized. It records the negotiated revision.
func (s *session) initialize(deadline time.Time) error {
	id, _, err := s.request("initialize", map[string]any{
		"protocolVersion": probeOffered,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "mcplab-probe", "version": "1"},
	}, false)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	var res json.RawMessage
	in, _, err := s.answerTo(id, deadline)
	res = in.msg
	if errors.Is(err, errDead) && !s.heard() {
		// Never reached: say what happened (could not connect, HTTP 401,
		// the process exited), not that a server is gone.
		return fmt.Errorf("initialize: %s", s.c.why())
	}
	if err != nil {
		return fmt.Errorf("initialize: %w", s.explain(err))
	}
	var r struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
			ServerInfo      struct {
				Name, Version string
			} `json:"serverInfo"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(res, &r)
	if r.Error != nil {
		return fmt.Errorf("initialize: the server answered an error: %s", r.Error.Message)
	}
	s.version = r.Result.ProtocolVersion
	if err := negotiated(s.version); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	s.server = r.Result.ServerInfo.Name + " " + r.Result.ServerInfo.Version
	s.c.httpVersion(s.version)
	if _, err := s.notify("notifications/initialized", nil); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// earlierRevisions are the MCP revisions before probeOffered that a server
// may answer initialize with when it does not support probeOffered (MCP
// 2025-11-25, Lifecycle: version negotiation: "the server MUST respond
// with another protocol version it supports"). They share its
// cancellation and progress rules, so the probe goes on, and says so
// (earlierNote).
var earlierRevisions = []string{"2025-06-18", "2025-03-26", "2024-11-05"}

// negotiated checks the revision a server answered initialize with: the
// one offered, or an earlier MCP revision (earlierRevisions). Anything
// else (none, a revision the probe does not speak, a made-up one) is an
// error saying why the probe stops: a client that does not support the
// server's version disconnects (MCP Lifecycle, version negotiation).
func negotiated(v string) error {
	switch {
	case v == probeOffered || slices.Contains(earlierRevisions, v):
		return nil
	case v == "":
		return fmt.Errorf("the server's answer has no protocolVersion (it offered %s): MCP's version negotiation needs one, so the probe stops here", probeOffered)
	}
	return fmt.Errorf("the server answered protocolVersion %q, which the probe did not offer (it offered %s) and does not speak (it knows %s, %s): a client that does not support the server's version disconnects (MCP Lifecycle, version negotiation), so the probe stops here", v, probeOffered, probeOffered, strings.Join(earlierRevisions, ", "))
}

// earlierNote is what the probe's server line adds for a server that chose
// an earlier revision than the one offered, "" otherwise.
func earlierNote(v string) string {
	if v == probeOffered || !slices.Contains(earlierRevisions, v) {
		return ""
	}
	return " (the server does not support " + probeOffered + " and chose the earlier " + v + ", whose cancellation and progress rules are the same: judged by them)"
}

// heard reports whether the server sent any message on this session.
func (s *session) heard() bool {
	for _, r := range s.c.records() {
		if r.from == "server" {
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

// tools lists the server's tools (first page only).
func (s *session) tools(deadline time.Time) ([]string, error) {
	id, _, err := s.request("tools/list", nil, false)
	if err != nil {
		return nil, err
	}
	var res json.RawMessage
	in, _, err := s.answerTo(id, deadline)
	res = in.msg
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", s.explain(err))
	}
	var r struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	_ = json.Unmarshal(res, &r)
	var names []string
	for _, t := range r.Result.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

// fence sends a ping right after a cancellation and waits for its answer:
// on stdio the server reads in order, so everything it writes after that
// answer was written after it read the cancellation. It returns the time
// the answer arrived (zero if none came before deadline).
func (s *session) fence(deadline time.Time) time.Time {
	id, _, err := s.request("ping", nil, false)
	if err != nil {
		return time.Time{}
	}
	at, _, err := s.response(id, deadline)
	if err != nil {
		return time.Time{}
	}
	return at
}
