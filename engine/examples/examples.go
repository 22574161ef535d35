// Package examples holds the built-in scenarios: JSON files embedded in the
// binary that the site prerenders, the playground opens (#example=<name>)
// and the golden tests run. The file name without ".json" is the example's
// Name, a URL-safe slug.
//
// A page that only names built-in scenarios (a note linking s/<name>/)
// asks Names or IsBuiltin, which read a generated list (names.go) and not
// the files: a binary links the files only when it opens them (All, Get),
// as the playground and the site do.
package examples

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mcplab/mcplab/engine/scenario"
)

//go:embed *.json
var files embed.FS

// Example is one built-in scenario.
type Example struct {
	Name    string // URL-safe slug, e.g. "a-cancel-then-complete"
	Title   string // the scenario's title
	Summary string // the first sentence of the scenario's notes
	JSON    []byte // the scenario file, exactly as shipped
}

// All returns every built-in scenario sorted by Name. The files are part of
// the binary, so All cannot fail; a file that is not valid JSON is caught by
// the package's tests.
func All() []Example {
	entries, _ := files.ReadDir(".")
	out := make([]Example, 0, len(entries))
	for _, e := range entries {
		b, _ := files.ReadFile(e.Name())
		var head struct {
			Title string `json:"title"`
			Notes string `json:"notes"`
		}
		_ = json.Unmarshal(b, &head)
		out = append(out, Example{
			Name:    strings.TrimSuffix(e.Name(), path.Ext(e.Name())),
			Title:   head.Title,
			Summary: firstSentence(head.Notes),
			JSON:    b,
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Get returns the built-in scenario called name.
func Get(name string) (Example, bool) {
	for _, e := range All() {
		if e.Name == name {
			return e, true
		}
	}
	return Example{}, false
}

// Names returns every built-in scenario's Name, sorted, as All lists them.
func Names() []string { return slices.Clone(names) }

// IsBuiltin reports whether name is a built-in scenario's Name, so a page
// at s/<name>/ exists.
func IsBuiltin(name string) bool {
	_, ok := slices.BinarySearch(names, name)
	return ok
}

func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' {
			return s[:i+1]
		}
	}
	return s
}

// Open returns the scenario JSON a parsed share link names: the document a
// "#s=" link carries, or the built-in's file, exactly as shipped, for
// "#example=NAME". An unknown name is an error wrapping scenario.ErrShare
// that names it.
func Open(l scenario.Link) ([]byte, error) {
	if l.Example == "" {
		return l.Scenario, nil
	}
	ex, ok := Get(l.Example)
	if !ok {
		return nil, fmt.Errorf("%w: no built-in scenario is called %q", scenario.ErrShare, l.Example)
	}
	return ex.JSON, nil
}
