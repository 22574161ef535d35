package site

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/site/internal/live"
	"github.com/mcplab/mcplab/site/internal/mock"
)

// mockTranscript is the transcript's default base name in -out (-name):
// mock.jsonl, or mock-2.jsonl, mock-3.jsonl… when that exists (a client
// that starts its server more than once starts a mock each time; none
// replaces another's).
const mockTranscript = "mock"

const mockUsage = `usage: mcplab mock [-http ADDR] [-out DIR] [-name BASE] [-protocol auto|2026-07-28|2025-11-25] [-idle-timeout MS] [-max-timeout MS] SCENARIO
       mcplab mock [-http ADDR] [-out DIR] [-name BASE] [-protocol P] [-idle-timeout MS] [-max-timeout MS] -situation NAME

Plays the server half of SCENARIO (a scenario file or share link): its
server.handlers (work of workMs, progress every progressEveryMs when the
call carries a progress token, a cancellation noticed at the handler's
checkpoints, its held resource) and its server switches, in real time, to
one real client: on standard input and output by default (give a client
"mcplab mock SCENARIO" as its server command), or on Streamable HTTP at
http://ADDR/mcp with -http (a loopback address; the URL is printed on
stderr). It answers initialize (2025-11-25) or server/discover and
_meta-carrying requests (2026-07-28), ping, tools/list and tools/call.
-protocol auto answers in the revision the client speaks.
When the client leaves (it closes standard input, sends DELETE under
2025-11-25, or SIGINT or SIGTERM arrives) it writes DIR/mock.jsonl, the
server's view that mcplab run and the /import/ page judge, prints its path
and its verdicts on stderr (standard output is the protocol on stdio).
It never replaces a transcript: when DIR/mock.jsonl exists (a client that
starts its server once per session starts one mock each time) it writes
DIR/mock-2.jsonl, then mock-3.jsonl and so on, the first name free.
-name BASE names it DIR/BASE.jsonl (BASE-2.jsonl… when that exists).
-max-timeout and -idle-timeout state the client's timeouts per request so
max-timeout-enforced, abandon-tells-server and progress-resets-idle can
judge them (a server sees neither). -situation NAME plays one of probe-client's situations
(its scenario and the misbehaviour it stages) instead of a SCENARIO.

Exit status: 0 done, 1 failure (the address is taken, the transcript could
not be written), 2 bad input or usage, 3 a check failed (the transcript is
written all the same), 4 internal error (please report it).`

// cmdMock is `mcplab mock`: it ends when the client leaves or on the first
// of live.Signals (a second one kills it).
func cmdMock(args []string, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), live.Signals...)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	return mockMain(ctx, args, os.Stdin, stdout, stderr, nil)
}

// mockFlags are mock's parsed command line.
type mockFlags struct {
	addr, out, name, protocol, situation string
	maxTimeout, idleTimeout              int64
	verdicts                             bool
	sc                                   *scenario.Scenario
	quirks                               mock.Quirks
}

