package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
)

// TestRunReadsFilesThroughTheLimit (Unbounded reads): a file is
// read through the same 4 MiB limit as standard input, so a 256 MiB file
// (sparse: it costs no disk) is refused as too large, exit 2, after
// allocating at most 32 MiB (main read all of it; `run /dev/zero` grew past
// 1.4 GB).
func TestRunReadsFilesThroughTheLimit(t *testing.T) {
	name := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// review reads its file the same way (it read the whole file before).
	for _, verb := range []string{"run", "review"} {
		var out, errOut bytes.Buffer
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err = run([]string{verb, name}, &out, &errOut)
		runtime.ReadMemStats(&after)
		if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), "more than 4 MiB (4,194,304 bytes), the most mcplab reads") {
			t.Fatalf("%s: exit %d, stderr %q; want 2 and a size error naming the 4 MiB limit", verb, code, errOut.String())
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
			t.Errorf("%s: reading a 256 MiB file allocated %d bytes, want <= 32 MiB", verb, n)
		}
	}
}

// TestRunExitStatus: bad input exits 2 with its located cause (a
// mutate-result without a ledger once panicked and exited 2 with a Go
// stack); a panic inside the engine exits 4, not 2, with a message asking
// for a report.
func TestRunExitStatus(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":1,"do":"mutate-result","of":1}]}`), 0o644)
	var out, errOut bytes.Buffer
	err := run([]string{"run", bad}, &out, &errOut)
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), "error: steps[1].do: ") || out.Len() > 0 {
		t.Errorf("mutate-result without a ledger: exit %d, stderr %q, %d bytes out; want 2 and the located cause", code, errOut.String(), out.Len())
	}

	file := filepath.Join(dir, "ledger.json")
	os.WriteFile(file, examplestest.Get(t, "ledger-keyed-race").JSON, 0o644)
	saved := runOptions
	t.Cleanup(func() { runOptions = saved })
	runOptions = engine.Options{OpenLedger: func() (ledger.Store, error) { panic("a bug") }}
	out.Reset()
	errOut.Reset()
	err = run([]string{"run", file}, &out, &errOut)
	if code := exitCode(err); code != 4 || !strings.Contains(errOut.String(), "please report it") || out.Len() > 0 {
		t.Errorf("a panic in the engine: exit %d, stderr %q, %d bytes out; want 4 and a request for a report", code, errOut.String(), out.Len())
	}
}

// TestBadFlagIsSaidOnce ("run -latency 7.5" printed its error, the
// whole usage, then the error again): every subcommand's bad flag is said
// once, as "error: ...; see mcplab help VERB", exit 2, without the usage;
// -h still prints the usage and exits 0.
func TestBadFlagIsSaidOnce(t *testing.T) {
	for _, c := range []struct{ args []string }{
		{[]string{"run", "-latency", "7.5", "x.json"}},
		{[]string{"run", "-bogus", "x.json"}},
		{[]string{"review", "x.json", "-op"}},
		{[]string{"build", "-nope"}},
		{[]string{"serve", "-addr"}},
		{[]string{"probe", "-limit", "soon", "--", "true"}},
		{[]string{"probe", "-timeout", "0s", "--", "true"}},
		{[]string{"version", "-x"}},
	} {
		var out, errOut bytes.Buffer
		err := run(c.args, &out, &errOut)
		verb := c.args[0]
		got := errOut.String()
		if code := exitCode(err); code != 2 || strings.Count(got, "error: ") != 1 || !strings.HasSuffix(got, "; see mcplab help "+verb+"\n") || strings.Contains(got, "usage:") || out.Len() > 0 {
			t.Errorf("mcplab %s: exit %d, stderr %q; want 2 and one line \"error: ...; see mcplab help %s\" without the usage", strings.Join(c.args, " "), code, got, verb)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"run", "-h"}, &out, &errOut); err != nil || !strings.HasPrefix(errOut.String(), "usage: mcplab run") {
		t.Errorf("mcplab run -h: %v, stderr %.60q; want the usage and exit 0", err, errOut.String())
	}
}

