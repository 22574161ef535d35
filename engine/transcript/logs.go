package transcript

// Readers of the line logs people paste into bug reports:
// Claude Desktop, VS Code's MCP output channel and stdio tees, plus the
// JSON Lines header line.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// jsonlHeader reads the optional first line of the lab's JSON Lines:
// {"observer": "client"|"server"|"wire", "transport": "stdio"|
// "streamable-http", "protocol": "2025-11-25"|..., "session": "..."} (every
// member optional but observer). It reports false, nil for a line that is
// not a header (no "observer" member).
func jsonlHeader(n int, line string, md *meta) (bool, error) {
	var probe map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &probe) != nil {
		return false, nil
	}
	if _, ok := probe["observer"]; !ok {
		return false, nil
	}
	var h struct {
		Observer  string `json:"observer"`
		Transport string `json:"transport"`
		Protocol  string `json:"protocol"`
		Session   string `json:"session"`
		// Proxy names the recording intermediary between the two sides
		// and its faults ("mcplab proxy -faults buffer=final"): the
		// message lines then carry hop and wire (hops.go).
		Proxy string `json:"proxy"`
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return true, lineErr(n, "not a header line: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	switch h.Observer {
	case trace.ObserverClient, trace.ObserverServer, trace.ObserverWire:
	default:
		return true, lineErr(n, "observer must be \"client\", \"server\" or \"wire\"")
	}
	switch h.Transport {
	case "", scenario.TransportStdio, scenario.TransportHTTP:
	default:
		return true, lineErr(n, "transport must be %q or %q", scenario.TransportStdio, scenario.TransportHTTP)
	}
	md.observer, md.transport, md.protocol, md.session = h.Observer, h.Transport, h.Protocol, h.Session
	md.notes = append(md.notes, fmt.Sprintf("The header line (line %d) says the %s recorded it.", n, h.Observer))
	if h.Proxy != "" {
		md.notes = append(md.notes, fmt.Sprintf("Recorded by an intermediary between client and server (%s): each message is drawn where its sender put it on the wire and where the intermediary handed it on, with what the intermediary held, flushed or broke in between.", h.Proxy))
	}
	if h.Transport != "" {
		md.notes = append(md.notes, fmt.Sprintf("Transport %s: from the header line.", h.Transport))
	}
	if h.Protocol != "" {
		md.protocolFrom = "the header line"
		md.notes = append(md.notes, fmt.Sprintf("Protocol %s: from %s.", h.Protocol, md.protocolFrom))
	}
	return true, nil
}

