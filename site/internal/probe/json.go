package probe

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
	Peer       Peer            `json:"peer"`
	Situations []situationJSON `json:"situations"`
}

// Peer is the server probed: its command (stdio) or URL, the name and
// version it gave, and the revision spoken ("" when no handshake
// succeeded).
type Peer struct {
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

// checkJSON is one rule's verdict: ok null when undecided.
type checkJSON struct {
	Rule   string `json:"rule"`
	OK     *bool  `json:"ok"`
	Detail string `json:"detail"`
}

// WriteJSON prints the report as one JSON object, indented (-json): the
// peer, then each situation's verdict (lower case), facts, checks and
// transcript.
func (rep *Report) WriteJSON(w io.Writer) error {
	out := probeJSON{Peer: rep.Peer, Situations: []situationJSON{}}
	for _, r := range rep.Situations {
		sj := situationJSON{Name: r.Name, Transport: rep.Transport, Protocol: r.Header.Protocol, Verdict: strings.ToLower(r.Verdict), Facts: r.Facts, Checks: []checkJSON{}, Transcript: r.File}
		for _, c := range r.Checks {
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
