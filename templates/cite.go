package templates

import (
	"strings"

	"github.com/mcplab/mcplab/engine/examples"
)

// textPart is one run of page text: plain when Href is "", else a citation
// of a public report (Text "owner/repo#123") linking to Href, or, when
// Scenario, a built-in scenario's name linking to its page.
type textPart struct {
	Text, Href string
	Scenario   bool
}

// citeParts splits s at its citations of public reports, written
// owner/repo#number (SCENARIO.md, "Switches for the failures real software
// shows": the failures of the field cite the report they come from), so
// that each is drawn as a link to https://github.com/owner/repo/issues/number
// (GitHub redirects a pull request's number there too). owner is letters,
// digits and "-"; repo adds "_" and "."; a citation starts at the beginning
// of s or after a byte that could not belong to it. Text without a citation
// is one plain part. Cost: O(len(s)).
func citeParts(s string) []textPart {
	var out []textPart
	plain := 0 // start of the plain text not yet emitted
	for i := 0; i < len(s); i++ {
		if s[i] != '#' {
			continue
		}
		end := i + 1
		for end < len(s) && '0' <= s[end] && s[end] <= '9' {
			end++
		}
		if end == i+1 || end < len(s) && isRepoByte(s[end]) && s[end] != '.' {
			continue
		}
		start, ok := citationStart(s[plain:i])
		if !ok {
			continue
		}
		start += plain
		if start > plain {
			out = append(out, textPart{Text: s[plain:start]})
		}
		repo := s[start:i]
		out = append(out, textPart{Text: s[start:end], Href: "https://github.com/" + repo + "/issues/" + s[i+1:end]})
		plain, i = end, end-1
	}
	if plain < len(s) || len(out) == 0 {
		out = append(out, textPart{Text: s[plain:]})
	}
	return out
}

// citationStart returns where the owner/repo that ends s begins, and
// whether s ends with one.
func citationStart(s string) (int, bool) {
	slash := strings.LastIndexByte(s, '/')
	if slash <= 0 || slash == len(s)-1 {
		return 0, false
	}
	for j := slash + 1; j < len(s); j++ {
		if !isRepoByte(s[j]) {
			return 0, false
		}
	}
	start := slash
	for start > 0 && isOwnerByte(s[start-1]) {
		start--
	}
	if start == slash || start > 0 && (isRepoByte(s[start-1]) || s[start-1] == '/') {
		return 0, false
	}
	return start, true
}

func isOwnerByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-'
}

func isRepoByte(c byte) bool { return isOwnerByte(c) || c == '_' || c == '.' }

// linkParts is citeParts, then every built-in scenario's name in the
// plain text (a whole word of letters, digits and hyphens) as a link to
// its page, root+"s/<name>/": a page that names another scenario links
// it. Cost: O(len(s)).
func linkParts(s, root string) []textPart {
	var out []textPart
	for _, p := range citeParts(s) {
		if p.Href != "" {
			out = append(out, p)
			continue
		}
		out = append(out, nameParts(p.Text, root)...)
	}
	return out
}

// nameParts splits plain text at the built-in scenarios' names.
func nameParts(s, root string) []textPart {
	var out []textPart
	plain := 0
	for i := 0; i < len(s); {
		if !isNameByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		if w := strings.TrimRight(s[i:j], "-"); examples.IsBuiltin(w) {
			if i > plain {
				out = append(out, textPart{Text: s[plain:i]})
			}
			out = append(out, textPart{Text: w, Href: root + "s/" + w + "/", Scenario: true})
			plain = i + len(w)
		}
		i = j
	}
	if plain < len(s) || len(out) == 0 {
		out = append(out, textPart{Text: s[plain:]})
	}
	return out
}

func isNameByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' }
