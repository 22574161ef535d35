package protocol

import (
	"fmt"
)

// Request is one page's request to the worker.
type Request interface {
	// Page is the page that asks.
	Page() Page
	// Fields is the request as the JavaScript object the page sends
	// (js.ValueOf takes it): a field at its zero value is left out, so a
	// scenario page's first request is field for field the one app.js
	// asks the worker to run early ({page, text, adopt: true}).
	Fields() map[string]any
}

// keyPage is the field every request names its page by.
const keyPage = "page"

// PageOf is the page a request the worker received names; the server of
// that page reads the rest (ReadPlaygroundRequest, ReadLabRequest,
// ReadImportRequest, ReadReviewRequest), so a binary reads only the
// requests of the pages it serves.
func PageOf(o Object) Page {
	page, _ := o.Str(keyPage)
	return Page(page)
}

// ReadRequest reads a request by its page (PageOf); an object that names
// no page this package knows is an error.
func ReadRequest(o Object) (Request, error) {
	switch PageOf(o) {
	case PageLab:
		return ReadLabRequest(o), nil
	case PagePlayground:
		return ReadPlaygroundRequest(o), nil
	case PageImport:
		return ReadImportRequest(o), nil
	case PageReview:
		return ReadReviewRequest(o), nil
	case PageExplore:
		return ReadExploreRequest(o), nil
	}
	return nil, fmt.Errorf("no page %q asks this worker", PageOf(o))
}

// fields starts a request's fields with its page.
func fields(p Page) map[string]any { return map[string]any{keyPage: string(p)} }

// PlaygroundRequest asks to run the playground editor's text (its
// canonical form) and render it: PlaygroundReply.
type PlaygroundRequest struct {
	Text string // the editor's text as typed
	// Controls asks for the control panel too (the scenario's shape may
	// have changed: an edit of the text, not of a control).
	Controls bool
}

// Page implements Request.
func (PlaygroundRequest) Page() Page { return PagePlayground }

// ReadPlaygroundRequest reads a PlaygroundRequest.
func ReadPlaygroundRequest(o Object) PlaygroundRequest {
	return PlaygroundRequest{Text: str(o, "text"), Controls: o.Truthy("controls")}
}

// Fields implements Request.
func (r PlaygroundRequest) Fields() map[string]any {
	f := fields(PagePlayground)
	f["text"], f["controls"] = r.Text, r.Controls
	return f
}

// LabRequest asks to run a scenario page's scenario and render it in two
// steps (LabPicture, then LabFill), or, with Adopt, only to run it
// (LabAdopt).
type LabRequest struct {
	Text string // the scenario JSON as the page holds it
	// Shown is the id of the timeline view on screen ("" for none) when
	// ShownKnown: the first step renders only that view.
	Shown      string
	ShownKnown bool
	// Adopt: the page shows this run already, prerendered.
	Adopt bool
}

// Page implements Request.
func (LabRequest) Page() Page { return PageLab }

// Fields implements Request.
func (r LabRequest) Fields() map[string]any {
	f := fields(PageLab)
	f["text"] = r.Text
	if r.ShownKnown {
		f["shown"] = r.Shown
	}
	if r.Adopt {
		f["adopt"] = true
	}
	return f
}

// ReadLabRequest reads a LabRequest.
func ReadLabRequest(o Object) LabRequest {
	shown, known := o.Str("shown")
	return LabRequest{Text: str(o, "text"), Shown: shown, ShownKnown: known, Adopt: o.Truthy("adopt")}
}

// ImportRequest asks to import a transcript and render one window of its
// events (ImportReply), or, with Link, only its scenario link.
type ImportRequest struct {
	Text string // the transcript
	// Side, Observer, Zone, Latency and MaxTimeout are the import's
	// options as the page's fields hold them (transcript.OptionsOf).
	Side, Observer, Zone, Latency, MaxTimeout string
	Redact                                    bool // the scenario link leaves payloads out
	Window                                    int  // the window of events to show, 0 first
	Link                                      bool // only the scenario link (a long trace's, made when followed)
}

// Page implements Request.
func (ImportRequest) Page() Page { return PageImport }

// Fields implements Request.
func (r ImportRequest) Fields() map[string]any {
	f := fields(PageImport)
	f["text"], f["side"], f["redact"] = r.Text, r.Side, r.Redact
	for k, v := range map[string]string{"observer": r.Observer, "zone": r.Zone, "latency": r.Latency, "maxTimeout": r.MaxTimeout} {
		if v != "" {
			f[k] = v
		}
	}
	if r.Link {
		f["link"] = true
	} else {
		f["window"] = r.Window
	}
	return f
}

// ReadImportRequest reads an ImportRequest.
func ReadImportRequest(o Object) ImportRequest {
	return ImportRequest{
		Text: str(o, "text"), Side: str(o, "side"), Observer: str(o, "observer"), Zone: str(o, "zone"),
		Latency: str(o, "latency"), MaxTimeout: str(o, "maxTimeout"),
		Redact: o.Truthy("redact"), Window: num(o, "window"), Link: o.Truthy("link"),
	}
}

// ReviewAction is what a review request asks.
type ReviewAction string

// The review page's actions.
const (
	// ReviewStart starts a review of Text's call Op: ReviewStarted.
	ReviewStart ReviewAction = "start"
	// ReviewCalls lists Text's calls, for the picker: ReviewCallList.
	ReviewCalls ReviewAction = "calls"
	// ReviewStep runs the next part of review Token: ReviewProgress.
	ReviewStep ReviewAction = "step"
)

// ReviewRequest is one of the review page's requests, by Action.
type ReviewRequest struct {
	Action ReviewAction
	Text   string // the scenario (start, calls)
	Op     string // the call to review, raw id ("" for the first)
	// OpMayBeStale: the picker listed the calls before an edit, so Op may
	// be gone; the first call is reviewed then.
	OpMayBeStale bool
	// LinkBase is the absolute playground URL the run links open.
	LinkBase string
	Token    int    // the review a step continues (ReviewStarted.Token)
	Root     string // the site root, relative to the page (step)
}

// Page implements Request.
func (ReviewRequest) Page() Page { return PageReview }

// Fields implements Request.
func (r ReviewRequest) Fields() map[string]any {
	f := fields(PageReview)
	f["action"] = string(r.Action)
	switch r.Action {
	case ReviewStep:
		f["token"], f["root"] = r.Token, r.Root
	case ReviewCalls:
		f["text"] = r.Text
	default:
		f["text"], f["op"], f["linkBase"], f["opMayBeStale"] = r.Text, r.Op, r.LinkBase, r.OpMayBeStale
	}
	return f
}

// ReadReviewRequest reads a ReviewRequest.
func ReadReviewRequest(o Object) ReviewRequest {
	return ReviewRequest{
		Action: ReviewAction(str(o, "action")), Text: str(o, "text"), Op: str(o, "op"),
		OpMayBeStale: o.Truthy("opMayBeStale"), LinkBase: str(o, "linkBase"),
		Token: num(o, "token"), Root: str(o, "root"),
	}
}
