package templates

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Playground is what PlaygroundPage draws: the editor opened on a default
// scenario (prerendered, so the page reads without JavaScript), the list of
// built-in scenarios to start from, and the simulator binary.
type Playground struct {
	// Root is the relative path to the site root ("../").
	Root string
	// Scenario is the editor's first content, as authored; Trace its run.
	Scenario json.RawMessage
	Trace    *trace.Trace
	// Examples are the built-in scenarios to start from.
	Examples []PlaygroundExample
}

// PlaygroundExample is one built-in scenario in the playground's list.
type PlaygroundExample struct {
	Name, Title, Summary string
	// Ledger is true when the scenario uses the SQLite ledger: its link
	// asks for ledger.wasm (?ledger=1), which playground.wasm does not include.
	Ledger bool
	// Group is the index section the scenario sits in (IndexEntry.Group:
	// "cancel", "idempotency", "flow", "recovery" or "broken"); the
	// picker groups the examples as the index does.
	Group string
	// Page is the scenario's own page relative to the site root
	// ("s/NAME/"), for reading it without JavaScript; "" for none.
	Page string
}

// pickSection is one <optgroup> of the playground's picker: an index
// section's title and its examples, in the index's order.
type pickSection struct {
	ID, Title string
	Examples  []PlaygroundExample
}

// pickSections groups the examples into the index's sections, in the
// index's order (groupEntries: sections in the README's order, lettered
// lessons and the flagship first in each, else the given order).
func pickSections(exs []PlaygroundExample) []pickSection {
	entries := make([]IndexEntry, len(exs))
	byName := make(map[string]PlaygroundExample, len(exs))
	for i, e := range exs {
		entries[i] = IndexEntry{Name: e.Name, Title: e.Title, group: e.Group}
		byName[e.Name] = e
	}
	var out []pickSection
	for _, sec := range groupEntries(entries) {
		ps := pickSection{ID: sec.ID, Title: sec.Title}
		for _, e := range sec.Entries {
			ps.Examples = append(ps.Examples, byName[e.Name])
		}
		out = append(out, ps)
	}
	return out
}

// Href is the example's link from the playground: its fragment, after
// ?ledger=1 when it needs the SQLite build.
func (e PlaygroundExample) Href() string {
	if e.Ledger {
		return "?ledger=1#example=" + e.Name
	}
	return "#example=" + e.Name
}

// EditorError is an invalid scenario as the playground shows it: the
// message and, when the error names a place, where it is in the editor's
// text.
type EditorError struct {
	// Message is the error as the engine says it ("steps[3].at: must be >= 0").
	Message string
	// Path is the scenario path the error names ("" for the whole document).
	Path string
	// Line and Col locate the place, 1-based (0 when unknown). For a path
	// that names a missing member, the place is its nearest ancestor that
	// exists.
	Line, Col int
	// Start and End delimit the place as UTF-16 offsets into the text
	// (what a textarea's setSelectionRange takes); End == Start when
	// unknown.
	Start, End int
}

// Where says where the error is in words, e.g. "line 12, column 7", or ""
// when unknown.
func (e EditorError) Where() string {
	if e.Line == 0 {
		return ""
	}
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Col)
}

// LocateError places a scenario error in the editor's text data by the
// place scenario.Decode records on its *scenario.Error (Offset, End, Line,
// Column: the value the path names, its nearest existing ancestor, or the
// byte where the syntax breaks); an error with a path but no place (from
// scenario.Edit, which knows no text) is placed by scenario.Locate. Any
// other error is returned with its message only. templates reads the
// place; it parses neither the message nor the JSON.
func LocateError(data []byte, err error) EditorError {
	e := EditorError{Message: err.Error()}
	var se *scenario.Error
	if !errors.As(err, &se) {
		return e
	}
	e.Path = se.Path
	off, end, line, col := se.Offset, se.End, se.Line, se.Column
	if line == 0 && se.Path != "" {
		loc, ok := scenario.Locate(data, se.Path)
		if !ok {
			return e
		}
		off, end, line, col = loc.Offset, loc.End, loc.Line, loc.Column
	}
	if line == 0 {
		return e
	}
	off, end = min(max(off, 0), len(data)), min(max(end, off), len(data))
	e.Line, e.Col = line, col
	e.Start, e.End = utf16Offset(data, off), utf16Offset(data, end)
	return e
}

