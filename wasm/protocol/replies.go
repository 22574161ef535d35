package protocol

// failed is the Failed of a reply holding err.
func failed(err *Error) bool { return err != nil }

// PlaygroundReply answers a PlaygroundRequest:
//
//	{out: Output, title, fragment?, controls?}   the run
//	{error, kind, place?, fragment?}             it did not run
//	{error, kind: "no ledger", canon}            it needs ledger.wasm
//
// Fragment is the share fragment of the editor's text whether it ran or
// not (its canonical link when it is JSON); Canon is its canonical JSON,
// which the page reloads into ledger.wasm with.
type PlaygroundReply struct {
	Err      *Error
	Out      *Output
	Title    string
	Canon    string
	Fragment string
	Controls string // the control panel's HTML, when asked for
}

// Failed implements Reply.
func (r PlaygroundReply) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r PlaygroundReply) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		w.output("out", r.Out)
		w.strOpt("title", r.Title)
		w.strOpt("canon", r.Canon)
		w.strOpt("fragment", r.Fragment)
		w.strOpt("controls", r.Controls)
	})
}

// ReadPlaygroundReply reads a PlaygroundReply but for Out and Controls,
// which the page takes as they are (HTML).
func ReadPlaygroundReply(o Object) PlaygroundReply {
	return PlaygroundReply{Err: ReadError(o), Title: str(o, "title"), Canon: str(o, "canon"), Fragment: str(o, "fragment")}
}

// LabPicture is the first step of a LabRequest's answer: what a reader
// watches while dragging a control (the blocks not Later, and of the
// timeline's views only the one shown); the rest is Pending until the
// LabFill. {out: Output} or {error, kind}.
type LabPicture struct {
	Err *Error
	Out *Output
}

// Failed implements Reply.
func (r LabPicture) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r LabPicture) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		w.output("out", r.Out)
	})
}

// LabFill is the second step: the blocks and views the picture left
// pending, by key and id, and the scenario's share fragment.
//
//	{fill: [Part], fragment?}   or {error, kind}
type LabFill struct {
	Err      *Error
	Fill     []Part
	Fragment string
}

// Failed implements Reply.
func (r LabFill) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r LabFill) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		if r.Err == nil {
			w.parts("fill", r.Fill)
		}
		w.strOpt("fragment", r.Fragment)
	})
}

// ReadLabFragment reads a LabFill's or LabAdopt's fragment.
func ReadLabFragment(o Object) string { return str(o, "fragment") }

// LabAdopt answers a LabRequest with Adopt: the run is made but not
// rendered, since the page shows it prerendered; Keys are its blocks, in
// order (templates.OutputParts). {adopt: [keys], fragment?}.
type LabAdopt struct {
	Keys     []string
	Fragment string
}

// Failed implements Reply.
func (LabAdopt) Failed() bool { return false }

// AppendJSON implements Reply.
func (r LabAdopt) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.strs("adopt", r.Keys)
		w.strOpt("fragment", r.Fragment)
	})
}

// ReadLabAdopt reads a LabAdopt; ok is false when o is none.
func ReadLabAdopt(o Object) (a LabAdopt, ok bool) {
	keys := o.Strings("adopt")
	return LabAdopt{Keys: keys, Fragment: str(o, "fragment")}, keys != nil
}

// Window is the part of an imported trace the import page shows:
// {index, count, first, last, total}, First and Last the 1-based
// positions of its first and last events.
type Window struct {
	Index, Count, First, Last, Total int
}

// ImportReply answers an ImportRequest:
//
//	{head, headSum, out: Output, window: Window, fragment?}
//	{fragment}                     with Link
//	{error, kind, place?}
//
// Head is templates.ImportHead's HTML, HeadSum its digest. Fragment (the
// playground link's) comes only when the trace fits in one window, or
// when asked for (Link).
type ImportReply struct {
	Err      *Error
	Head     string
	HeadSum  string
	Out      *Output
	Window   Window
	Fragment string
}