// TestRunSaysWhatItWants (raw Go errors): a fraction of a millisecond
// for -latency or -max-timeout is refused, exit 2, saying what is wanted
// (whole ms from 0 to a day), not flag's bare "parse error", and a whole
// number is taken as given (the transcript's round trip); a file that
// cannot be read is named once with the system's reason and what run and
// review take, not "reading F: open F: ...".
func TestRunSaysWhatItWants(t *testing.T) {
	log := filepath.Join("..", "engine", "transcript", "testdata", "jsonl-race.jsonl")
	for _, flag := range []string{"-latency", "-max-timeout"} {
		var out, errOut bytes.Buffer
		err := run([]string{"run", flag, "7.5", log}, &out, &errOut)
		want := `invalid value "7.5" for flag ` + flag + `: want whole milliseconds from 0 to 86400000 (a day)`
		if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), want) || strings.Contains(errOut.String(), "parse error") || out.Len() > 0 {
			t.Errorf("run %s 7.5: exit %d, stderr %q; want 2 and %q", flag, code, errOut.String(), want)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"run", "-latency", "7", log}, &out, &errOut); err != nil {
		t.Fatalf("run -latency 7: %v (%s)", err, errOut.String())
	}
	var tr struct{ Source struct{ LatencyMs int64 } }
	if err := json.Unmarshal(out.Bytes(), &tr); err != nil || tr.Source.LatencyMs != 7 {
		t.Errorf("run -latency 7: the trace's source.latencyMs is %d (%v), want 7", tr.Source.LatencyMs, err)
	}
	// -observer and -zone name the flag and what they take; a zone name
	// is known here, so the message does not send the reader to the
	// command line they are on.
	for _, c := range []struct{ flag, value, want string }{
		{"-observer", "bogus", `-observer "bogus": want client, server or wire`},
		{"-zone", "Mars/Olympus", `-zone "Mars/Olympus": not a time zone this machine knows: want an IANA name such as Europe/Oslo, UTC, or an offset such as +02:00`},
	} {
		out.Reset()
		errOut.Reset()
		err := run([]string{"run", c.flag, c.value, log}, &out, &errOut)
		if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), c.want) || strings.Contains(errOut.String(), "needs the command line") || out.Len() > 0 {
			t.Errorf("run %s %s: exit %d, stderr %q; want 2 and %q", c.flag, c.value, code, errOut.String(), c.want)
		}
	}
	// review takes no transcript, so it asks for a scenario file.
	missing := filepath.Join(t.TempDir(), "nothere.json")
	for verb, file := range map[string]string{"run": "a scenario or transcript file", "review": "a scenario file"} {
		out.Reset()
		errOut.Reset()
		err := run([]string{verb, missing}, &out, &errOut)
		want := "error: cannot read " + missing + ": no such file or directory; give " + file + ", - for standard input, or a share link"
		if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), want) {
			t.Errorf("%s of a missing file: exit %d, stderr %q; want 2 and %q", verb, code, errOut.String(), want)
		}
	}
}

// TestRunChecksCiteTranscriptLines ("before it wrote #8" of a
// five-line file): run -checks on a transcript cites each event by the
// line it was read from (trace.Event.Line), as the import page does, in a
// violation's "(line 6)" and in a detail's running text; a HAR cites its
// entry; a scenario keeps its events' numbers, the only numbering it has.
func TestRunChecksCiteTranscriptLines(t *testing.T) {
	tee := filepath.Join(t.TempDir(), "tee.log")
	os.WriteFile(tee, []byte(`[STDIN] {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{}}}
[STDERR] working
[STDIN] {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}
[STDERR] still working
[STDOUT] {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
`), 0o644)
	testdata := filepath.Join("..", "engine", "transcript", "testdata")
	for _, c := range []struct {
		input, want string
		code        int
	}{
		// The response is line 5 of the tee (its events are #4 and #5).
		{tee, "before it wrote line 5, and the path's round trip is unknown", 0},
		// The server's late response is line 6 of its log (event #9).
		{filepath.Join(testdata, "jsonl-race-server.jsonl"), "FAIL  no-message-after-cancel: The server sent 1 message(s) for a request after accepting its cancellation (line 6).", 3},
		// Both progress events streamed in the HAR's third entry, whose
		// interval spans the cancellation: cited once, undecided.
		{filepath.Join(testdata, "inspector-cancel.har"), "response stream: HAR entry 3 streamed in an exchange whose interval overlaps the cancellation", 0},
		// A tee as logging wrappers write it (times, [INFO] and [STDERR]
		// lines): read, not refused, and its times convict the result
		// 900 ms after the cancellation (line 12).
		{filepath.Join(testdata, "stdio-tee-timed.log"), "FAIL  no-message-after-cancel: The server sent 1 message(s) for a cancelled request after it had read the cancellation (line 12)", 3},
		// A scenario's events have no line: their numbers stay.
		{"#example=broken-ignore-disconnect", "work went on for the request (#9, #11, #12)", 3},
	} {
		var out, errOut bytes.Buffer
		code := 0
		if err := run([]string{"run", "-checks", c.input}, &out, &errOut); err != nil {
			code = exitCode(err)
		}
		if code != c.code || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("run -checks %s: exit %d, stderr %q; want %d and %q", c.input, code, errOut.String(), c.code, c.want)
		}
		if c.input[0] != '#' && regexp.MustCompile(`[ (]#[0-9]`).MatchString(errOut.String()) {
			t.Errorf("run -checks %s cites an event number, want lines: %q", c.input, errOut.String())
		}
	}
}

