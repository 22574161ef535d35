// Package notes is the lab's design notes as the code cites them: the
// numbered sections of docs/domain.md (DomainSections), the fragment
// GitHub gives a heading (Anchor), and the splitter that finds each
// citation of the notes in a text and the file and heading it opens
// (Citations). docs/rules.md's links (rulebook.MarkdownCitations), the
// site's rule pages and its pages of docs/ share it, so a citation opens
// the same heading wherever it is read.
//
// It sits apart from package rulebook, which runs the built-ins and
// judges them with the schema check, so that templates, which every
// WebAssembly binary links, can draw a rule's citations as links without
// linking the runner's reference or the official schemas. Pure: no I/O,
// deterministic.
package notes

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/mcplab/mcplab/engine/checks"
)

// Section is one numbered section of docs/domain.md, the lab's domain
// notes: its number (the N of "§N"), its heading's text after "N. ", and
// the titles of the subsections that code and rules cite by name.
type Section struct {
	N           int
	Title       string
	Subsections []string
}

// DomainSections are the numbered sections of docs/domain.md, §1 to §12,
// in order (DomainSections[i].N is i+1). Code comments cite them as
// "DOMAIN.md §N", rule sources as checks.DomainNotes+" §N"; a test keeps
// this table equal to the headings of docs/domain.md.
var DomainSections = []Section{
	{1, "Request cancellation, per transport", []string{"The server's side of a cancellation", "The race: both orders are valid", "The two protocol eras"}},
	{2, "Timeouts need two clocks", nil},
	{3, "Progress", nil},
	{4, "Idempotency: a new JSON-RPC id is not deduplication", []string{"Practice lab: `reserve_inventory`"}},
	{5, "Retry classes", nil},
	{6, "Durable tasks are not requests", nil},
	{7, "Backpressure: a bounded SSE buffer", nil},
	{8, "Proxies and keep-alive", nil},
	{9, "Reconnect means refetch", nil},
	{10, "Preventing a reconnect herd", nil},
	{11, "Failure modes the lab shows", nil},
	{12, "Statements the lab proves", nil},
}

// DomainSection returns section n of docs/domain.md, ok false for a
// number the notes do not have.
func DomainSection(n int) (Section, bool) {
	if n < 1 || n > len(DomainSections) {
		return Section{}, false
	}
	return DomainSections[n-1], true
}

// Heading is the Markdown heading text of section s: "N. Title".
func (s Section) Heading() string { return strconv.Itoa(s.N) + ". " + s.Title }

// Heading is one ATX heading of a Markdown document: its level (the
// number of "#"), its text, and the fragment GitHub links it by.
type Heading struct {
	Level  int
	Text   string
	Anchor string // Anchor(Text), and "-1", "-2", … on a repeat, as GitHub numbers it
}

// Headings returns the ATX headings of the Markdown text md in order,
// leaving out lines inside fenced code ("```"), each with the anchor
// GitHub gives it. The docs' tests hold docs/ and the site's pages of it
// to these anchors. Cost: O(len(md)).
func Headings(md string) []Heading {
	var out []Heading
	seen := map[string]int{}
	fence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		h := Heading{Level: len(line) - len(text), Text: strings.TrimSpace(text)}
		a := Anchor(h.Text)
		h.Anchor = a
		if n := seen[a]; n > 0 {
			h.Anchor = a + "-" + strconv.Itoa(n)
		}
		seen[a]++
		out = append(out, h)
	}
	return out
}

// Anchor is the fragment GitHub gives a Markdown heading with text h:
// lower case, letters, digits, "-" and "_" kept, spaces turned into "-",
// everything else dropped ("1. Request cancellation, per transport" →
// "1-request-cancellation-per-transport").
func Anchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// subsectionOf finds a cited subsection title at the start of rest
// (quoted or not) among the subsections of section n, or of every
// section when n is 0. It returns the title, the length of rest it
// spans, and ok false when rest starts with none.
func subsectionOf(n int, rest string) (title string, size int, ok bool) {
	quoted := strings.HasPrefix(rest, `"`)
	body := strings.TrimPrefix(rest, `"`)
	for _, s := range DomainSections {
		if n != 0 && s.N != n {
			continue
		}
		for _, sub := range s.Subsections {
			plain := strings.ReplaceAll(sub, "`", "")
			for _, t := range []string{sub, plain} {
				if !strings.HasPrefix(body, t) {
					continue
				}
				size = len(t)
				if quoted {
					if !strings.HasPrefix(body[len(t):], `"`) {
						continue
					}
					size += 2
				}
				return sub, size, true
			}
		}
	}
	return "", 0, false
}

