package probe

// What a probe leaves besides its lines: the transcripts' index
// (probe.json), what its report says to the command's exit status, and
// the signals that stop it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/mcplab/mcplab/site/internal/live"
)

// SignalContext is parent ended by the first of the probe's signals
// (SIGINT, SIGTERM, SIGHUP; os.Interrupt where there are no others), with
// the signal's name ("SIGTERM") as its cause, so that Run stops as its
// limits stop it and Report.Stopped names the signal. It says so on
// stderr (http: the session is closed; else the server's process group is
// killed). A second signal has its default effect: it kills the process.
// stop stops watching.
func SignalContext(parent context.Context, stderr io.Writer, http bool) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, live.Signals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			if http {
				fmt.Fprintf(stderr, "probe: %s: stopping (the session is closed)\n", signalName(s))
			} else {
				fmt.Fprintf(stderr, "probe: %s: stopping (the server's process group is killed)\n", signalName(s))
			}
			cancel(errors.New(signalName(s)))
		case <-done:
		}
	}()
	return ctx, func() { signal.Stop(sigs); close(done); cancel(nil) }
}

// writeIndex writes probe.json (every transcript's header) in dir and
// says on stdout where the transcripts are; wrote reports whether any was.
func writeIndex(dir string, results []Result, stdout io.Writer) (wrote bool, err error) {
	var heads []TranscriptHeader
	for _, r := range results {
		if r.File != "" {
			heads = append(heads, r.Header)
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

// Failed names each situation whose verdict is FAIL with the rules that
// failed it ("cancel-at-once (no-message-after-cancel)"), the probe's own
// observations named as Result.Own names them: what -checks reports.
func (r *Report) Failed() []string {
	var failed []string
	for _, s := range r.Situations {
		if s.Verdict != "FAIL" {
			continue
		}
		var rules []string
		for _, c := range s.Checks {
			if c.OK != nil && !*c.OK {
				rules = append(rules, string(c.Rule))
			}
		}
		rules = append(rules, s.Own...)
		if len(rules) == 0 {
			rules = append(rules, "the probe's own observation")
		}
		failed = append(failed, s.Name+" ("+strings.Join(rules, ", ")+")")
	}
	return failed
}

// BadInput is the first situation's Result.BadInput: an option the server
// contradicts (an *InputError, or the arguments a tool requires), nil
// when none did.
func (r *Report) BadInput() error {
	for _, s := range r.Situations {
		if s.BadInput != nil {
			return s.BadInput
		}
	}
	return nil
}

// Broke counts the situations that could not run to their end (no
// answer, the server died or was never reached).
func (r *Report) Broke() int {
	n := 0
	for _, s := range r.Situations {
		if s.Broke {
			n++
		}
	}
	return n
}