// TestTranscriptLineLimitDocumented (a limit met only as an error): a
// transcript of transcript.MaxLines+1 lines is refused on that line, exit
// 2, and the limit is documented with its number where the 4 MiB is: the
// docs/command.md's limits table, /transcript.schema.json and run's usage.
func TestTranscriptLineLimitDocumented(t *testing.T) {
	var b strings.Builder
	for i := 0; i <= transcript.MaxLines; i++ {
		b.WriteString("[STDERR] working\n")
	}
	name := filepath.Join(t.TempDir(), "long.log")
	os.WriteFile(name, []byte(`[STDIN] {"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"+b.String()), 0o644)
	var out, errOut bytes.Buffer
	err := run([]string{"run", name}, &out, &errOut)
	want := fmt.Sprintf("%s: line %d: more than %d,%03d lines", name, transcript.MaxLines+1, transcript.MaxLines/1000, transcript.MaxLines%1000) // grouped, as the other limits
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), want) {
		t.Errorf("run of %d lines: exit %d, stderr %q; want 2 and %q", transcript.MaxLines+2, code, errOut.String(), want)
	}
	readme, err := os.ReadFile(filepath.Join("..", "docs", "command.md"))
	if err != nil {
		t.Fatal(err)
	}
	number := fmt.Sprintf("%d,%03d", transcript.MaxLines/1000, transcript.MaxLines%1000) // 20,000
	for _, c := range []struct{ where, text, want string }{
		{"docs/command.md's limits table", string(readme), "| lines of a transcript (a HAR's entries) | " + number + " | `transcript.MaxLines` |"},
		{"docs/command.md's limits table", string(readme), "| a transcript | 4 MiB | `transcript.MaxBytes` |"},
		{"/transcript.schema.json", string(transcript.Schema), "at most 4 MiB (4,194,304 bytes) and " + number + " lines"},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("%s does not say %q", c.where, c.want)
		}
	}
	errOut.Reset()
	run([]string{"run", "-h"}, &out, &errOut)
	if want := number + " lines"; !strings.Contains(strings.Join(strings.Fields(errOut.String()), " "), want) {
		t.Errorf("run -h does not say %q: %q", want, errOut.String())
	}
}

// TestRunSaysURLsAreReadByTheirFragment ("cannot read https://...: no
// such file or directory", and "its data is damaged" for an empty #s=): a
// URL without a fragment is refused as a link, saying mcplab reads a share
// link's fragment and fetches nothing; an empty #s= says the link carries
// no scenario. Both exit 2, for run and review.
func TestRunSaysURLsAreReadByTheirFragment(t *testing.T) {
	for _, c := range []struct{ link, want string }{
		{"https://example.com/playground/", "error: bad share link: https://example.com/playground/ has no fragment: mcplab reads a share link by its fragment and does not fetch URLs; want a link with #s=... or #example=NAME, or a file"},
		{"http://localhost:8080/playground/", "http://localhost:8080/playground/ has no fragment: mcplab reads a share link by its fragment and does not fetch URLs"},
		{"https://example.com/playground/#s=", "error: bad share link: the link carries no scenario (empty #s=)"},
		{"https://example.com/review/#s=&op=1", "error: bad share link: the link carries no scenario (empty #s=)"},
	} {
		for _, verb := range []string{"run", "review"} {
			var out, errOut bytes.Buffer
			err := run([]string{verb, c.link}, &out, &errOut)
			if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), c.want) || strings.Contains(errOut.String(), "no such file") || strings.Contains(errOut.String(), "damaged") || out.Len() > 0 {
				t.Errorf("%s %s: exit %d, stderr %q; want 2 and %q", verb, c.link, code, errOut.String(), c.want)
			}
		}
	}
}

// TestRunChecksZoneWhateverTheInput (`run -zone Mars/Olympus
// scenario.json` exited 0 in silence): -zone is validated before the input
// is read, so an unknown zone is refused, exit 2, for a scenario file and
// a share link as for a transcript; a known zone given a scenario is
// refused as a transcript's flag.
func TestRunChecksZoneWhateverTheInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.json")
	os.WriteFile(file, examplestest.Get(t, "a-cancel-then-complete").JSON, 0o644)
	want := `error: -zone "Mars/Olympus": not a time zone this machine knows: want an IANA name such as Europe/Oslo, UTC, or an offset such as +02:00`
	for _, input := range []string{file, "#example=a-cancel-then-complete"} {
		var out, errOut bytes.Buffer
		err := run([]string{"run", "-zone", "Mars/Olympus", input}, &out, &errOut)
		if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), want) || out.Len() > 0 {
			t.Errorf("run -zone Mars/Olympus %s: exit %d, stderr %q; want 2 and %q", input, code, errOut.String(), want)
		}
	}
	var out, errOut bytes.Buffer
	err := run([]string{"run", "-zone", "Europe/Oslo", file}, &out, &errOut)
	if code := exitCode(err); err == nil || code != 2 || !strings.Contains(errOut.String(), "error: -zone applies to a transcript of real traffic") || out.Len() > 0 {
		t.Errorf("run -zone Europe/Oslo of a scenario: exit %d, stderr %q; want 2: a transcript's flag (TestRunRefusesTranscriptFlagsForAScenario)", code, errOut.String())
	}
}