// utf16Offset converts a byte offset of UTF-8 text into the UTF-16 offset a
// browser's text APIs use.
func utf16Offset(data []byte, off int) int {
	n := 0
	for i := 0; i < off && i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if l := utf16.RuneLen(r); l > 0 {
			n += l
		} else {
			n++
		}
		i += size
	}
	return n
}

// Embed is the snippets that put a page into a lesson as an iframe.
type Embed struct {
	HTML string // a plain HTML <iframe>
	MDX  string // the same as JSX (MDX), with camelCase attributes
	MyST string // a MyST {iframe} directive
}

// EmbedHeight is the iframe's first height in CSS pixels, before the page
// reports its own (HostSnippet resizes it).
const EmbedHeight = 720

// EmbedReferrerPolicy is the iframe's referrer policy in the snippets:
// the framed page learns its parent's origin (never its path), which is
// where it posts its height (site/static/app.js) instead of "*".
const EmbedReferrerPolicy = "strict-origin"

// NewEmbed returns the snippets for src (the page's URL with ?embed=1) and
// its title. Everything copied is escaped for its syntax: HTML attribute
// escaping; JSON strings in JSX (which escape <, > and &); for MyST, the
// URL with spaces and control characters percent-encoded and the title
// as one line of Markdown text with every ASCII punctuation character
// backslash-escaped (CommonMark 2.4), so neither markup, an option line
// nor a ":::" fence can come out of a title.
func NewEmbed(src, title string) Embed {
	if title == "" {
		title = "mcplab scenario"
	}
	h := strconv.Itoa(EmbedHeight)
	jsxTitle, _ := json.Marshal(title)
	jsxSrc, _ := json.Marshal(src)
	oneLine := strings.Join(strings.Fields(title), " ")
	return Embed{
		HTML: `<iframe src="` + html.EscapeString(src) + `" title="` + html.EscapeString(title) + `" width="100%" height="` + h +
			`" loading="lazy" referrerpolicy="` + EmbedReferrerPolicy + `" data-mcplab style="border:0"></iframe>`,
		MDX: `<iframe src={` + string(jsxSrc) + `} title={` + string(jsxTitle) + `} width="100%" height={` + h +
			`} loading="lazy" referrerPolicy="` + EmbedReferrerPolicy + `" data-mcplab="" style={{border: 0}} />`,
		MyST: ":::{iframe} " + mystURL(src) + "\n:width: 100%\n" + mystText(oneLine) + "\n:::",
	}
}

// embedSrc stands for the page's own address in the embed snippet a page
// without the simulator carries (embedTemplate): site/static/share.js
// replaces it, HTML-escaped, when "Copy embed" is pressed, since only the
// browser knows where the site is served.
const embedSrc = "{src}"

// embedTemplate is NewEmbed's HTML snippet for title with the address left
// as embedSrc, which html.EscapeString leaves as it is.
func embedTemplate(title string) string { return NewEmbed(embedSrc, title).HTML }

// mystURL percent-encodes the bytes of u that would end or split a MyST
// directive argument: ASCII controls (a newline among them), space and DEL.
func mystURL(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		if c := u[i]; c <= ' ' || c == 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(u[i])
	}
	return b.String()
}

