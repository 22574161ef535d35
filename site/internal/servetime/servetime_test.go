package main

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// The serving line is recognised in the form site/serve.go prints it once
// it listens, and its URL is returned; build progress and look-alikes are
// not taken for it (the clock would stop before the server listens).
func TestServingURLReadsServesLine(t *testing.T) {
	for _, tc := range []struct{ line, url string }{
		{"serving dist at http://127.0.0.1:41234/\n", "http://127.0.0.1:41234/"},
		{"serving /tmp/x y/dist at http://localhost:8080/", "http://localhost:8080/"},
		{"serving dist at http://[::1]:9000/\r\n", "http://[::1]:9000/"},
	} {
		if got, ok := servingURL(tc.line); !ok || got != tc.url {
			t.Errorf("servingURL(%q) = %q, %v; want %q, true", tc.line, got, ok, tc.url)
		}
	}
	for _, l := range []string{
		"build: written    4.1 s  212 files in dist, 212 changed; their .br and .gz copies follow\n",
		"serving dist\n",
		"serving dist at :8080\n",
		"serving dist at https://127.0.0.1:1/\n",
		"serving dist at http://127.0.0.1/\n",
		"  serving dist at http://127.0.0.1:1/\n",
	} {
		if got, ok := servingURL(l); ok {
			t.Errorf("servingURL(%q) = %q, true; want false", l, got)
		}
	}
}

// serve's source still prints the line servingURL reads; if serve's words
// change, this fails here instead of servetime waiting for its timeout.
func TestServePrintsTheLineServingURLReads(t *testing.T) {
	src, err := os.ReadFile("../../serve.go")
	if err != nil {
		t.Fatal(err)
	}
	const format = `fmt.Fprintf(stdout, "serving %s at http://%s/\n", *dir, net.JoinHostPort(host, port))`
	if !strings.Contains(string(src), format) {
		t.Fatalf("site/serve.go no longer contains %s", format)
	}
	if _, ok := servingURL("serving dist at http://" + "127.0.0.1:35001" + "/\n"); !ok {
		t.Fatal("the line that format prints for -addr 127.0.0.1:0 is not recognised")
	}
}

// The budget lines carry the seconds to the tenth, the budget and
// the verdict; "under 90 s" makes 90.0 s itself over budget.
func TestBudgetLineVerdicts(t *testing.T) {
	got := budgetLine("make serve from a clean clone", 41240*time.Millisecond, cleanBudget, "load average 1.20 1.91 2.68")
	want := "  serve   make serve from a clean clone                until it listens =  41.2 s  (budget < 90 s)  ok  [load average 1.20 1.91 2.68]"
	if got != want {
		t.Errorf("clean clone line:\n got %q\nwant %q", got, want)
	}
	got = budgetLine("make serve again, nothing changed", 12300*time.Millisecond, unchangedBudget, "x")
	want = "  serve   make serve again, nothing changed            until it listens =  12.3 s  (budget < 10 s)  OVER BUDGET  [x]"
	if got != want {
		t.Errorf("nothing changed line:\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(budgetLine("b", cleanBudget, cleanBudget, ""), "OVER BUDGET") {
		t.Error("exactly 90 s is not under 90 s, want OVER BUDGET")
	}
	if !strings.Contains(budgetLine("b", 9999*time.Millisecond, unchangedBudget, ""), " ok ") {
		t.Error("9.999 s is under 10 s, want ok")
	}
}

// proc(5): state and process group follow the command name, which may
// hold spaces and parentheses of its own.
func TestProcStatFields(t *testing.T) {
	state, pgrp, ok := procStat("4242 (go (run) ./site) S 4100 4242 4100 34816 4242 4194560 1 0")
	if !ok || state != "S" || pgrp != 4242 {
		t.Errorf("procStat = %q, %d, %v; want S, 4242, true", state, pgrp, ok)
	}
	state, pgrp, ok = procStat("77 (mcplab) Z 1 4242 4100")
	if !ok || state != "Z" || pgrp != 4242 {
		t.Errorf("procStat of a zombie = %q, %d, %v; want Z, 4242, true", state, pgrp, ok)
	}
	if _, _, ok := procStat("77 mcplab S 1"); ok {
		t.Error("a line without the parenthesized name was read")
	}
}

// The children never see PORT (serve would listen on it instead of -addr's
// free port) and get the caches servetime names, once each.
func TestChildEnvDropsPortAndSetsCaches(t *testing.T) {
	got := childEnv([]string{"HOME=/root", "PORT=8080", "GOCACHE=/elsewhere", "PATH=/bin"}, "GOCACHE=/root/.cache/go-build", "GOTMPDIR=/tmp/x")
	want := []string{"HOME=/root", "PATH=/bin", "GOCACHE=/root/.cache/go-build", "GOTMPDIR=/tmp/x"}
	if !slices.Equal(got, want) {
		t.Errorf("childEnv = %q, want %q", got, want)
	}
}