// TestRunNamesStandardInput ("cannot read -: more than 4194304
// bytes"): input past the 4 MiB limit on standard input is named
// "standard input", the limit in MiB with its bytes grouped, exit 2, with
// no advice to give a file (the input was read, it is too large).
func TestRunNamesStandardInput(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "zero"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(transcript.MaxBytes + 1); err != nil {
		t.Fatal(err)
	}
	saved := os.Stdin
	t.Cleanup(func() { os.Stdin = saved })
	os.Stdin = f
	var out, errOut bytes.Buffer
	err = run([]string{"run", "-"}, &out, &errOut)
	want := "error: cannot read standard input: more than 4 MiB (4,194,304 bytes), the most mcplab reads (a scenario is at most 1,048,576 bytes)\n"
	if code := exitCode(err); code != 2 || errOut.String() != want || out.Len() > 0 {
		t.Errorf("run - of %d bytes: exit %d, stderr %q; want 2 and %q", transcript.MaxBytes+1, code, errOut.String(), want)
	}
}

// TestRunSaysNotAScenarioNotMcplabColon (`error: mcplab: a scenario
// starts with "mcplab": 1` reads as the program's name): an error at the
// scenario's "mcplab" member says the input is not a scenario, or names it
// as a member (`the "mcplab" member: ...`), for run and review; the
// engine's error keeps its path (the playground marks it there) and its
// category.
func TestRunSaysNotAScenarioNotMcplabColon(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ doc, want string }{
		{`{}`, `error: not a scenario: a scenario starts with "mcplab": 1 (see the site's /scenario.schema.json)`},
		{`{"mcplab":99,"steps":[]}`, `error: the "mcplab" member: this lab reads version 1, not 99`},
		{`{"mcplab":"1","steps":[]}`, `error: the "mcplab" member: must be an integer`},
	} {
		file := filepath.Join(dir, "s.json")
		os.WriteFile(file, []byte(c.doc), 0o644)
		for _, verb := range []string{"run", "review"} {
			var out, errOut bytes.Buffer
			err := run([]string{verb, file}, &out, &errOut)
			if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), c.want) || strings.Contains(errOut.String(), "error: mcplab:") {
				t.Errorf("%s of %s: exit %d, stderr %q; want 2 and %q", verb, c.doc, code, errOut.String(), c.want)
			}
			var se *scenario.Error
			if !errors.As(err, &se) || se.Path != "mcplab" {
				t.Errorf("%s of %s: %v does not unwrap to the engine's error at \"mcplab\"", verb, c.doc, err)
			}
		}
	}
}

