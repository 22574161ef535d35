package site

import (
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/transcript"
)

// cmdReview is `site review [-json] [-op ID] [-link-base URL] FILE|-|LINK`
// (the `mcplab review` verb): it prints the reliability review of
// one call of a scenario (package engine/review), as Markdown, or as JSON
// with -json (the contract of /review.schema.json).
//
// The input is what `run` takes for a scenario: a file, "-" for standard
// input, or a share link ("#s=..." or "#example=NAME"), or a review page's
// link, which also names the call ("#s=...&op=ID"). -op names the call by
// its JSON-RPC id (41, job-1 or "job-1"), over the link's; the default is
// the first call (a race's call counts).
// Every derived run gets a share link: a bare "#s=..." fragment (which
// `run` and `review` accept), or -link-base prefixed
// (https://lab.example/playground/, or .../playground/?ledger=1 for the
// SQLite build). A -link-base whose path does not end in "playground/" is
// a usageError suggesting the address meant (playgroundBase): its links
// would open another page.
//
// Bad input is a usageError with the located cause, exactly as `run` says
// it ("steps[3].at: must be >= 0"); a scenario with no call says so
// ("steps: no call to review: ..."); a derived run past the engine's bounds
// fails the review with the run's name. The process exits 2 for all of them.
func cmdReview(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the review as JSON (schema: /review.schema.json) instead of Markdown")
	op := fs.String("op", "", "the JSON-RPC `id` of the call to review (default: the first call)")
	base := fs.String("link-base", "", "prefix of every derived run's share link: the playground's address, e.g. https://lab.example/playground/ (?ledger=1 after it for the SQLite build; default: a bare #s=... fragment)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: mcplab review [-json] [-op ID] [-link-base URL] FILE|-|LINK

Prints the reliability review of one call of a scenario file (- for standard
input) or share link ('#s=...' or '#example=NAME'): the cancellation races,
the retry class, the idempotency boundary, flow control, recovery and one
failure card per failure id, each backed by a derived run and its link.`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if b := *base; b != "" && !*asJSON && !strings.HasPrefix(b, "https://") && !strings.HasPrefix(b, "http://") {
		// The Markdown links a run only to an absolute URL: a relative
		// -link-base would be dropped without a word.
		return &usageError{fmt.Errorf("-link-base %q: want an absolute http:// or https:// URL (the Markdown links its runs only to one: a relative link is dead in a pull request)", b)}
	}
	if b := *base; b != "" {
		// A link is the base and "#s=...": only the playground's address
		// opens the run (https://lab.example/#s=... is the index).
		if want, ok := playgroundBase(b); !ok {
			return &usageError{fmt.Errorf("-link-base %q: want the playground's address, such as %s", b, want)}
		}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &usageError{fmt.Errorf("review takes one scenario file, - for stdin, or a share link; got %d arguments", fs.NArg())}
	}
	name := fs.Arg(0)
	var data []byte
	var err error
	if isLink(name) {
		share, linkOp := review.SplitLink(name)
		if *op == "" {
			*op = linkOp // the review page's link names its call: #s=...&op=ID
		}
		if data, err = linkScenario(share); err != nil {
			return &usageError{err}
		}
	} else if data, err = readInput(name, false); err != nil {
		return err
	}
	if f := transcript.Sniff(data); f != transcript.FormatScenario && f != transcript.FormatUnknown {
		return &usageError{fmt.Errorf("%s is a transcript of real traffic, and review takes a scenario: `mcplab run %s` judges a transcript, and the import page turns one into a scenario", name, name)}
	}
	rep, err := review.Review(data, review.Options{Op: *op, Engine: runOptions, LinkBase: *base})
	if err != nil {
		return &usageError{mcplabMemberError(err)}
	}
	if *asJSON {
		out, err := review.Encode(rep)
		if err != nil {
			return err
		}
		_, err = stdout.Write(out)
		return err
	}
	_, err = io.WriteString(stdout, review.Markdown(rep))
	return err
}

// playgroundBase reports whether a -link-base is the playground's address:
// its path ends in "playground/" (a query such as the SQLite build's
// ?ledger=1 may follow; no fragment, since the link adds one). If not, want
// is the address meant, the same URL with the path corrected
// (https://lab.example/ gives https://lab.example/playground/).
func playgroundBase(base string) (want string, ok bool) {
	u, err := url.Parse(base)
	if err != nil {
		return "https://lab.example/playground/", false
	}
	p := u.Path
	isPlayground := func(p string) bool { return p == "playground/" || strings.HasSuffix(p, "/playground/") }
	if isPlayground(p) && u.Fragment == "" && !u.ForceQuery {
		return base, true
	}
	switch i := strings.LastIndexByte(p, '/'); {
	case isPlayground(p):
	case p == "playground" || strings.HasSuffix(p, "/playground"):
		p += "/"
	case strings.Contains(p[i+1:], "."): // a file: the playground beside it, or its own
		if p = p[:i+1]; !isPlayground(p) {
			p += "playground/"
		}
	case p == "" && u.Host != "":
		p = "/playground/"
	case p == "" || strings.HasSuffix(p, "/"):
		p += "playground/"
	default:
		p += "/playground/"
	}
	u.Path, u.RawPath, u.Fragment, u.RawFragment, u.ForceQuery = p, "", "", "", false
	return u.String(), false
}
