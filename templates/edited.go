package templates

import "strings"

// EditedWords is what a scenario page says about itself once the reader
// has edited its scenario (a control moved, or a #s= link of an edited
// copy opened): its heading, the document title the embed snippet takes,
// the note under the heading, and the labels of the summary and "Try it",
// which describe the original scenario, not the run on screen. Every
// sentence that names an outcome names the edited run's (its headline,
// verdict.Text), so no word above the output contradicts it.
type EditedWords struct {
	// Heading replaces the h1: the original title, marked as edited, and
	// the first clause of this run's headline ("Edited from “A:
	// cancellation wins”: this run shows completion wins").
	Heading string
	// Title is the document title, which "Copy embed" names the iframe by.
	Title string
	// Note is the paragraph under the heading: what this run shows, in the
	// headline's full words, and that the notes below are the original's.
	Note string
	// Summary and Try label the original's summary and "Try it".
	Summary, Try string
}

// NewEditedWords says what a page titled title shows once edited, given
// its run's headline (verdict.Text, as drawn in #verdict .verdict-text).
// A headline "" (no run on screen yet) says only that the page is edited.
func NewEditedWords(title, headline string) EditedWords {
	headline = strings.TrimSpace(headline)
	first, _, _ := strings.Cut(headline, ": ")
	w := EditedWords{
		Heading: "Edited from “" + title + "”",
		Note:    "You edited this scenario.",
		Summary: "About the original scenario:",
		Try:     "Try it on the original:",
	}
	if first != "" {
		w.Heading += ": this run shows " + first
		w.Note = "You edited this scenario: this run shows " + strings.TrimSuffix(headline, ".") + "."
	}
	w.Note += " The title, the summary and “Try it” below are the original's; the outcome, the checks and the charts are this run's."
	w.Title = w.Heading + " · mcplab"
	return w
}
