package site

// The parts of `mcplab probe`'s command that are not the probe itself:
// where the server is, signals, the transcripts' index and the exit code.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
)

// target reads the server from the command line's rest: a URL (http or
// https, nothing after it) or a stdio command. Errors are usageErrors.
func (p *prober) target(fs *flag.FlagSet, rest []string) error {
	switch {
	case len(rest) == 0:
		fs.Usage()
		return &usageError{errors.New("probe needs a server: -- COMMAND [ARG...] or a URL")}
	case strings.Contains(rest[0], "://"):
		scheme, _, _ := strings.Cut(rest[0], "://")
		if s := strings.ToLower(scheme); s != "http" && s != "https" {
			return &usageError{fmt.Errorf("%s: the probe talks stdio (-- COMMAND) or Streamable HTTP (an http:// or https:// URL), not %s", rest[0], scheme)}
		}
		if len(rest) > 1 {
			return &usageError{fmt.Errorf("flags go before the URL (mcplab probe [flags] URL); after %s came %s", rest[0], strings.Join(rest[1:], " "))}
		}
		p.url = rest[0]
	default:
		p.argv = rest
	}
	return nil
}

// watchSignals makes a signal (probeSignals) end the probe as its limits
// do: the server's process group is killed and probe.json written. A
// second signal kills the probe. The function it returns stops watching.
func (p *prober) watchSignals(stderr io.Writer) func() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, probeSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			if p.url != "" {
				fmt.Fprintf(stderr, "probe: %s: stopping (the session is closed)\n", signalName(s))
			} else {
				fmt.Fprintf(stderr, "probe: %s: stopping (the server's process group is killed)\n", signalName(s))
			}
			p.halt(signalName(s))
		case <-done:
		}
	}()
	return func() { signal.Stop(sigs); close(done) }
}

// writeIndex writes probe.json (every transcript's header) in dir and
// says on stdout where the transcripts are; wrote reports whether any was.
func writeIndex(dir string, results []sitResult, stdout io.Writer) (wrote bool, err error) {
	var heads []transcriptHeader
	for _, r := range results {
		if r.file != "" {
			heads = append(heads, r.header)
		}
	}
	if len(heads) == 0 {
		fmt.Fprintln(stdout, "transcripts: none written")
		return false, nil
	}
	if b, err := json.MarshalIndent(heads, "", "  "); err == nil {
		if err := os.WriteFile(filepath.Join(dir, "probe.json"), append(b, '\n'), 0o644); err != nil {
			return true, err
		}
	}
	fmt.Fprintf(stdout, "transcripts: %s (open one with: mcplab run -checks FILE, or drop it on /import/, which judge the transcript alone, as the client saw it: a message the probe convicted only by the tool's timing is undecided there; probe.json says who observed each and holds that evidence)\n", dir)
	return true, nil
}

// exitFor is the probe's error for results: with check (-checks) a
// checksFailed naming the failed situations and rules (exit 3); a signal's
// stop, a command line the server contradicts (exit 2), or situations that
// could not run (exit 1); nil otherwise.
func (p *prober) exitFor(results []sitResult, check bool) error {
	var failed []string
	errs := 0
	for _, r := range results {
		if r.verdict == "FAIL" {
			var rules []string
			for _, c := range r.checks {
				if c.OK != nil && !*c.OK {
					rules = append(rules, string(c.Rule))
				}
			}
			rules = append(rules, r.own...)
			if len(rules) == 0 {
				rules = append(rules, "the probe's own observation")
			}
			failed = append(failed, r.name+" ("+strings.Join(rules, ", ")+")")
		}
		if r.broke {
			errs++
		}
	}
	if check && len(failed) > 0 {
		return &checksFailed{rules: failed}
	}
	if by := p.stopped(); by != "" {
		return fmt.Errorf("stopped by %s", by)
	}
	for _, r := range results {
		if r.badInput != nil {
			return &usageError{r.badInput} // the command line named what the server does not have
		}
	}
	if errs > 0 {
		return fmt.Errorf("%d situation(s) could not run to their end (see above)", errs)
	}
	return nil
}
