package templates

import "strings"

// textPart is one run of page text: plain when Href is "", else a citation
// of a public report (Text "owner/repo#123") linking to Href.
type textPart struct {
	Text, Href string
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