// TestRunRefusesTranscriptFlagsForAScenario (`run -latency 500
// -max-timeout 10 -side server -observer wire -zone UTC scenario.json`
// exited 0 with a plain run's trace: the user thought -latency changed the
// scenario): a transcript's flags given with a scenario file, standard
// input or a share link are a usage error naming the flags given and what
// the scenario says instead, exit 2, nothing on stdout. Only flags set
// count; -checks applies to both.
func TestRunRefusesTranscriptFlagsForAScenario(t *testing.T) {
	file := filepath.Join(t.TempDir(), "scenario.json")
	os.WriteFile(file, examplestest.Get(t, "a-cancel-then-complete").JSON, 0o644)
	all := []string{"-latency", "500", "-max-timeout", "10", "-side", "server", "-observer", "wire", "-zone", "UTC"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(all, file), "error: -latency, -max-timeout, -observer, -side, -zone apply to a transcript of real traffic; " + file + ` is a scenario (its latency is its own "latencyMs" member, its maximum timeout "client.maxTimeoutMs" or a call's "maxTimeoutMs"; it plays both sides on a virtual clock): run it without them` + "\n"},
		{[]string{"-latency", "500", "#example=a-cancel-then-complete"}, `error: -latency applies to a transcript of real traffic; the share link carries a scenario (its latency is its own "latencyMs" member): run it without it` + "\n"},
		{[]string{file, "-side", "auto", "-checks"}, "error: -side applies to a transcript of real traffic; " + file + " is a scenario (it plays both sides on a virtual clock): run it without it\n"},
	} {
		var out, errOut bytes.Buffer
		err := run(append([]string{"run"}, c.args...), &out, &errOut)
		if code := exitCode(err); err == nil || code != 2 || errOut.String() != c.want || out.Len() > 0 {
			t.Errorf("run %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, errOut.String(), c.want)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"run", "-checks", file}, &out, &errOut); err != nil {
		t.Errorf("run -checks of a scenario: %v %q", err, errOut.String())
	}
}

// TestRunTranscriptErrorSaidOnce ("error: transcript: line 2: bad
// transcript: ..." said it was a transcript twice): a transcript's error
// names the file and the line once, "error: NAME: line 2: ...", a HAR's
// entry once, a HAR cut short its line and column, and still unwraps to
// transcript.ErrTranscript.
func TestRunTranscriptErrorSaidOnce(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "t.jsonl")
	os.WriteFile(jsonl, []byte(`{"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}`+"\n"+`{"jsonrpc":"2.0","id":1,"result":{}}`+"\n"), 0o644)
	har := filepath.Join(dir, "t.har")
	os.WriteFile(har, []byte(`{"log":{"entries":[{"startedDateTime":"yesterday","request":{},"response":{}}]}}`), 0o644)
	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte("[]\n"), 0o644)
	// A HAR cut short (head -c 40) is a HAR cut short, at its end, not an
	// invalid scenario.
	cut := filepath.Join(dir, "cut.har")
	os.WriteFile(cut, []byte("{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"ent"), 0o644)
	for _, c := range []struct{ file, want string }{
		{jsonl, "error: " + jsonl + ": line 2: a JSON-RPC message by itself"},
		// neither a scenario nor a transcript named no file and said
		// "bad transcript" after "nor a transcript".
		{junk, "error: " + junk + `: neither a scenario (a JSON object starting with "mcplab": 1; see the site's /scenario.schema.json) nor a transcript: line 1: unknown format.`},
		{har, "error: " + har + `: HAR entry 1: startedDateTime "yesterday" is not an ISO 8601 time`},
		{cut, "error: " + cut + ": line 4, column 9: this HAR file is cut short"},
	} {
		var out, errOut bytes.Buffer
		err := run([]string{"run", c.file}, &out, &errOut)
		if code := exitCode(err); err == nil || code != 2 || !strings.HasPrefix(errOut.String(), c.want) || strings.Count(errOut.String(), "transcript") > strings.Count(c.want, "transcript") || !errors.Is(err, transcript.ErrTranscript) {
			t.Errorf("run %s: exit %d, stderr %q; want 2 and %q, the rest not saying transcript again", c.file, code, errOut.String(), c.want)
		}
	}
}

// Rule (an error names where the fix goes): scenario A without the comma
// after its transport is reported at line 6, column 23, just after
// "stdio", the column the playground's "Show in editor" puts the caret
// on, not at the value's closing quote (column 22).
func TestRunMissingCommaColumn(t *testing.T) {
	a := string(examplestest.Get(t, "a-cancel-then-complete").JSON)
	bad := strings.Replace(a, `"transport": "stdio",`, `"transport": "stdio"`, 1)
	if bad == a {
		t.Fatal(`scenario A has no "transport": "stdio", line`)
	}
	file := filepath.Join(t.TempDir(), "a.json")
	os.WriteFile(file, []byte(bad), 0o644)
	var out, errOut bytes.Buffer
	err := run([]string{"run", file}, &out, &errOut)
	want := `line 6, column 23: a comma is missing after "transport": "stdio"`
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), want) {
		t.Errorf("run: exit %d, stderr %q; want 2 and %q", code, errOut.String(), want)
	}
}
