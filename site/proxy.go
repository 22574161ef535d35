package site

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/live"
)

// proxyDefaultListen is where `mcplab proxy` listens unless told: a
// loopback address, so nothing off this machine reaches the server
// through it.
const proxyDefaultListen = "127.0.0.1:7331"

// proxyTranscript is the transcript's base name in -out: proxy.jsonl, or
// proxy-2.jsonl, proxy-3.jsonl… when that exists (live.CreateFree).
const proxyTranscript = "proxy"

const proxyUsage = `usage: mcplab proxy [-listen ADDR] [-faults SPEC] [-out DIR] (URL | -- SERVER COMMAND...)

Sits between a real MCP client and a real server and records the wire on
both hops, client-proxy and proxy-server, with real times: a reverse proxy
for a Streamable HTTP server at URL (point the client at http://ADDR plus
URL's path), or, with -- SERVER COMMAND, a tee for stdio (give the client
"mcplab proxy -- SERVER COMMAND" as its server command). Every byte passes
unchanged (HTTP: bodies, status codes and end-to-end headers; RFC 9110
hop-by-hop headers aside) unless -faults says otherwise:
  buffer=final | buffer=N   hold a response stream until its final response or N bytes
  idle-close=MS             break a response stream after MS ms without a byte (HTTP)
  latency=MS                delay every message MS ms, each way
  drop-stream=MS            break a response stream MS ms after it opens (HTTP)
  strip=x-accel-buffering   remove that response header (HTTP)
(comma-separated, e.g. -faults buffer=final,latency=50).
It records into DIR/proxy.jsonl (DIR made at start), the lab's JSON Lines
that mcplab run and the /import/ page judge, as the messages pass, so a
proxy that is killed loses at most the record it was writing; when DIR
holds proxy.jsonl already (a client that starts its server once per
session starts one proxy each time) it takes proxy-2.jsonl, then
proxy-3.jsonl and so on, the first name free, and prints the path on
stderr. On SIGINT or SIGTERM (stdio: also when the server or the client
ends) it writes the file whole once more and prints its path and the
verdicts on stderr. A stdio server runs in its own process group, killed
at the end.
-listen is loopback unless a host is named; ":PORT" alone is refused.

Exit status: 0 done, 1 failure (the address is taken, the server could not
start, the transcript could not be written), 2 bad input or usage (such as
a bad -faults), 3 a check failed (a verdict is FAIL; the transcript is
written all the same), 4 internal error (a bug in mcplab while judging the
transcript: please report it).`

// cmdProxy is `mcplab proxy`: it ends on the first of live.Signals (a
// second one kills it).
func cmdProxy(args []string, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), live.Signals...)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // the next signal has its default effect: it kills the proxy
	}()
	return proxyMain(ctx, args, os.Stdin, stdout, stderr, nil)
}

// proxyMain runs the proxy until ctx ends (stdio: or the session ends),
// then writes the transcript and the verdicts. ready, if not nil, gets
// the proxy's URL once it listens (Streamable HTTP).
func proxyMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, ready func(string)) error {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", proxyDefaultListen, "the `address` the proxy serves Streamable HTTP on (loopback unless a host is named)")
	spec := fs.String("faults", "", "comma-separated intermediary `faults`: buffer=final, buffer=N, idle-close=MS, latency=MS, drop-stream=MS, strip=x-accel-buffering")
	out := fs.String("out", "", "`directory` for the transcript (default: a new temporary directory, printed)")
	fs.Usage = func() { fmt.Fprintln(stderr, proxyUsage); fs.PrintDefaults() }
	if err := parseFlagsOnce(fs, args); err != nil {
		return err
	}
	faults, err := live.ParseFaults(*spec)
	if err != nil {
		return &usageError{err}
	}
	rest := fs.Args()
	var target *url.URL
	switch {
	case len(rest) == 0:
		fs.Usage()
		return &usageError{errors.New("proxy needs a server: a Streamable HTTP URL, or -- SERVER COMMAND [ARG...] for stdio")}
	case strings.Contains(rest[0], "://"):
		if len(rest) > 1 {
			return &usageError{fmt.Errorf("flags go before the URL (mcplab proxy [flags] URL); after %s came %s", rest[0], strings.Join(rest[1:], " "))}
		}
		target, err = url.Parse(rest[0])
		if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
			return &usageError{fmt.Errorf("%s: want the server's http:// or https:// URL", rest[0])}
		}
	default:
		if err := faults.CheckStdio(); err != nil {
			return &usageError{err}
		}
	}
	sess := &live.Session{Target: target, Argv: rest, Faults: faults, Stdin: stdin, Stdout: stdout, Log: stderr, Dir: *out, Name: proxyTranscript, Ready: ready}
	if target != nil {
		if sess.Listener, err = proxyListen(*listen, fs, stderr); err != nil {
			return err
		}
	}
	path, records, err := sess.Run(ctx)
	if err != nil || records == 0 {
		return err
	}
	return proxyReport(path, stderr)
}

// proxyListen checks -listen and listens there: a host must be named
// (":PORT" alone would listen on every interface); a non-loopback one is
// allowed because it was named, with a warning.
func proxyListen(addr string, fs *flag.FlagSet, stderr io.Writer) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &usageError{fmt.Errorf("-listen %q: want HOST:PORT, such as %s", addr, proxyDefaultListen)}
	}
	if host == "" {
		return nil, &usageError{fmt.Errorf("-listen %q listens on every interface: name the host, 127.0.0.1%s (loopback), or 0.0.0.0%s if you mean every interface", addr, addr, addr)}
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(stderr, "mcplab proxy: warning: %s is not a loopback address: whoever reaches it can talk to the server through the proxy\n", host)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-listen %s: %w", addr, err)
	}
	return ln, nil
}

// proxyReport judges the transcript a proxy session wrote at path and
// prints its verdicts (as `mcplab run -checks` prints them) on stderr. As with `run -checks`, a violated check is a
// checksFailed error (exit 3) and a panic while judging (a bug in the
// lab, never the traffic's fault) is an internalError (exit 4).
func proxyReport(path string, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &internalError{&entry.InternalError{Value: r, Stack: debug.Stack()}}
		}
	}()
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	tr, err := transcript.Import(data, transcript.Options{})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return printChecks(stderr, tr)
}
