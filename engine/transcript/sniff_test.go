package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestSniff proves Sniff names each format from its content
// (transcript owns format detection; a Go SDK log is recognised
// with or without the log package's date and time).
func TestSniff(t *testing.T) {
	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`
	cases := []struct {
		name, in string
		want     Format
	}{
		{"go sdk one side", "write: " + call + "\n", FormatGoSDK},
		{"go sdk read error first", "read error: EOF\n", FormatGoSDK},
		{"go sdk two sides", "client write: " + call + "\n", FormatGoSDK},
		{"go sdk log prefix, microseconds", "2006/01/02 15:04:05.000000 write: " + call + "\n", FormatGoSDK},
		{"go sdk log prefix, seconds, two sides", "2006/01/02 15:04:05 server read: " + call + "\n", FormatGoSDK},
		{"go sdk after a byte order mark and blank lines", "\xef\xbb\xbf\n\n  read: " + call + "\n", FormatGoSDK},
		{"json lines", `{"t":1,"from":"client","message":` + call + "}\n", FormatJSONL},
		{"json lines without time", `{"from":"server","message":{}}` + "\n", FormatJSONL},
		{"json lines, crlf", `{"from":"server","message":{}}` + "\r\n" + `{"from":"client","message":{}}`, FormatJSONL},
		{"scenario on one line", `{"mcplab":1,"steps":[]}`, FormatScenario},
		{"scenario over lines", "{\n  \"mcplab\": 1,\n  \"steps\": []\n}\n", FormatScenario},
		{"scenario with a member named from", `{"mcplab":1,"from":"client","message":{}}`, FormatScenario},
		{"broken object", `{"mcplab":1,`, FormatScenario},
		{"a bare message, read as json lines to be refused", call + "\n" + call + "\n", FormatJSONL},
		{"a bare response without jsonrpc", `{"id":1,"result":{}}`, FormatJSONL},
		{"a date alone is not a log prefix", "2006/01/02 15:04:05 hello\n", FormatUnknown},
		{"python sdk after uvicorn's chatter", "INFO:     Started server process [1]\n2025-06-09 23:52:01,694 - mcp.server.sse - DEBUG - Received JSON: b'" + call + "'\n", FormatPython},
		{"c# sdk trace, two lines", "trce: ModelContextProtocol.Server.StdioServerTransport[0]\n      Server (stdio) (x) transport received message. Message: '" + call + "'.\n", FormatCSharp},
		{"java sdk debug", "10:00:00.100 [pool-2-thread-1] DEBUG i.m.s.t.StdioServerTransportProvider - Received JSON message: " + call + "\n", FormatJava},
		{"tee, bare", "[STDIN] " + call + "\n", FormatTee},
		{"tee after its time", "2026-12-01T13:29:30.410Z [STDIN] " + call + "\n", FormatTee},
		{"tee opening with the wrapper's [INFO] line", "2026-12-01T13:29:30.400Z [INFO] Starting\n2026-12-01T13:29:30.410Z [STDOUT] " + call + "\n", FormatTee},
		{"tee with bracketed times after a banner", "=== wrapper started ===\n[2026-12-01T13:29:30.410Z] [STDIN] " + call + "\n", FormatTee},
		{"bracketed words without a message channel are no tee", "[INFO] hello\n[WARN] there\n", FormatUnknown},
		{"prose", "hello there\n", FormatUnknown},
		{"a number", "2025\n", FormatUnknown},
		{"empty", "", FormatUnknown},
		{"blank", " \n\t\n", FormatUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Sniff([]byte(c.in)); got != c.want {
				t.Errorf("Sniff = %q, want %q", got, c.want)
			}
		})
	}
}

// TestSniffRealLogWithPrefix: a real Go SDK client log (the go-sdk's
// LoggingTransport), written through the log package so every line starts
// with its date and time, is sniffed as a Go SDK log and imports with the
// times of that prefix.
func TestSniffRealLogWithPrefix(t *testing.T) {
	clientLog, _ := exchange(t, false, 5*time.Second)
	var b bytes.Buffer
	start := time.Date(2025, 1, 2, 10, 0, 0, 0, time.UTC)
	last := 0 // the last line that carries a message (not "read error: ...")
	for i, line := range strings.Split(strings.TrimSpace(string(clientLog)), "\n") {
		fmt.Fprintf(&b, "%s %s\n", start.Add(time.Duration(i)*1500*time.Microsecond).Format("2006/01/02 15:04:05.000000"), line)
		if strings.Contains(line, ": {") {
			last = i
		}
	}
	if got := Sniff(b.Bytes()); got != FormatGoSDK {
		t.Fatalf("Sniff = %q, want %q\n%s", got, FormatGoSDK, b.Bytes())
	}
	tr, err := Import(b.Bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(last * 1500 / 1000); tr.Source.Clock != "ms" || tr.EndMs != want {
		t.Errorf("clock %q, end %d ms; want ms and %d (the prefix's times)", tr.Source.Clock, tr.EndMs, want)
	}
}

// TestTimesWithinLimits: transcript times must be finite and within
// ±MaxAbsTimeMs, and every span fits (-9e18 and 9e18 used
// to be accepted and overflow); a refused time is located at its line.
func TestTimesWithinLimits(t *testing.T) {
	line := func(t, from string) string {
		msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`
		if from == "server" {
			msg = `{"jsonrpc":"2.0","id":1,"result":{}}`
		}
		return `{"t":` + t + `,"from":"` + from + `","message":` + msg + "}\n"
	}
	bad := []struct {
		name, in string
		line     int
	}{
		{"-9e18 then 9e18", line("-9e18", "client") + line("9e18", "server"), 1},
		{"9e18 first", line("9e18", "client"), 1},
		{"past the int64 range", line("1e19", "client"), 1},
		{"beyond float64", line("1e400", "client"), 1},
		{"just past the limit", line("253402300800000", "client"), 1},
		{"second line past the limit", line("0", "client") + line("-253402300800000", "server"), 2},
		{"span of the whole range", line("-253402300799999", "client") + line("253402300799999", "server"), 2},
		{"log prefix on some lines only", "2025/01/02 10:00:00.000000 write: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}\nread: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", 2},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Import([]byte(c.in), Options{})
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrTranscript) || e.Line != c.line {
				t.Fatalf("err = %v (trace end %v), want ErrTranscript at line %d", err, endOf(tr), c.line)
			}
		})
	}
	good := []struct {
		name, in string
		end      int64
	}{
		{"the last millisecond of 9999", line("253402300799000", "client") + line("253402300799999", "server"), 999},
		{"negative times", line("-253402300799999", "client") + line("-253402300799000", "server"), 999},
		{"fractions truncate", line("1.9", "client") + line("2.5", "server"), 1},
	}
	for _, c := range good {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Import([]byte(c.in), Options{})
			if err != nil || tr.EndMs != c.end {
				t.Fatalf("err %v, end %v; want end %d ms", err, endOf(tr), c.end)
			}
		})
	}
}

func endOf(tr *trace.Trace) any {
	if tr == nil {
		return nil
	}
	return tr.EndMs
}

// A message copied out of a log by itself no longer says who sent it
// (the lab's JSON Lines need "from"): Import refuses it on its line, says
// how the lab's JSON Lines wrap it, and never reads it as a scenario
// ("invalid JSON: unexpected data after the scenario object", before).
func TestImportRefusesBareMessagesSayingHowToWrapThem(t *testing.T) {
	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`
	cases := []struct {
		name, in string
		line     int
	}{
		{"first line", call + "\n" + `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", 1},
		{"without jsonrpc", `{"method":"tools/call","id":1,"params":{"name":"x"}}` + "\n", 1},
		{"after a wrapped one", `{"from":"client","message":` + call + "}\n" + `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import([]byte(c.in), Options{})
			var e *Error
			if !errors.As(err, &e) || e.Line != c.line {
				t.Fatalf("Import: %v, want an *Error on line %d", err, c.line)
			}
			for _, want := range []string{"does not say who sent it", `{"from":"client","message":{...}}`} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}