// splitBatch returns the messages of a JSON-RPC message or batch (array),
// compacted; nil when raw is neither.
func splitBatch(raw []byte) []json.RawMessage {
	var b []json.RawMessage
	if json.Unmarshal(raw, &b) == nil {
		var out []json.RawMessage
		for _, m := range b {
			if len(m) > 0 && m[0] == '{' {
				out = append(out, compact(string(m)))
			}
		}
		return out
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(raw, &o) != nil {
		return nil
	}
	return []json.RawMessage{compact(string(raw))}
}

// claudeLine is one line of a Claude Desktop log: time, two bracketed words
// (name and level, or level and name in older builds) and the text.
var claudeLine = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) \[([^\]]+)\] \[([^\]]+)\] (.*)$`)

// claudeMeta is the trailing metadata newer builds append to a line.
var claudeMeta = regexp.MustCompile(`\s*\{ metadata: [^{}]*\}\s*$`)

// logLevels are the levels Claude Desktop and VS Code write.
var logLevels = map[string]bool{"trace": true, "debug": true, "info": true, "warn": true, "warning": true, "error": true, "critical": true, "notice": true}

// Texts of the TypeScript SDK's errors that say the client dropped a
// message (logged at [error] by Claude Desktop).
const (
	unknownResponse = "Received a response for an unknown message ID"
	unknownProgress = "Received a progress notification for an unknown token"
)

// parseClaude reads a Claude Desktop log (FormatClaude). "Message from
// client: {json}" and "Message from server: {json}" are messages (the JSON
// may continue over the following lines, pretty-printed, as behind
// mcp-remote); the SDK's errors for an unknown response id or progress
// token are the client's ignore events; every other line (the server's
// stderr, mcp-remote's "[pid] [Local→Remote]" lines, lifecycle messages) is
// skipped. The observer is the client, over stdio.
func parseClaude(data []byte, md *meta) ([]entry, error) {
	md.observer, md.transport = trace.ObserverClient, scenario.TransportStdio
	md.notes = append(md.notes, "Transport stdio: Claude Desktop talks to its servers over stdio.")
	var out []entry
	var pend *entry // a message whose JSON continues on the next lines
	var buf strings.Builder
	tokens := map[string]string{} // progress token → request id text
	bridge := false
	flush := func() error {
		if pend == nil {
			return nil
		}
		e := *pend
		pend = nil
		text := claudeMeta.ReplaceAllString(buf.String(), "")
		msgs := splitBatch([]byte(text))
		if msgs == nil {
			return lineErr(e.line, "the message is not valid JSON (a truncated line?)")
		}
		for _, m := range msgs {
			e.message = m
			out = append(out, claudeNote(e, tokens))
		}
		return nil
	}
	err := scanLines(data, func(n int, line string) error {
		m := claudeLine.FindStringSubmatch(line)
		if m == nil {
			if strings.Contains(line, "[Local→Remote]") || strings.Contains(line, "[Remote→Local]") {
				bridge = true
			}
			if pend != nil {
				buf.WriteString("\n" + line)
				if json.Valid([]byte(claudeMeta.ReplaceAllString(buf.String(), ""))) {
					return flush()
				}
			}
			return nil // a foreign line: stderr, a bridge's own log
		}
		if pend != nil {
			if err := flush(); err != nil {
				return err
			}
		}
		t, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			return lineErr(n, "time %q: %v", m[1], err)
		}
		level, text := m[3], m[4]
		if logLevels[strings.ToLower(m[2])] && !logLevels[strings.ToLower(m[3])] {
			level = m[2] // older builds: level before the name
		}
		if strings.Contains(text, "[Local→Remote]") || strings.Contains(text, "[Remote→Local]") || strings.Contains(text, "mcp-remote") {
			bridge = true
		}
		e := entry{line: n, at: t.UnixMilli(), timed: true, side: trace.ActorClient}
		switch {
		case strings.HasPrefix(text, "Message from client: "):
			e.from, e.dir, text = trace.ActorClient, dirWrite, strings.TrimPrefix(text, "Message from client: ")
		case strings.HasPrefix(text, "Message from server: "):
			e.from, e.dir, text = trace.ActorServer, dirRead, strings.TrimPrefix(text, "Message from server: ")
		case strings.EqualFold(level, "error") && (strings.Contains(text, unknownResponse) || strings.Contains(text, unknownProgress)):
			if ig, ok := claudeIgnore(n, e, text, tokens); ok {
				out = append(out, ig)
			}
			return nil
		default:
			return nil
		}
		pend = &e
		buf.Reset()
		buf.WriteString(text)
		if json.Valid([]byte(claudeMeta.ReplaceAllString(text, ""))) {
			return flush()
		}
		return nil
	})
	if err == nil && pend != nil {
		err = flush()
	}
	if bridge {
		md.notes = append(md.notes, "Behind a bridge (mcp-remote): each initialize the client sends after an answer starts a session whose ids are its own.")
	}
	return out, err
}

// claudeNote records a client request's progress token, so that an
// "unknown token" error can name its request, and returns e.
func claudeNote(e entry, tokens map[string]string) entry {
	if m, err := jsonrpc.Parse(e.message); err == nil && m.Kind == jsonrpc.Request && m.ProgressToken != "" && e.from == trace.ActorClient {
		tokens[m.ProgressToken] = m.ID
	}
	return e
}

// claudeIgnore turns the SDK's error for an unknown response id or progress
// token into the client's ignore event for that request (the error quotes
// the message after ": ").
func claudeIgnore(n int, e entry, text string, tokens map[string]string) (entry, bool) {
	i := strings.Index(text, "{")
	if i < 0 {
		return entry{}, false
	}
	raw := claudeMeta.ReplaceAllString(text[i:], "")
	m, err := jsonrpc.Parse(json.RawMessage(raw))
	if err != nil {
		return entry{}, false
	}
	e.kind, e.line = kindIgnore, n
	switch {
	case m.ID != "" && m.Method == "":
		e.ref = m.ID
		e.note = fmt.Sprintf("The client ignored the response for request %s: it no longer waits for it (%q).", m.ID, unknownResponse)
	case m.Method == jsonrpc.MethodProgress && tokens[m.ProgressToken] != "":
		e.ref = tokens[m.ProgressToken]
		e.note = fmt.Sprintf("The client ignored progress for request %s: it no longer waits for it (%q).", e.ref, unknownProgress)
	default:
		return entry{}, false
	}
	return e, true
}

// vscodeLine is one line of VS Code's MCP output channel.
var vscodeLine = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}) \[(\w+)\] (.*)$`)

