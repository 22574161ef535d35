package protocol

// PageExplore is the race explorer's page (templates.ExplorePage).
const PageExplore Page = "explore"

// ExploreAction is what an explore request asks.
type ExploreAction string

// The explorer page's actions.
const (
	// ExplorePart explores one part of the window (explore.Part; Part -1
	// is the coarse window): ExplorePartReply.
	ExplorePart ExploreAction = "part"
	// ExploreRun runs the scenario at one cell's values and renders it:
	// ExploreRunReply.
	ExploreRun ExploreAction = "run"
)

// ExploreRequest is one of the explorer page's requests, by Action. The
// worker splits Text's window into Parts parts as the page did
// (explore.Split), so a part is named by its number alone.
type ExploreRequest struct {
	Action ExploreAction
	Text   string // the scenario, its explore member naming the window
	Part   int    // the part to explore, -1 for the coarse window (part)
	Parts  int    // the parts the page split the window into (part)
	// Values are the cell's values in the order of the window (run).
	Values []string
	// LinkBase prefixes every share link (explore.Options.LinkBase).
	LinkBase string
}

// Page implements Request.
func (ExploreRequest) Page() Page { return PageExplore }

// Fields implements Request.
func (r ExploreRequest) Fields() map[string]any {
	f := fields(PageExplore)
	f["action"], f["text"], f["linkBase"] = string(r.Action), r.Text, r.LinkBase
	switch r.Action {
	case ExploreRun:
		vs := make([]any, len(r.Values))
		for i, v := range r.Values {
			vs[i] = v
		}
		f["values"] = vs
	default:
		f["part"], f["parts"] = r.Part, r.Parts
	}
	return f
}

// ReadExploreRequest reads an ExploreRequest.
func ReadExploreRequest(o Object) ExploreRequest {
	return ExploreRequest{
		Action: ExploreAction(str(o, "action")), Text: str(o, "text"), LinkBase: str(o, "linkBase"),
		Part: num(o, "part"), Parts: num(o, "parts"), Values: o.Strings("values"),
	}
}

// ExplorePartReply answers ExplorePart: {part, report} with the part's
// explore.Report as JSON text (the page reads it with encoding/json, as
// explore.Merge needs it), or {error, kind, part}.
type ExplorePartReply struct {
	Err    *Error
	Part   int
	Report string
}

// Failed implements Reply.
func (r ExplorePartReply) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r ExplorePartReply) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		w.int("part", r.Part)
		w.strOpt("report", r.Report)
	})
}

// ReadExplorePartReply reads an ExplorePartReply.
func ReadExplorePartReply(o Object) ExplorePartReply {
	return ExplorePartReply{Err: ReadError(o), Part: num(o, "part"), Report: str(o, "report")}
}

// ExploreRunReply answers ExploreRun: {html, fragment, values} with the
// run's output (templates.Output) and its share fragment, or {error,
// kind}.
type ExploreRunReply struct {
	Err      *Error
	HTML     string
	Fragment string
	// Label names the cell ("steps[2].at = 300, latencyMs.up = 10").
	Label string
}

// Failed implements Reply.
func (r ExploreRunReply) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r ExploreRunReply) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		w.strOpt("html", r.HTML)
		w.strOpt("fragment", r.Fragment)
		w.strOpt("label", r.Label)
	})
}

// ReadExploreRunReply reads an ExploreRunReply.
func ReadExploreRunReply(o Object) ExploreRunReply {
	return ExploreRunReply{Err: ReadError(o), HTML: str(o, "html"), Fragment: str(o, "fragment"), Label: str(o, "label")}
}