// mystText escapes s as Markdown text: a backslash before every ASCII
// punctuation character, which CommonMark then reads as that character.
func mystText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// OEmbed is an oEmbed 1.0 response of type "rich" (oembed.com, section
// 2.3.4): what a consumer such as a course platform or a chat needs to embed
// a page from its URL alone. Width and height are CSS pixels; the iframe in
// HTML is 100% wide and resizes itself where the host adds HostSnippet.
type OEmbed struct {
	Version      string `json:"version"`
	Type         string `json:"type"`
	Title        string `json:"title"`
	ProviderName string `json:"provider_name"`
	ProviderURL  string `json:"provider_url"`
	HTML         string `json:"html"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
}

// oEmbedWidth is the width an oEmbed response announces, in CSS pixels: the
// timeline's natural width.
const oEmbedWidth = 720

// NewOEmbed returns the oEmbed response of the page at pageURL (absolute,
// ending in "/"), titled title, on the site at siteURL (absolute, ending in
// "/"): its html is NewEmbed's iframe of pageURL+"?embed=1".
func NewOEmbed(siteURL, pageURL, title string) OEmbed {
	return OEmbed{
		Version: "1.0", Type: "rich", Title: title,
		ProviderName: "mcplab", ProviderURL: siteURL,
		HTML:  NewEmbed(pageURL+"?embed=1", title).HTML,
		Width: oEmbedWidth, Height: EmbedHeight,
	}
}

// HostSnippet is the script a lesson page adds once so that every mcplab
// iframe (data-mcplab) takes the height its page reports
// ({type: "mcplab:height", height}). HostOrigin stands for the lab's
// origin: the playground shows it filled in (HostSnippetFor of its own
// location.origin), the page without JavaScript and the README as is.
const HostSnippet = `<script>
// mcplab: size each lab iframe to its content (no library needed).
addEventListener("message", (e) => {
  if (e.origin !== "` + HostOrigin + `" || !e.data || e.data.type !== "mcplab:height") return;
  for (const f of document.querySelectorAll("iframe[data-mcplab]"))
    if (f.contentWindow === e.source) f.style.height = Math.ceil(e.data.height) + "px";
});
</script>`

// HostOrigin is HostSnippet's placeholder for the lab's origin, as the
// README writes it.
const HostOrigin = "https://YOUR-MCPLAB-HOST"

// HostSnippetFor is HostSnippet with the lab's origin filled in.
func HostSnippetFor(origin string) string {
	return strings.Replace(HostSnippet, HostOrigin, origin, 1)
}

// maxIndentDepth is how deep IndentScenario breaks lines: containers
// nested at most 8 deep are laid out one member per line, indented two
// spaces a level; anything deeper (a payload's inner objects) is written
// compact on its line. A scenario's own structure is 3 deep (document,
// steps, step) and a result's content 6, so the built-in scenarios indent
// as json.Indent does; an adversarial document nested thousands deep costs
// at most 8 levels of indentation per line, not one per level.
const maxIndentDepth = 8

// IndentScenario lays out a scenario document for the editor, indented by
// two spaces down to maxIndentDepth, in one pass over the text: its output
// is at most about 17 bytes per input byte however deep the document
// (json.Indent writes one indent per level on every line, quadratic in
// depth). Text that is not JSON is returned as it is, for the editor to
// show with its error.
func IndentScenario(data []byte) string {
	if !json.Valid(data) {
		return string(data)
	}
	i := 0
	for i < len(data) && isJSONSpace(data[i]) {
		i++ // leading space is dropped, as json.Indent does
	}
	end := len(data)
	for end > i && isJSONSpace(data[end-1]) {
		end-- // trailing space is kept, as json.Indent does
	}
	out, _ := jsonrpc.AppendIndent(make([]byte, 0, len(data)+len(data)/2), data[i:end], 0, maxIndentDepth, math.MaxInt)
	return string(append(out, data[end:]...))
}

// isJSONSpace reports whether c is insignificant whitespace in JSON.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// playgroundPage is PlaygroundPage's view model.
type playgroundPage struct {
	Playground
	Title    string
	Controls []controlGroup
	Output   templ.Component
	// Sections are the built-in examples grouped as on the index, for the
	// picker at the top (#pg-pick).
	Sections []pickSection
}

// importResult is ImportResult's view model.
type importResult struct {
	Trace      *trace.Trace
	Source     string
	Violations []violation
	Output     templ.Component
	// Inferred lists what the import inferred or was given, each with the
	// page's field that sets it (#imp-inferred).
	Inferred []inferredRow
}
