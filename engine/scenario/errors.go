package scenario

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors: every decoding error wraps exactly one of them, so callers
// can tell the category with errors.Is and the place with *Error.Path.
var (
	ErrSyntax       = errors.New("invalid JSON")
	ErrType         = errors.New("wrong type")
	ErrUnknown      = errors.New("unknown field")
	ErrMissing      = errors.New("is required")
	ErrValue        = errors.New("invalid value")
	ErrLimit        = errors.New("past a limit")
	ErrVersion      = errors.New("unsupported version")
	ErrUnknownID    = errors.New("unknown request id")
	ErrBadID        = errors.New("must be a string or an integer")
	ErrDuplicate    = errors.New("duplicate member")
	errNotAnInteger = errors.New("must be an integer")
)

// Error is a scenario error located by Path, a JavaScript-like path such as
// `steps[3].at` ("" for the whole document), and by its place in the text
// it came from. Err wraps one of the sentinel errors above.
//
// Decode fills the place of every error it returns: the value Path names
// (or its nearest ancestor in the text, for a missing member; see Locate),
// the member name of a duplicate, the bracket that nests too deep, or the
// byte where JSON syntax breaks. Line is 0 when the place is unknown: an
// error about the whole document (its size, its encoding), or an error of
// SetPath, DeletePath or Edit, which know paths but not a text.
type Error struct {
	Path string
	Err  error
	// Offset and End delimit the place in bytes of the input, input[Offset:End].
	Offset, End int
	// Line and Column are 1-based (0 when unknown); Column counts
	// characters (Unicode code points), not bytes.
	Line, Column int
}

// Error returns "path: reason", or the reason alone for the whole document.
// A syntax error's reason says its line and column ("invalid JSON at line 3,
// column 9: ..."); other reasons leave the place to the fields.
//
// The format's version member is the one path said otherwise, because
// "mcplab: ..." reads as the program's name speaking: a document without
// it reads "not a scenario: a scenario starts with "mcplab": 1", and any
// other error about it names it as a member ("the "mcplab" member: this
// lab reads version 1, not 2"). Every surface (the command, the playground, the review page)
// prints the same words.
func (e *Error) Error() string {
	switch {
	case e.Path == "":
		return e.Err.Error()
	case e.Path == versionMember && errors.Is(e.Err, ErrMissing):
		return "not a scenario: " + e.Err.Error()
	case e.Path == versionMember:
		return `the "` + versionMember + `" member: ` + e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

// versionMember is the member that names the format's version
// (SCENARIO.md: "mcplab": 1).
const versionMember = "mcplab"

// Unwrap returns the cause, so errors.Is(err, ErrValue) works.
func (e *Error) Unwrap() error { return e.Err }

// locate fills e's place in data from its path (Locate), unless it has one.
func (e *Error) locate(data []byte) {
	if e.Line > 0 || e.Path == "" {
		return
	}
	if loc, ok := Locate(data, e.Path); ok {
		e.Offset, e.End, e.Line, e.Column = loc.Offset, loc.End, loc.Line, loc.Column
	}
}

func errAt(path string, sentinel error, format string, args ...any) *Error {
	if format == "" {
		return &Error{Path: path, Err: sentinel}
	}
	return &Error{Path: path, Err: &reason{category: sentinel, text: fmt.Sprintf(format, args...)}}
}

// reason is a located error's text, in the words a reader needs
// ("must be >= 0"), that still matches its sentinel category with errors.Is.
type reason struct {
	category error
	text     string
}

func (r *reason) Error() string { return r.text }
func (r *reason) Unwrap() error { return r.category }

// grouped writes n >= 0 with its digits grouped by thousands ("1,048,576"),
// as a reader counts them in a limit's error.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
