// Command servetime measures the two performance budgets on `make serve` for
// `make bench` (and `make bench-serve` alone): the wall-clock time from
// its start until the server listens,
//
//   - from a clean clone, under 90 s on the 2-core development machine:
//     a `git clone` of the checkout's HEAD commit (committed work only) in
//     a temporary directory, an empty mcplab build cache, Go's module and
//     build caches as this machine has them (GOCACHE, GOMODCACHE from `go
//     env`), so the dependencies are compiled but the repository's own
//     packages are compiled again for the new directory (README.md, "Build
//     cache");
//   - with nothing changed, under 10 s: `make serve` again in that clone
//     after a `make site` there that waited for every .br and .gz copy, so
//     dist/ and the build cache hold everything the commit builds to. The
//     first run is stopped once it listens, before its copies are done
//     (they follow in the background), so without that complete build the
//     second run would find copies missing and the figure would not be
//     "nothing changed". That build is not measured.
//
// Each run does what the Makefile's serve target does, `go tool templ
// generate -log-level warn`, then `go run ./site/cmd/mcplab serve -build -dir dist`,
// with -cache naming the temporary cache and -addr 127.0.0.1:0 (a free
// port; PORT is removed from the environment, since serve lets it
// override -addr's port). The clock starts before templ generate and
// stops when serve prints "serving dist at http://…/" (it prints that once
// it listens); an HTTP GET of that address must then answer 200, outside
// the measured time. The run's process group (`go run` and the server it
// starts) is then stopped, SIGINT first and SIGKILL 5 s later, and
// servetime waits until no process of the group runs and nothing holds
// the output pipe, so no copy is still being compressed while the next
// step is measured.
//
// It prints the child processes' lines to standard error as they come,
// prefixed with the step and its elapsed time, and on standard output one
// budget line per run in the columns of `make bench`'s other budget lines,
// with the load average as the run began; "OVER BUDGET" marks a run at or
// over its budget (the exit status stays 0: an over-budget figure is a
// measurement, not a failure). A step that fails, or takes longer than
// -timeout (15 minutes each by default), is an error (exit status 1). The
// temporary directory (clone, cache, GOTMPDIR of the runs) is removed at
// the end, also after an error or an interrupt (SIGINT, SIGTERM).
//
// Usage (from inside the repository): go run ./site/internal/servetime
// [-timeout 15m]
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mcplab/mcplab/site/internal/loadavg"
)

// grace is how long a stopped run's processes get after SIGINT before
// SIGKILL.
const grace = 5 * time.Second

func main() {
	timeout := flag.Duration("timeout", 15*time.Minute, "longest wait for each step (clone, templ generate, serve until it listens, the complete build)")
	flag.Parse()
	if flag.NArg() != 0 || *timeout <= 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./site/internal/servetime [-timeout 15m]")
		os.Exit(2)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Stdout, os.Stderr, *timeout)
	cancel()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			err = errors.New("interrupted; the clone and its cache are removed")
		}
		fmt.Fprintln(os.Stderr, "servetime:", err)
		os.Exit(1)
	}
}

// run clones, measures both runs and prints their budget lines on w,
// progress on progress.
func run(ctx context.Context, w, progress io.Writer, timeout time.Duration) error {
	top, err := output(ctx, "", "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	head, err := output(ctx, top, "git", "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	gocache, err := output(ctx, "", "go", "env", "GOCACHE")
	if err != nil {
		return err
	}
	gomodcache, err := output(ctx, "", "go", "env", "GOMODCACHE")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mcplab-servetime-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	clone, cache, gotmp := filepath.Join(tmp, "clone"), filepath.Join(tmp, "cache"), filepath.Join(tmp, "gotmp")
	for _, d := range []string{cache, gotmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	env := childEnv(os.Environ(), "GOCACHE="+gocache, "GOMODCACHE="+gomodcache, "GOTMPDIR="+gotmp)

	fmt.Fprintf(progress, "servetime: git clone of %s (HEAD %.12s) into %s; GOCACHE %s, GOMODCACHE %s\n", top, head, clone, gocache, gomodcache)
	if _, err := output(ctx, "", "git", "clone", "-q", "--no-checkout", top, clone); err != nil {
		return err
	}
	if _, err := output(ctx, clone, "git", "checkout", "-q", "--detach", head); err != nil {
		return err
	}

	s := &steps{ctx: ctx, dir: clone, env: env, progress: progress, timeout: timeout, grace: grace}
	serve := []string{"go", "run", "./site/cmd/mcplab", "serve", "-build", "-dir", "dist", "-addr", "127.0.0.1:0", "-cache", cache}

	cleanLoad := loadavg.Read()
	clean, err := s.timeServe("clean clone", serve)
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "servetime: completing the .br and .gz copies (go run ./site/cmd/mcplab build -out dist -cache DIR, as make site; not measured)\n")
	if err := s.wait("complete build", "go", "run", "./site/cmd/mcplab", "build", "-out", "dist", "-cache", cache); err != nil {
		return err
	}
	againLoad := loadavg.Read()
	again, err := s.timeServe("nothing changed", serve)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, budgetLine("make serve from a clean clone", clean.total, cleanBudget,
		fmt.Sprintf("load average %s; templ generate %.1f s", cleanLoad, clean.templ.Seconds())))
	fmt.Fprintln(w, budgetLine("make serve again, nothing changed", again.total, unchangedBudget,
		fmt.Sprintf("load average %s; templ generate %.1f s", againLoad, again.templ.Seconds())))
	return nil
}

