package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// the performance budgets on `make serve`, wall clock from the start of its
// first step (templ generate) until the server listens.
const (
	// cleanBudget bounds `make serve` in a fresh clone with an empty
	// mcplab build cache and Go's caches warm: 90 s on the 2-core
	// development machine.
	cleanBudget = 90 * time.Second
	// unchangedBudget bounds `make serve` again with nothing changed:
	// 10 s.
	unchangedBudget = 10 * time.Second
)

// servingURL reads one line of `mcplab serve` output and, when it is the
// line serve prints once it listens ("serving DIR at http://HOST:PORT/",
// site/serve.go cmdServe), returns the URL it names. Any other line, or a
// serving line whose URL is not an absolute http URL with a port, gives
// ok false.
func servingURL(line string) (u string, ok bool) {
	line = strings.TrimRight(line, "\r\n")
	rest, found := strings.CutPrefix(line, "serving ")
	if !found {
		return "", false
	}
	i := strings.LastIndex(rest, " at ")
	if i < 0 {
		return "", false
	}
	u = rest[i+len(" at "):]
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "http" || p.Port() == "" || p.Hostname() == "" {
		return "", false
	}
	return u, true
}

// budgetLine is one budget line of `make bench`, in the columns of the
// other budget lines there (the Makefile's BENCH_BUDGETS and
// site/internal/wasmratio): what was measured, the seconds to the tenth,
// the budget, "ok" or "OVER BUDGET" (over means at or above the budget: the
// issue says "under"), and the load average as the measurement began plus
// anything else in detail.
func budgetLine(what string, took, budget time.Duration, detail string) string {
	verdict := "ok"
	if took >= budget {
		verdict = "OVER BUDGET"
	}
	return fmt.Sprintf("  serve   %-44s until it listens = %5.1f s  (budget < %d s)  %s  [%s]",
		what, took.Seconds(), int(budget/time.Second), verdict, detail)
}

// procStat reads the fields of a /proc/PID/stat line that say whether the
// process still runs in a process group: its state letter ("R", "S", "Z"
// for a zombie that has exited but is not yet reaped, ...) and its process
// group id (proc(5): the fields after the parenthesized command name,
// which may itself hold spaces and parentheses, are state, ppid, pgrp).
func procStat(line string) (state string, pgrp int, ok bool) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return "", 0, false
	}
	f := strings.Fields(line[i+1:])
	if len(f) < 3 {
		return "", 0, false
	}
	pgrp, err := strconv.Atoi(f[2])
	if err != nil {
		return "", 0, false
	}
	return f[0], pgrp, true
}

// childEnv is env without any PORT entry (serve's port would follow it
// instead of -addr, site/serve.go) and without the entries set replaces,
// followed by set.
func childEnv(env []string, set ...string) []string {
	drop := map[string]bool{"PORT": true}
	for _, kv := range set {
		k, _, _ := strings.Cut(kv, "=")
		drop[k] = true
	}
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}
