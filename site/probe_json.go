package site

// `probe -json`: the verdicts as one JSON object on standard output, the
// shape SCENARIO.md ("Live") gives the live verbs: {"peer": {...},
// "situations": [{"name", "transport", "protocol", "verdict", "checks":
// [{"rule", "ok", "detail"}], "transcript"}]}.

import (
	"encoding/json"
	"io"
	"strings"
)

// probeJSON is the object -json prints.
type probeJSON struct {
	Peer       peerJSON        `json:"peer"`
	Situations []situationJSON `json:"situations"`
}

// peerJSON is the server probed: its command (stdio) or URL, the name and
// version it gave, and the revision spoken ("" when no handshake
// succeeded).
type peerJSON struct {
	Command  []string `json:"command,omitempty"`
	URL      string   `json:"url,omitempty"`
	Server   string   `json:"server,omitempty"`
	Protocol string   `json:"protocol,omitempty"`
}

// situationJSON is one situation: verdict "pass", "fail", "undecided",
// "error" or "skipped"; facts are the line's phrases; ok is null for an
// undecided check.
type situationJSON struct {
	Name       string      `json:"name"`
	Transport  string      `json:"transport"`
	Protocol   string      `json:"protocol,omitempty"`
	Verdict    string      `json:"verdict"`
	Facts      []string    `json:"facts,omitempty"`
	Checks     []checkJSON `json:"checks"`
	Transcript string      `json:"transcript,omitempty"`
}

type checkJSON struct {
	Rule   string `json:"rule"`
	OK     *bool  `json:"ok"`
	Detail string `json:"detail"`
}

// writeJSON prints results as probeJSON, indented.
func (p *prober) writeJSON(w io.Writer, results []sitResult) error {
	out := probeJSON{Peer: peerJSON{Command: p.argv, URL: p.url, Server: p.server, Protocol: p.spoken}, Situations: []situationJSON{}}
	for _, r := range results {
		sj := situationJSON{Name: r.name, Transport: p.transport(), Protocol: r.header.Protocol, Verdict: strings.ToLower(r.verdict), Facts: r.facts, Checks: []checkJSON{}, Transcript: r.file}
		for _, c := range r.checks {
			sj.Checks = append(sj.Checks, checkJSON{string(c.Rule), c.OK, c.Detail})
		}
		out.Situations = append(out.Situations, sj)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
