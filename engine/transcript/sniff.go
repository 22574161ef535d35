package transcript

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// Format names what some bytes are, as [Sniff] tells. The transcript
// formats are also the values of trace.Source.Format.
type Format = string

// What [Sniff] can answer besides FormatGoSDK and FormatJSONL.
const (
	// FormatScenario: a JSON object that is not a JSON Lines transcript
	// line, to be read as a scenario (SCENARIO.md); scenario.Decode then
	// says what is wrong with it, if anything.
	FormatScenario = "scenario"
	// FormatUnknown: none of the formats Sniff knows.
	FormatUnknown = ""
)

// The formats of logs people have, each read by Import (observer in
// brackets, trace.Source.Observer).
const (
	// FormatClaude: Claude Desktop's mcp-server-NAME.log and mcp.log
	// (client): "2025-04-16T06:13:16.350Z [name] [info] Message from
	// client: {json}", older builds "... [info] [name] ...", with or without
	// a trailing " { metadata: undefined }".
	FormatClaude = "claude-desktop"
	// FormatVSCode: VS Code's MCP output channel at debug level (client):
	// "2025-04-16 08:13:16.350 [debug] [editor -> server] {json}", older
	// "[Client Says]" / "[Server Says]"; local time without a zone.
	FormatVSCode = "vscode"
	// FormatTee: a tee of a stdio server's pipes (wire), as logging
	// wrappers write it: "2026-12-01T13:29:30.410Z [STDIN] {json}",
	// "[STDOUT] {json}", "[STDERR] text", "[INFO] text", with or without
	// the time (bare or in brackets).
	FormatTee = "stdio-tee"
	// FormatHAR: an HTTP Archive 1.2 file of Streamable HTTP exchanges
	// (client: a browser, the Inspector or an HTTP client recorded it;
	// wire: its log.creator is a logging proxy such as Charles, Fiddler or
	// mitmproxy).
	FormatHAR = trace.FormatHAR
	// FormatSSE: a raw HTTP dump (wire): "POST /mcp HTTP/1.1", headers,
	// bodies, "HTTP/1.1 200 OK", and SSE "event:" / "data:" lines, or SSE
	// lines alone.
	FormatSSE = "http-dump"
)

// Sniff says which format data is, from its first line that is not blank
// (after a UTF-8 byte order mark, which some editors write), or for a
// document starting with "{" from its first JSON value, without importing
// it:
//   - FormatGoSDK: the Go SDK's mcp.LoggingTransport output, a line
//     "read: {json}", "write: {json}", "read error: ..." or "write error:
//     ...", optionally after "client " or "server ", and optionally after
//     the standard log package's date and time ("2006/01/02 15:04:05 " or
//     "2006/01/02 15:04:05.000000 ");
//   - FormatJSONL: the lab's JSON Lines, a first line that is a JSON object
//     with a "from" or a "message" member, or the header line with an
//     "observer" member, and no "mcplab" member; also a first line that
//     is a bare JSON-RPC message (a "jsonrpc" member), which Import then
//     refuses, saying how the lab's JSON Lines wrap it;
//   - FormatTee: a first line that is a bracketed channel ("[STDIN] ",
//     "[INFO] ", "[STDERR] " ...), optionally after an RFC 3339 time, bare or
//     in brackets, or any other first line none of these formats claims (a
//     wrapper's banner), when a "[STDIN] " or "[STDOUT] " line (after its
//     time) comes within the first MaxSniffBytes;
//   - FormatClaude, FormatVSCode: a first line in their shape (an ISO time
//     with "Z" and two bracketed words; a local time with milliseconds and
//     a bracketed level);
//   - FormatHAR: a JSON object with a "log" member, or a document that
//     starts as one (its first member "log" an object), complete or not:
//     Import then says a HAR cut short is one;
//   - FormatSSE: a first line "POST ", "GET ", "DELETE " ... " HTTP/1.1",
//     "HTTP/1.1 200", or an SSE field ("data:", "event:", "id:", ": ");
//   - FormatPython, FormatCSharp, FormatJava: any other first line, when
//     a line that quotes a message in their shape comes within the first
//     MaxSniffBytes (their logs open with the logger's chatter);
//   - FormatScenario: any other document that starts with "{" (a scenario,
//     possibly spread over many lines, or a broken one);
//   - FormatUnknown: anything else.
//
// Import reads every transcript format; site's run command and the import
// page call Sniff to choose between Import and scenario.Decode. Sniff reads
// at most the first JSON value of data and never fails.
func Sniff(data []byte) Format {
	data = bytes.TrimPrefix(data, bom)
	data = bytes.TrimLeft(data, " \t\r\n")
	first, _, _ := bytes.Cut(data, []byte("\n"))
	line := strings.TrimSpace(string(first))
	switch {
	case goSDKLine(line):
		return FormatGoSDK
	case teeHead.MatchString(line) && teeMessage.Match(data[:min(len(data), MaxSniffBytes)]):
		return FormatTee
	case claudeHead.MatchString(line):
		return FormatClaude
	case vscodeHead.MatchString(line):
		return FormatVSCode
	case httpHead.MatchString(line) || sseField(line):
		return FormatSSE
	case !strings.HasPrefix(line, "{"):
		if f := sniffSDK(data); f != FormatUnknown || !teeMessage.Match(data[:min(len(data), MaxSniffBytes)]) {
			return f
		}
		return FormatTee
	case jsonlLine(line):
		return FormatJSONL
	case harStart(data) || harDoc(data):
		return FormatHAR
	}
	return FormatScenario
}

