package site

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/scenario"
)

// chatLimit is the length a share link must fit to be pasted into a chat
// message: lesson-sized scenarios (at most lessonSteps steps) must fit.
const (
	chatLimit   = 2000
	lessonSteps = 50
)

// linkLength is one built-in scenario's share link, measured.
type linkLength struct {
	Name   string
	Steps  int
	Length int // characters of "https://HOST/playground/#s=..." without the host part: len("playground/#" + fragment)
	Lesson bool
}

// linkLengths measures the share link of every built-in scenario.
func linkLengths() ([]linkLength, error) {
	var out []linkLength
	for _, ex := range examples.All() {
		s, err := scenario.Decode(ex.JSON)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ex.Name, err)
		}
		frag, err := scenario.ShareFragment(ex.JSON)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ex.Name, err)
		}
		out = append(out, linkLength{Name: ex.Name, Steps: len(s.Steps), Length: len("playground/#" + frag), Lesson: len(s.Steps) <= lessonSteps})
	}
	return out, nil
}

// cmdLinks is `site links`: a table of the share link length of every
// built-in scenario (make bench prints it). It fails when a lesson-sized
// scenario's link does not fit chatLimit characters. It takes no
// arguments: one is a usageError (exit 2), as for version.
func cmdLinks(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("links", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcplab links\n\nPrints the share link length of every built-in scenario (path and fragment, add the host);\nlesson-sized ones (<= %d steps) must fit %d characters.\n", lessonSteps, chatLimit)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &usageError{fmt.Errorf("links takes no arguments, got %q", fs.Args())}
	}
	ls, err := linkLengths()
	if err != nil {
		return err
	}
	out := &stickyWriter{w: stdout} // a failed write is returned, not lost in the table
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tsteps\tlink chars\t")
	var over []string
	longest := 0
	for _, l := range ls {
		mark := ""
		if l.Length > chatLimit {
			mark = " (over " + fmt.Sprint(chatLimit) + ")"
			if l.Lesson {
				over = append(over, l.Name)
			}
		}
		longest = max(longest, l.Length)
		fmt.Fprintf(tw, "%s\t%d\t%d%s\t\n", l.Name, l.Steps, l.Length, mark)
	}
	tw.Flush()
	fmt.Fprintf(out, "%d scenarios; longest link %d characters plus the host; limit for lesson-sized scenarios %d\n", len(ls), longest, chatLimit)
	if out.err != nil {
		return out.err
	}
	if len(over) > 0 {
		return fmt.Errorf("lesson-sized scenarios whose link is over %d characters: %v", chatLimit, over)
	}
	return nil
}
