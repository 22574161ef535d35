// Command mcplab simulates and judges MCP reliability: it builds and
// serves the lab's site, runs, reviews and explores scenarios, and drives
// real servers and clients (probe, proxy, mock, probe-client). `mcplab
// help` lists the verbs; the verbs live in package site.
package main

import (
	"os"

	"github.com/mcplab/mcplab/site"
)

func main() {
	os.Exit(site.Main(os.Args[1:], os.Stdout, os.Stderr))
}