// steps runs the child processes of one measurement in the clone.
type steps struct {
	ctx      context.Context
	dir      string   // the clone
	env      []string // the children's environment (childEnv)
	progress io.Writer
	timeout  time.Duration
	grace    time.Duration // SIGINT to SIGKILL when a run is stopped
}

// timing is one measured `make serve`: from its start until it listened,
// and the part of that spent in templ generate.
type timing struct {
	total, templ time.Duration
}

// timeServe runs `make serve`'s two steps, templ generate and the serve
// command args, and returns the time from the start until serve printed
// its serving line, after checking that the address answers and stopping
// the server's process group.
func (s *steps) timeServe(name string, args []string) (timing, error) {
	start := time.Now()
	if err := s.wait(name, "go", "tool", "templ", "generate", "-log-level", "warn"); err != nil {
		return timing{}, err
	}
	templ := time.Since(start)
	cmd, lines, err := s.start(name, start, args...)
	if err != nil {
		return timing{}, err
	}
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	for {
		select {
		case l, open := <-lines:
			if !open {
				err := stop(cmd, s.grace)
				return timing{}, errors.Join(fmt.Errorf("%s: %s exited without listening (its output is above)", name, strings.Join(args, " ")), err)
			}
			u, ok := servingURL(l.text)
			if !ok {
				continue
			}
			took := l.at.Sub(start)
			getErr := get(s.ctx, u)
			stopErr := s.finish(name, cmd, lines)
			if err := errors.Join(getErr, stopErr); err != nil {
				return timing{}, fmt.Errorf("%s: %w", name, err)
			}
			fmt.Fprintf(s.progress, "servetime: %s: listening %.1f s after the start (templ generate %.1f s); %s answered 200; stopped\n", name, took.Seconds(), templ.Seconds(), u)
			return timing{total: took, templ: templ}, nil
		case <-timer.C:
			return timing{}, errors.Join(fmt.Errorf("%s: not listening after %v", name, s.timeout), s.finish(name, cmd, lines))
		case <-s.ctx.Done():
			return timing{}, errors.Join(s.ctx.Err(), s.finish(name, cmd, lines))
		}
	}
}

// wait runs a step to its end (or the timeout, or the interrupt), its
// output shown as progress.
func (s *steps) wait(name string, args ...string) error {
	cmd, lines, err := s.start(name, time.Now(), args...)
	if err != nil {
		return err
	}
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	for {
		select {
		case _, open := <-lines:
			if open {
				continue
			}
			err := cmd.Wait()
			if err != nil {
				return fmt.Errorf("%s: %s: %w (its output is above)", name, strings.Join(args, " "), err)
			}
			return nil
		case <-timer.C:
			return errors.Join(fmt.Errorf("%s: %s took longer than %v", name, strings.Join(args, " "), s.timeout), s.finish(name, cmd, lines))
		case <-s.ctx.Done():
			return errors.Join(s.ctx.Err(), s.finish(name, cmd, lines))
		}
	}
}

// line is one line a child wrote and when servetime read it.
type line struct {
	text string
	at   time.Time
}

// start starts args in the clone as the leader of a process group, with
// its standard output and error on one pipe; each line is shown as
// progress (the step's name and the time since since) and sent on lines,
// which is closed once no process holds the pipe any more.
func (s *steps) start(name string, since time.Time, args ...string) (*exec.Cmd, <-chan line, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = s.dir
	cmd.Env = s.env
	cmd.Stdout, cmd.Stderr = pw, pw
	inGroup(cmd)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	lines := make(chan line, 1024)
	go func() {
		defer close(lines)
		defer pr.Close()
		r := bufio.NewReader(pr)
		for {
			text, err := r.ReadString('\n')
			if text != "" {
				at := time.Now()
				fmt.Fprintf(s.progress, "servetime: %s %5.1f s | %s\n", name, at.Sub(since).Seconds(), strings.TrimRight(text, "\r\n"))
				lines <- line{text, at}
			}
			if err != nil {
				return
			}
		}
	}()
	return cmd, lines, nil
}

// finish stops cmd's process group and waits until nothing holds its
// output pipe any more (every process that could still write a copy has
// exited), draining the lines meanwhile so no writer blocks; 10 s at most
// after the group is stopped.
func (s *steps) finish(name string, cmd *exec.Cmd, lines <-chan line) error {
	drained := make(chan struct{})
	go func() {
		for range lines {
		}
		close(drained)
	}()
	err := stop(cmd, s.grace)
	select {
	case <-drained:
		return err
	case <-time.After(10 * time.Second):
		return errors.Join(err, fmt.Errorf("%s: a process still holds the output pipe 10 s after the process group was stopped", name))
	}
}

// get asks u for its page and wants 200: serve's line said it listens,
// this proves it; 30 s at most.
func get(ctx context.Context, u string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s, want 200 OK", u, resp.Status)
	}
	return nil
}

// output runs name with args in dir ("" for the current directory) and
// returns its trimmed standard output; an error carries the command and
// its standard error.
func output(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}