// domainCitation parses a citation of the domain notes at the start of
// s, just after the file's name ("docs/domain.md" or "DOMAIN.md"): an
// optional " §N" or " §N–M", then an optional ", Subsection" naming one
// of DomainSections' subsections (quoted or not). It returns the anchor
// the citation links, the length of s it spans, and ok false for a
// section number the notes do not have.
func domainCitation(s string) (anchor string, size int, ok bool) {
	n := 0
	if rest, found := strings.CutPrefix(s, " §"); found {
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if digits == 0 {
			return "", 0, false
		}
		n, _ = strconv.Atoi(rest[:digits])
		sec, known := DomainSection(n)
		if !known {
			return "", 0, false
		}
		anchor, size = Anchor(sec.Heading()), len(" §")+digits
		if more, ranged := strings.CutPrefix(s[size:], "–"); ranged {
			if d := len(more) - len(strings.TrimLeft(more, "0123456789")); d > 0 {
				size += len("–") + d
			}
		}
	}
	if rest, found := strings.CutPrefix(s[size:], ", "); found {
		if sub, k, isSub := subsectionOf(n, rest); isSub {
			return Anchor(sub), size + len(", ") + k, true
		}
	}
	return anchor, size, true
}

// notesFiles are the names under which text cites the lab's design notes,
// each with the file of docs/ it resolves to.
var notesFiles = []struct{ cited, file string }{
	{checks.DomainNotes, "domain.md"},
	{"DOMAIN.md", "domain.md"},
	{"SCENARIO.md", "scenario.md"},
	{"ARCHITECTURE.md", "architecture.md"},
}

// Cite is one run of text as Citations splits it: plain text when File
// is "", else one citation of the design notes.
type Cite struct {
	// Text is the run as s writes it ("docs/domain.md §1, The two
	// protocol eras").
	Text string
	// Label names the citation as docs/ holds its file ("domain.md §1,
	// The two protocol eras"); "" for plain text.
	Label string
	// File is the file of docs/ the citation opens ("domain.md"); "" for
	// plain text.
	File string
	// Anchor is the fragment of the heading in File the citation links
	// (Anchor of a section's or subsection's heading); "" for the whole
	// file or plain text.
	Anchor string
}

// Citations splits s at its citations of the design notes:
// "docs/domain.md §N" and "DOMAIN.md §N" (with an optional "–M" and an
// optional ", Subsection", quoted or not) cite their section of domain.md,
// "SCENARIO.md" cites scenario.md and "ARCHITECTURE.md" architecture.md.
// A citation of a section the notes do not have stays plain text (the
// rulebook's test fails on one). The runs' Texts joined are s; text
// without a citation is one plain run. Cost: O(len(s) × subsections).
func Citations(s string) []Cite {
	var out []Cite
	plain := 0 // start of the plain text not yet emitted
	for i := 0; i < len(s); i++ {
		c, ok := citationAt(s[i:])
		if !ok {
			continue
		}
		if i > plain {
			out = append(out, Cite{Text: s[plain:i]})
		}
		out = append(out, c)
		plain = i + len(c.Text)
		i = plain - 1
	}
	if plain < len(s) || len(out) == 0 {
		out = append(out, Cite{Text: s[plain:]})
	}
	return out
}

// citationAt parses a citation of the design notes at the start of s.
func citationAt(s string) (Cite, bool) {
	for _, f := range notesFiles {
		if !strings.HasPrefix(s, f.cited) {
			continue
		}
		rest := s[len(f.cited):]
		c := Cite{File: f.file}
		size := 0
		if f.file == "domain.md" {
			anchor, n, ok := domainCitation(rest)
			if !ok {
				continue
			}
			c.Anchor, size = anchor, n
		}
		c.Text, c.Label = s[:len(f.cited)+size], f.file+rest[:size]
		return c, true
	}
	return Cite{}, false
}
