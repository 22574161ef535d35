package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Share links (SCENARIO.md, Sharing): the scenario travels in the URL
// fragment as "#s=" + base64url (no padding) of the raw DEFLATE of its
// canonical JSON, so nothing reaches a server. "#example=<name>" opens a
// built-in scenario instead.

// ShareLimit bounds a share fragment's decoded size: the compressed bytes
// and the inflated JSON (MaxBytes) are both checked, so a small link cannot
// inflate into a huge document.
const ShareLimit = 256 << 10

// ErrShare is the category of every share-link error.
var ErrShare = errors.New("bad share link")

// Canonical returns data re-encoded with object keys sorted and no
// insignificant white space; numbers and strings are kept as written. The
// same scenario therefore always gives the same bytes, and the same link.
func Canonical(data []byte) ([]byte, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if skipWS(data, int(dec.InputOffset())) < len(data) {
		return nil, fmt.Errorf("%w: unexpected data after the scenario", ErrSyntax)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // maps encode with sorted keys
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// ShareFragment returns the "s=..." fragment (without "#") for a scenario
// document. It canonicalizes first, so equal scenarios share one link.
func ShareFragment(data []byte) (string, error) {
	c, err := Canonical(data)
	if err != nil {
		return "", err
	}
	return ShareText(c), nil
}

// ShareText returns the "s=..." fragment of text exactly as given, not
// canonicalized: the link of a document that is not (yet) valid JSON, which
// ParseLink gives back byte for byte (the playground shares what its editor
// holds, error and all).
func ShareText(text []byte) string {
	var buf bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	w.Reset(&buf)
	w.Write(text)
	w.Close()
	deflaters.Put(w)
	return "s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// deflaters keeps flate writers for ShareFragment: each holds about 800 KB
// of tables, which the browser would otherwise allocate (and collect) on
// every edit. A reset writer writes what a new one does.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestCompression)
	return w
}}

// Link is what a share URL or fragment names: a scenario document, or a
// built-in example by name.
type Link struct {
	Scenario []byte // the inflated scenario JSON, nil for an example
	Example  string // the example's name, "" for a scenario
}

// ParseLink reads a share URL ("https://host/p#s=..."), a fragment
// ("#s=...", "s=...") or "#example=name"; parameters after it ("&op=ID",
// the review page's) are ignored. Errors wrap ErrShare and say what is
// wrong: not base64url, not DEFLATE, data after the compressed stream,
// too large, or no fragment.
func ParseLink(link string) (Link, error) {
	link = strings.TrimSpace(link)
	if i := strings.IndexByte(link, '#'); i >= 0 {
		link = link[i+1:]
	}
	// Parameters after the first (the review page's "&op=ID") are the
	// page's, not the scenario's: base64url never holds an '&'.
	if i := strings.IndexByte(link, '&'); i >= 0 {
		link = link[:i]
	}
	switch {
	case strings.HasPrefix(link, "example="):
		name := strings.TrimPrefix(link, "example=")
		if name == "" {
			return Link{}, fmt.Errorf("%w: #example= names no scenario", ErrShare)
		}
		return Link{Example: name}, nil
	case strings.HasPrefix(link, "s="):
	default:
		return Link{}, fmt.Errorf("%w: expected a fragment #s=DATA or #example=NAME", ErrShare)
	}
	enc := strings.TrimPrefix(link, "s=")
	if len(enc) > ShareLimit*4/3+4 {
		return Link{}, fmt.Errorf("%w: the link is %d characters, the limit is %d", ErrShare, len(enc), ShareLimit*4/3)
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return Link{}, fmt.Errorf("%w: its data is damaged, perhaps cut short or changed when it was copied (not base64url without padding: %v)", ErrShare, err)
	}
	// A bytes.Reader is an io.ByteReader, so flate reads no byte past the
	// end of its stream: what is left over was added to the link.
	br := bytes.NewReader(raw)
	r := flate.NewReader(br)
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return Link{}, fmt.Errorf("%w: its data is damaged, perhaps cut short or changed when it was copied (not raw DEFLATE data: %v)", ErrShare, err)
	}
	if len(data) > MaxBytes {
		return Link{}, fmt.Errorf("%w: it inflates past %s bytes (1 MiB)", ErrShare, grouped(MaxBytes))
	}
	if br.Len() > 0 {
		return Link{}, fmt.Errorf("%w: its data is damaged, perhaps changed when it was copied (%d bytes follow the end of the compressed scenario)", ErrShare, br.Len())
	}
	return Link{Scenario: data}, nil
}