// parseMock reads mock's command line; errors are usageErrors.
func parseMock(args []string, stderr io.Writer) (*mockFlags, error) {
	fs := flag.NewFlagSet("mock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &mockFlags{}
	fs.StringVar(&f.addr, "http", "", "serve Streamable HTTP at this loopback `address` (HOST:PORT) instead of stdio")
	fs.StringVar(&f.out, "out", "", "`directory` for the transcript (default: a new temporary directory, printed)")
	fs.StringVar(&f.name, "name", mockTranscript, "the transcript's `base` name: DIR/BASE.jsonl, or BASE-2.jsonl… when that exists")
	fs.StringVar(&f.protocol, "protocol", mock.ProtocolAuto, "the `revision` to speak: auto (the client's), 2026-07-28 or 2025-11-25")
	fs.Func("max-timeout", "the client's maximum total timeout per request in whole `ms`, so max-timeout-enforced can judge it (0: none)", wholeMs(&f.maxTimeout))
	fs.Func("idle-timeout", "the client's idle timeout per request in whole `ms`, so progress-resets-idle can judge it (0: none)", wholeMs(&f.idleTimeout))
	fs.StringVar(&f.situation, "situation", "", "play probe-client's situation `NAME` (its scenario and misbehaviours) instead of a SCENARIO")
	fs.BoolVar(&f.verdicts, "verdicts", true, "print the checks' verdicts on stderr and exit 3 when one fails (false: write the transcript only, for probe-client, which judges it with the situation's staged rules left out)")
	fs.Usage = func() { fmt.Fprintln(stderr, mockUsage); fs.PrintDefaults() }
	if err := parseFlagsOnce(fs, args); err != nil {
		return nil, err
	}
	if err := checkProtocol(f.protocol); err != nil {
		return nil, err
	}
	if f.name == "" || f.name != filepath.Base(f.name) {
		return nil, &usageError{fmt.Errorf("-name %q: want a file name without a directory (the transcript is DIR/BASE.jsonl)", f.name)}
	}
	if f.situation != "" {
		st, ok := mock.SituationNamed(f.situation)
		switch {
		case !ok:
			return nil, &usageError{fmt.Errorf("-situation %q: no such situation (they are %s)", f.situation, situationList())}
		case fs.NArg() > 0:
			return nil, &usageError{errors.New("-situation plays its own scenario: give no SCENARIO with it")}
		}
		sc, err := scenario.Decode([]byte(st.Scenario))
		if err != nil {
			return nil, err
		}
		f.sc, f.quirks = sc, st.Quirks
		return f, nil
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return nil, &usageError{errors.New("mock takes one scenario (a file or a share link), after its flags")}
	}
	sc, err := loadScenario(fs.Arg(0))
	if err != nil {
		return nil, err
	}
	f.sc = sc
	return f, nil
}

// checkProtocol refuses a -protocol that is no revision nor auto.
func checkProtocol(p string) error {
	switch p {
	case mock.ProtocolAuto, jsonrpc.Revision20251125, jsonrpc.Revision20260728:
		return nil
	}
	return &usageError{fmt.Errorf("-protocol %q: want auto, %s or %s", p, jsonrpc.Revision20260728, jsonrpc.Revision20251125)}
}

// loadScenario reads a scenario file or share link; its handlers are what
// the mock plays, so a scenario without server.handlers is refused.
func loadScenario(arg string) (*scenario.Scenario, error) {
	var data []byte
	var err error
	if isLink(arg) {
		data, err = linkScenario(arg)
	} else if arg == "-" {
		return nil, &usageError{errors.New("the scenario cannot come from standard input: on stdio that is the client's pipe; give a file or a share link")}
	} else {
		data, err = readMockScenario(arg)
	}
	if err != nil {
		return nil, &usageError{err}
	}
	sc, err := scenario.Decode(data)
	if err != nil {
		return nil, &usageError{fmt.Errorf("%s: %w", arg, err)}
	}
	if len(sc.Server.Handlers) == 0 {
		return nil, &usageError{fmt.Errorf("%s has no server.handlers: the mock plays a server's handlers (server.handlers, docs/scenario.md), e.g. {\"server\":{\"handlers\":{\"slow\":{\"workMs\":300,\"progressEveryMs\":100}}}}", arg)}
	}
	return sc, nil
}

// readMockScenario reads the scenario file name as readInput does, but
// says what the mock takes when it cannot: a file or a share link, never
// standard input (on stdio that is the client's pipe).
func readMockScenario(name string) ([]byte, error) {
	data, err := readFile(name)
	var pe *os.PathError
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("cannot read %s: %w; give a scenario file or a share link (not standard input: on stdio that is the client's pipe)", name, pe.Err)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, fmt.Errorf("%s is empty: want a scenario (a JSON object, see the site's /scenario.schema.json) with server.handlers", name)
	}
	return data, nil
}

// mockMain runs the mock (mock.Play) until the client leaves or ctx
// ends, then prints the transcript's verdicts, as mcplab run -checks does
// (unless -verdicts=false). ready, if not nil, gets the URL once the mock
// listens (-http). A violated check is a checksFailed (exit 3), a panic
// while judging an internalError (exit 4).
func mockMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, ready func(string)) (err error) {
	f, err := parseMock(args, stderr)
	if err != nil {
		return err
	}
	play := &mock.Play{Scenario: f.sc, Protocol: f.protocol, Quirks: f.quirks, Stdin: stdin, Stdout: stdout, Log: stderr,
		Dir: f.out, Name: f.name, Ready: ready}
	if f.addr != "" {
		if play.Listener, err = loopbackListen(f.addr); err != nil {
			return err
		}
	}
	path, records, err := play.Run(ctx)
	if err != nil || records == 0 || !f.verdicts {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = &internalError{&entry.InternalError{Value: r, Stack: debug.Stack()}}
		}
	}()
	tr, err := mock.Judge(path, f.maxTimeout, f.idleTimeout)
	if err != nil {
		return err
	}
	return printChecks(stderr, tr)
}

// loopbackListen listens at addr, which must name a loopback host: the
// mock and probe-client never serve beyond this machine.
func loopbackListen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &usageError{fmt.Errorf("-http %q: want HOST:PORT, such as 127.0.0.1:7332", addr)}
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, &usageError{fmt.Errorf("-http %q: the mock serves a loopback address only (127.0.0.1, ::1 or localhost)", addr)}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-http %s: %w", addr, err)
	}
	return ln, nil
}

// situationList names probe-client's situations, comma-separated.
func situationList() string {
	var names []string
	for _, s := range mock.Situations {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}
