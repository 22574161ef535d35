package probe

// The probe's handshake in each protocol era (DOMAIN.md, "The two
// protocol eras"): 2026-07-28 is stateless, so the probe calls
// server/discover and then sends every request with its params._meta;
// 2025-11-25 opens a session with initialize and notifications/initialized.
// -protocol auto tries server/discover first and falls back to initialize
// when the server does not answer it with 2026-07-28 among its
// supportedVersions, as the Go SDK v1.8.0 client does (mcp.Client.Connect).

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// Auto is Options.Protocol's default (-protocol auto): server/discover
// first, then initialize when the server does not speak 2026-07-28.
const Auto = "auto"

// probeOffered is the revision the probe offers in initialize.
const probeOffered = jsonrpc.Revision20251125

// Protocols are Options.Protocol's values (-protocol's), Auto first.
var Protocols = []string{Auto, jsonrpc.Revision20260728, jsonrpc.Revision20251125}

// httpRefusedError is an HTTP error status that answered the POST of
// request id without a JSON-RPC response in its body.
type httpRefusedError struct {
	id     string
	status int
	why    string // httpRefusal's sentence
}

func (e *httpRefusedError) Error() string { return e.why }

// handshake opens the session in the revision want (-protocol): one of
// Protocols. Errors name the method that failed.
func (s *session) handshake(deadline time.Time, want string) error {
	switch want {
	case jsonrpc.Revision20251125:
		return s.initialize(deadline)
	case jsonrpc.Revision20260728:
		fallback, err := s.discover(deadline)
		if err == nil && fallback != "" {
			err = fmt.Errorf("server/discover: %s; -protocol 2025-11-25 or auto would open a 2025-11-25 session instead", fallback)
		}
		return err
	}
	fallback, err := s.discover(deadline)
	if errors.Is(err, errTimeout) {
		return fmt.Errorf("%w (-protocol 2025-11-25 skips server/discover, for a server that leaves it unanswered)", err)
	}
	if err != nil || fallback == "" {
		return err
	}
	s.fellBack = fallback
	return s.initialize(deadline)
}

// discover sends server/discover as 2026-07-28 writes it. It returns
// why the server does not speak 2026-07-28 (an error answer, an HTTP
// refusal, no 2026-07-28 among supportedVersions) as fallback, or an error
// when the server never answered (so initialize would not either).
func (s *session) discover(deadline time.Time) (fallback string, err error) {
	s.stateless = true
	s.c.setEra(jsonrpc.Revision20260728)
	id, _, err := s.request(jsonrpc.MethodDiscover, nil, false)
	if err != nil {
		return "", fmt.Errorf("server/discover: %w", err)
	}
	in, mi, err := s.answerTo(id, deadline)
	var refused *httpRefusedError
	switch {
	case errors.As(err, &refused):
		s.stateless = false
		return "it refused server/discover (" + refused.why + ")", nil
	case errors.Is(err, errDead) && !s.heard():
		return "", fmt.Errorf("server/discover: %s", s.c.why())
	case err != nil:
		return "", fmt.Errorf("server/discover: %w", s.explain(err))
	}
	m, _ := jsonrpc.Parse(in.msg)
	if mi.isError {
		s.stateless = false
		return "it answered server/discover with " + discoverError(m), nil
	}
	var r struct {
		SupportedVersions []string `json:"supportedVersions"`
		Meta              map[string]struct {
			Name, Version string
		} `json:"_meta"`
	}
	_ = json.Unmarshal(m.Result, &r)
	if !slices.Contains(r.SupportedVersions, jsonrpc.Revision20260728) {
		s.stateless = false
		return fmt.Sprintf("its server/discover lists supportedVersions %q, without %s", r.SupportedVersions, jsonrpc.Revision20260728), nil
	}
	s.version = jsonrpc.Revision20260728
	info := r.Meta[jsonrpc.MetaServerInfo]
	s.server = info.Name + " " + info.Version
	return "", nil
}

// discoverError describes the error m that answered server/discover: its
// code and message, and for UnsupportedProtocolVersion (-32022) the
// revisions the server says it supports.
func discoverError(m jsonrpc.Message) string {
	if m.ErrorCode == nil {
		return "an error (" + m.ErrorMessage + ")"
	}
	what := fmt.Sprintf("error %d (%s)", *m.ErrorCode, m.ErrorMessage)
	if *m.ErrorCode == jsonrpc.CodeUnsupportedProtocolVersion {
		var e struct {
			Data struct {
				Supported []string `json:"supported"`
			} `json:"data"`
		}
		_ = json.Unmarshal(m.Error, &e)
		what = fmt.Sprintf("UnsupportedProtocolVersion (%d): it supports %q", *m.ErrorCode, e.Data.Supported)
	}
	return what
}

// initialize performs the 2025-11-25 handshake: initialize offering
// probeOffered, then notifications/initialized. It records the negotiated
// revision.
func (s *session) initialize(deadline time.Time) error {
	s.stateless = false
	s.c.setEra(jsonrpc.Revision20251125)
	id, _, err := s.send(jsonrpc.NewInitialize)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	in, _, err := s.answerTo(id, deadline)
	if errors.Is(err, errDead) && !s.heard() {
		// Never reached: say what happened (could not connect, HTTP 401,
		// the process exited), not that a server is gone.
		return fmt.Errorf("initialize: %s", s.c.why())
	}
	if err != nil {
		return fmt.Errorf("initialize: %w", s.explain(err))
	}
	m, _ := jsonrpc.Parse(in.msg)
	if m.Error != nil {
		return fmt.Errorf("initialize: the server answered an error: %s", m.ErrorMessage)
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name, Version string
		} `json:"serverInfo"`
	}
	_ = json.Unmarshal(m.Result, &r)
	s.version = r.ProtocolVersion
	if err := negotiated(s.version); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	s.server = r.ServerInfo.Name + " " + r.ServerInfo.Version
	s.c.setVersion(s.version)
	if _, err := s.c.write(jsonrpc.NewInitialized()); err != nil {
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

// handshakeLine is the probe's server line: who answered, over what, and
// which revision was offered and spoken.
func (s *session) handshakeLine(transport string) string {
	switch {
	case s.stateless:
		return fmt.Sprintf("server: %s over %s; server/discover lists %s: spoken statelessly (no initialize, no session; every request carries params._meta)", strings.TrimSpace(s.server), transport, s.version)
	case s.fellBack != "":
		return fmt.Sprintf("server: %s over %s; no %s (%s), so initialize as the Go SDK client does: offered %s, negotiated %s%s", strings.TrimSpace(s.server), transport, jsonrpc.Revision20260728, s.fellBack, probeOffered, s.version, earlierNote(s.version))
	}
	return fmt.Sprintf("server: %s over %s; offered %s, negotiated %s%s", strings.TrimSpace(s.server), transport, probeOffered, s.version, earlierNote(s.version))
}
