package transcript

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
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

// Sniff says which format data is, from its first line that is not blank
// (after a UTF-8 byte order mark, which some editors write), without
// importing it:
//   - FormatGoSDK: the Go SDK's mcp.LoggingTransport output, a line
//     "read: {json}", "write: {json}", "read error: ..." or "write error:
//     ...", optionally after "client " or "server ", and optionally after
//     the standard log package's date and time ("2006/01/02 15:04:05 " or
//     "2006/01/02 15:04:05.000000 ");
//   - FormatJSONL: the lab's JSON Lines, a first line that is a JSON object
//     with a "from" or a "message" member and no "mcplab" member;
//   - FormatScenario: any other document that starts with "{" (a scenario,
//     possibly spread over many lines, or a broken one);
//   - FormatUnknown: anything else.
//
// Import reads the two transcript formats; site's run command and the
// import page call Sniff to choose between Import and scenario.Decode.
// Sniff reads at most the first JSON value of data and never fails.
func Sniff(data []byte) Format {
	data = bytes.TrimPrefix(data, bom)
	data = bytes.TrimLeft(data, " \t\r\n")
	first, _, _ := bytes.Cut(data, []byte("\n"))
	line := strings.TrimSpace(string(first))
	switch {
	case goSDKLine(line):
		return FormatGoSDK
	case !strings.HasPrefix(line, "{"):
		return FormatUnknown
	case jsonlLine(line):
		return FormatJSONL
	}
	return FormatScenario
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

// jsonlLine reports whether line is one JSON object with a "from" or a
// "message" member and no "mcplab" member (Sniff).
func jsonlLine(line string) bool {
	var head map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &head) != nil {
		return false
	}
	_, from := head["from"]
	_, msg := head["message"]
	_, mcplab := head["mcplab"]
	return (from || msg) && !mcplab
}

// logPrefix matches the date and time the standard library's log package
// puts before each line ("2025/01/02 10:00:00 " or with microseconds).
var logPrefix = regexp.MustCompile(`^(\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?) `)