// parseVSCode reads VS Code's MCP output channel (FormatVSCode): "[editor
// -> server] {json}" and older "[Client Says] ... {json}" are the client's
// messages, "[server -> editor]" and "[Server Says]" the server's; an
// [error] line saying a response's message ID or a progress token is
// unknown, quoting the message, is the client's ignore event for its
// request (as in Claude Desktop's log); other lines are skipped. Its times are local without a zone: zone, or UTC when
// nil (the source note says which). The observer is the client.
func parseVSCode(data []byte, zone *time.Location, md *meta) ([]entry, error) {
	md.observer = trace.ObserverClient
	if zone == nil {
		zone = time.UTC
		md.notes = append(md.notes, "VS Code writes local times without a zone: read as UTC (give the zone to place them exactly; differences between times are right either way).")
	} else {
		md.notes = append(md.notes, fmt.Sprintf("VS Code's local times read in the zone %s, as given.", zone))
	}
	md.zone = zone.String()
	var out []entry
	tokens := map[string]string{} // progress token → request id text
	err := scanLines(data, func(n int, line string) error {
		m := vscodeLine.FindStringSubmatch(line)
		if m == nil {
			return nil
		}
		text := m[3]
		e := entry{line: n, side: trace.ActorClient, timed: true}
		ignored := false
		switch {
		case strings.HasPrefix(text, "[editor -> server] "), strings.HasPrefix(text, "[Client Says] "):
			e.from, e.dir = trace.ActorClient, dirWrite
		case strings.HasPrefix(text, "[server -> editor] "), strings.HasPrefix(text, "[Server Says] "):
			e.from, e.dir = trace.ActorServer, dirRead
		case strings.EqualFold(m[2], "error") && droppedByClient(text):
			ignored = true
		default:
			return nil
		}
		t, err := time.ParseInLocation("2006-01-02 15:04:05.000", m[1], zone)
		if err != nil {
			return lineErr(n, "time %q: %v", m[1], err)
		}
		e.at = t.UnixMilli()
		if ignored {
			if ig, ok := claudeIgnore(n, e, text, tokens); ok {
				out = append(out, ig)
			}
			return nil
		}
		i := strings.IndexAny(text, "{[")
		if j := strings.Index(text, "] "); j >= 0 {
			i = strings.IndexAny(text[j+2:], "{[")
			if i >= 0 {
				i += j + 2
			}
		}
		if i < 0 {
			return lineErr(n, "no JSON message after the direction")
		}
		msgs := splitBatch([]byte(text[i:]))
		if msgs == nil {
			return lineErr(n, "the message is not valid JSON (a truncated line?)")
		}
		for _, msg := range msgs {
			e.message = msg
			out = append(out, claudeNote(e, tokens))
		}
		return nil
	})
	return out, err
}

// droppedByClient reports whether a client's error line says it dropped a
// message it no longer waited for: the TypeScript SDK's texts for an
// unknown response id or progress token, which VS Code's output channel
// writes at [error] as Claude Desktop's log does ("... unknown message ID:
// {json}"), read in any case.
func droppedByClient(text string) bool {
	low := strings.ToLower(text)
	return strings.Contains(low, "unknown message id") || strings.Contains(low, "unknown token") || strings.Contains(low, "unknown progress token")
}

// teeLine is one line of a stdio tee as logging wrappers write it: an
// optional time (RFC 3339, bare or in brackets), a bracketed channel and
// the text: "2026-12-01T13:29:30.410Z [STDIN] {json}", "[2026-12-01T13:29:30.410Z]
// [STDOUT] {json}", "[STDIN] {json}". Channel names are read in any case.
var teeLine = regexp.MustCompile(`^(?:\[?(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))\]? )?\[([A-Za-z][A-Za-z0-9_-]*)\] ?(.*)$`)

// teeMessage matches a tee line that carries a message (Sniff): a channel
// STDIN or STDOUT, after the optional time.
var teeMessage = regexp.MustCompile(`(?m)^(?:\[?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\]? )?\[(?i:STDIN|STDOUT)\] `)

// parseTee reads a tee of a stdio server's pipes (FormatTee): "[STDIN]
// {json}" is the client's message, "[STDOUT] {json}" the server's (batches
// split), each optionally after its time; "[STDERR]", "[INFO]" and every
// other bracketed channel, and lines in no channel (a wrapper's banner),
// are skipped. Without times it keeps the lines' order. The observer is the
// wire, the transport stdio.
func parseTee(data []byte, md *meta) ([]entry, error) {
	md.observer, md.transport = trace.ObserverWire, scenario.TransportStdio
	md.notes = append(md.notes, "Transport stdio: a tee of the server's standard input and output.")
	var out []entry
	err := scanLines(data, func(n int, line string) error {
		m := teeLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			return nil // a wrapper's banner, a blank line
		}
		e := entry{line: n}
		switch strings.ToUpper(m[2]) {
		case "STDIN":
			e.from = trace.ActorClient
		case "STDOUT":
			e.from = trace.ActorServer
		default:
			return nil // [STDERR], [INFO], [DEBUG]: the server's or the wrapper's own words
		}
		if m[1] != "" {
			t, err := time.Parse(time.RFC3339Nano, m[1])
			if err != nil {
				return lineErr(n, "time %q: %v", m[1], err)
			}
			e.at, e.timed = t.UnixMilli(), true
		}
		text := strings.TrimSpace(m[3])
		if !strings.HasPrefix(text, "{") && !strings.HasPrefix(text, "[") {
			return nil // a server's stray output on stdout
		}
		msgs := splitBatch([]byte(text))
		if msgs == nil {
			return lineErr(n, "the message is not valid JSON (a truncated line?)")
		}
		for _, msg := range msgs {
			e.message = msg
			out = append(out, e)
		}
		return nil
	})
	return out, err
}