// The first lines of the log formats (Sniff).
var (
	claudeHead = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z \[[^\]]+\] \[[^\]]+\] `)
	vscodeHead = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \[(?:trace|debug|info|warning|error|critical)\] `)
	teeHead    = teeLine
	httpHead   = regexp.MustCompile(`^(?:(?:GET|POST|DELETE|PUT|OPTIONS) \S+ HTTP/\d(?:\.\d)?|HTTP/\d(?:\.\d)? \d{3})\b`)
)

// sseField reports whether line is an SSE field line with a JSON message
// or an event name (a dump of one response stream).
func sseField(line string) bool {
	return strings.HasPrefix(line, "data: {") || strings.HasPrefix(line, "data:{") || strings.HasPrefix(line, "event: ") || strings.HasPrefix(line, "id: ")
}

// harDoc reports whether data's first JSON value is an object with a
// "log" member that is an object (HAR 1.2).
func harDoc(data []byte) bool {
	var head struct {
		Log map[string]json.RawMessage `json:"log"`
	}
	if json.NewDecoder(bytes.NewReader(data)).Decode(&head) != nil || head.Log == nil {
		return false
	}
	_, ok := head.Log["entries"]
	return ok
}

// harStart reports whether data starts as a HAR file: a JSON object whose
// first member is "log" and holds an object, read token by token, so that
// a HAR cut short (a download stopped, head -c) is still one.
func harStart(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	for _, want := range []json.Token{json.Delim('{'), "log", json.Delim('{')} {
		if tok, err := dec.Token(); err != nil || tok != want {
			return false
		}
	}
	return true
}

// bom is the UTF-8 byte order mark.
var bom = []byte("\xef\xbb\xbf")

// goSDKLine reports whether line is a Go SDK LoggingTransport line (Sniff).
func goSDKLine(line string) bool {
	if m := logPrefix.FindString(line); m != "" {
		line = line[len(m):]
	}
	line = strings.TrimPrefix(strings.TrimPrefix(line, "client "), "server ")
	for _, p := range []string{"read: ", "write: ", "read error:", "write error:"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// jsonlLine reports whether line is one JSON object with a "from", a
// "message" or an "observer" member (the header) and no "mcplab" member
// (Sniff).
func jsonlLine(line string) bool {
	var head map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &head) != nil {
		return false
	}
	_, from := head["from"]
	_, msg := head["message"]
	_, obs := head["observer"]
	_, mcplab := head["mcplab"]
	return (from || msg || obs || bareMember(head)) && !mcplab
}

// bareMessage reports whether line is a JSON-RPC message by itself (see
// bareMember), with none of the lab's JSON Lines members: copied out of a
// log, it no longer says who sent it, which the lab's JSON Lines must.
func bareMessage(line string) bool {
	var head map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &head) != nil {
		return false
	}
	_, from := head["from"]
	_, msg := head["message"]
	_, mcplab := head["mcplab"]
	return bareMember(head) && !from && !msg && !mcplab
}

// bareMember reports whether an object has a member only a JSON-RPC
// message has: "jsonrpc", "method", "result" or "error" (a scenario and
// the lab's JSON Lines have none of them at the top).
func bareMember(head map[string]json.RawMessage) bool {
	for _, k := range []string{"jsonrpc", "method", "result", "error"} {
		if _, ok := head[k]; ok {
			return true
		}
	}
	return false
}

// logPrefix matches the date and time the standard library's log package
// puts before each line ("2025/01/02 10:00:00 " or with microseconds).
var logPrefix = regexp.MustCompile(`^(\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?) `)

// probeIndex reports whether data is the index `mcplab probe` writes
// beside its transcripts (probe.json: a JSON array of the transcripts'
// headers, each with "file" and "observer"), and the first transcript it
// lists: a reader who opens it means to open a transcript.
func probeIndex(data []byte) (string, bool) {
	var heads []struct {
		File     string `json:"file"`
		Observer string `json:"observer"`
	}
	if json.Unmarshal(data, &heads) != nil || len(heads) == 0 || heads[0].File == "" || heads[0].Observer == "" {
		return "", false
	}
	return heads[0].File, true
}
