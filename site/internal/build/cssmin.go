package build

import "bytes"

// servedCSS is a stylesheet as the site serves it: src without its
// comments, and without the indentation and blank lines that remain, so
// that what every page transfers holds only rules (app.css's comments are
// for its readers: a quarter of its bytes, 2.2 KB of its brotli, which the
// playground page's 1.5 MB transfer budget needs). Text inside quotes is
// kept whole, a "/*" in a string included; a comment left open runs to
// the end, as CSS reads it. Everything else is byte for byte.
func servedCSS(src []byte) []byte {
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
			out = append(out, src[i:j]...)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return trimLines(out)
			}
			i += 2 + end + 2
		default:
			out = append(out, c)
			i++
		}
	}
	return trimLines(out)
}

// trimLines drops each line's leading spaces and tabs and the lines left
// empty (whitespace between CSS tokens, of which one newline stays).
func trimLines(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for line := range bytes.Lines(b) {
		line = bytes.TrimLeft(line, " \t")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		out = append(out, line...)
	}
	return out
}

// generatedScripts are the bundles in site/static that npm builds
// (make editor): served as built, byte for byte (their checks compare
// them with a fresh build).
var generatedScripts = map[string]bool{"editor.js": true, "sqlite.js": true}

// servedJS is a hand-written script as the site serves it (app.js,
// worker.js, share.js, boot.js): src without its whole-line "//" comments,
// which are for its readers (app.js's are a third of its bytes, 3.5 KB of
// its brotli on every page). A script holding a backquote is served as it
// is: in a template literal a line starting with "//" is text; without
// one, such a line can only be a comment (a string cannot span lines, and
// a regular expression cannot start with "//"). Every other line is byte
// for byte.
func servedJS(src []byte) []byte {
	if bytes.IndexByte(src, '`') >= 0 {
		return src
	}
	out := make([]byte, 0, len(src))
	for line := range bytes.Lines(src) {
		if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("//")) {
			continue
		}
		out = append(out, line...)
	}
	return out
}