// Failed implements Reply.
func (r ImportReply) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r ImportReply) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		if r.Out != nil {
			w.str("head", r.Head)
			w.str("headSum", r.HeadSum)
			w.output("out", r.Out)
			w.key("window")
			w.begin()
			w.int("index", r.Window.Index)
			w.int("count", r.Window.Count)
			w.int("first", r.Window.First)
			w.int("last", r.Window.Last)
			w.int("total", r.Window.Total)
			w.end()
		}
		w.strOpt("fragment", r.Fragment)
	})
}

// ReadImportReply reads an ImportReply but for Head and Out.
func ReadImportReply(o Object) ImportReply {
	r := ImportReply{Err: ReadError(o), HeadSum: str(o, "headSum"), Fragment: str(o, "fragment")}
	if win, ok := o.Obj("window"); ok {
		r.Window = Window{Index: num(win, "index"), Count: num(win, "count"), First: num(win, "first"), Last: num(win, "last"), Total: num(win, "total")}
	}
	return r
}

// ReviewStarted answers ReviewStart:
//
//	{token, parts: [names], ops: [raw ids], op, fragment?, title}
//	{error, kind, place?, ops?}   (ops: the calls it has, when it lacks Op)
type ReviewStarted struct {
	Err      *Error
	Token    int
	Parts    []string // review.Parts, the steps to come
	Ops      []string // the scenario's calls
	Op       string   // the call reviewed
	Fragment string
	Title    string
}

// Failed implements Reply.
func (r ReviewStarted) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r ReviewStarted) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		if r.Ops != nil {
			w.strs("ops", r.Ops)
		}
		if r.Err != nil {
			return
		}
		w.int("token", r.Token)
		w.strs("parts", r.Parts)
		w.str("op", r.Op)
		w.strOpt("fragment", r.Fragment)
		w.str("title", r.Title)
	})
}

// ReadReviewStarted reads a ReviewStarted.
func ReadReviewStarted(o Object) ReviewStarted {
	return ReviewStarted{
		Err: ReadError(o), Token: num(o, "token"), Parts: o.Strings("parts"), Ops: o.Strings("ops"),
		Op: str(o, "op"), Fragment: str(o, "fragment"), Title: str(o, "title"),
	}
}

// ReviewCallList answers ReviewCalls: {ops} or {error, kind, place?}.
type ReviewCallList struct {
	Err *Error
	Ops []string
}

// Failed implements Reply.
func (r ReviewCallList) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r ReviewCallList) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		if r.Err == nil {
			w.strs("ops", r.Ops)
		}
	})
}

// ReadReviewCallList reads a ReviewCallList.
func ReadReviewCallList(o Object) ReviewCallList {
	return ReviewCallList{Err: ReadError(o), Ops: o.Strings("ops")}
}

// ReviewProgress answers ReviewStep: {step, runs, done} and, once done,
// {html: templates.ReviewBody, markdown}; or {error, kind}.
type ReviewProgress struct {
	Err            *Error
	Step, Runs     int
	Done           bool
	HTML, Markdown string
}

// Failed implements Reply.
func (r ReviewProgress) Failed() bool { return failed(r.Err) }

// AppendJSON implements Reply.
func (r ReviewProgress) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) {
		w.error(r.Err)
		if r.Err != nil {
			return
		}
		w.int("step", r.Step)
		w.int("runs", r.Runs)
		w.bool("done", r.Done)
		w.strOpt("html", r.HTML)
		w.strOpt("markdown", r.Markdown)
	})
}

// ReadReviewProgress reads a ReviewProgress.
func ReadReviewProgress(o Object) ReviewProgress {
	return ReviewProgress{Err: ReadError(o), Step: num(o, "step"), Runs: num(o, "runs"), Done: o.Truthy("done"), HTML: str(o, "html"), Markdown: str(o, "markdown")}
}

// Failure is the reply of a request that failed before any server
// answered it (a request no page of this binary serves, a panic):
// {error, kind}.
type Failure struct{ Err *Error }

// Failed implements Reply.
func (Failure) Failed() bool { return true }

// AppendJSON implements Reply.
func (r Failure) AppendJSON(b []byte) []byte {
	return object(b, func(w *writer) { w.error(r.Err) })
}
