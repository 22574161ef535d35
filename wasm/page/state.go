package page

// PlaygroundState is what the playground's page knows of its answers so
// far, which decides its status line (#lab-status, Status): whether the
// page is wired, what the output holds, what the message under the editor
// says, and whether the worker is in trouble. Each answer moves it by one
// transition (Ran, Invalid, Bound, Stopped, WorkerFailed, Nothing); it
// holds no DOM, so its transitions are tested natively.
type PlaygroundState struct {
	Wired  bool   // the page is wired: #lab-status speaks of runs
	Output Output // what #lab-output holds
	Editor Said   // what the message under the editor says
	Worker Trouble
}

// Output is what #lab-output holds.
type Output int

const (
	// OutputRun: a run (the prerendered default until the first answer,
	// else the last run that finished).
	OutputRun Output = iota
	// OutputNothing: no run: a link's first run did not run, or the link
	// could not be opened, and the prerendered default is gone.
	OutputNothing
)

// Said is what the message under the editor says.
type Said int

const (
	SaidNothing Said = iota // hidden: the last answer ran
	SaidInvalid             // the scenario is invalid (a located error)
	SaidBound               // valid, but its run went past an engine bound
)

// Trouble is the worker's trouble, said in #lab-error.
type Trouble int

const (
	TroubleNone    Trouble = iota
	TroubleStopped         // a run was stopped past its budget
	TroubleDown            // the worker failed (answer.WorkerFailed)
)

// Wire is s once the page is wired.
func (s PlaygroundState) Wire() PlaygroundState { s.Wired = true; return s }

// Ran is s after an answer that holds a run: it is on screen, nothing is
// said under the editor, the worker is well.
func (s PlaygroundState) Ran() PlaygroundState {
	s.Output, s.Editor, s.Worker = OutputRun, SaidNothing, TroubleNone
	return s
}

// Invalid is s after an answer that the scenario is invalid.
func (s PlaygroundState) Invalid() PlaygroundState { s.Editor = SaidInvalid; return s }

// Bound is s after an answer that the run went past an engine bound.
func (s PlaygroundState) Bound() PlaygroundState { s.Editor = SaidBound; return s }

// Stopped is s after a run stopped past its budget.
func (s PlaygroundState) Stopped() PlaygroundState { s.Worker = TroubleStopped; return s }

// WorkerFailed is s after the worker's own failure.
func (s PlaygroundState) WorkerFailed() PlaygroundState { s.Worker = TroubleDown; return s }

// Nothing is s once the output says that nothing has run.
func (s PlaygroundState) Nothing() PlaygroundState { s.Output = OutputNothing; return s }

// Status is what #lab-status says in state s.
type Status int

const (
	StatusLoading        Status = iota // not wired: the loading status stands
	StatusLive                         // every edit re-runs
	StatusLiveNothingRan               // live, though a damaged link opened nothing
	StatusPausedInvalid                // invalid; the output is the last valid run
	StatusWaitingInvalid               // invalid, and nothing has run
	StatusPausedBound                  // past a bound; the output is the last run that finished
	StatusWaitingBound                 // past a bound, and nothing has run
	StatusWorkerDown                   // the simulator itself could not run
)

// Status is the status line of s: an error under the editor first (it
// says why edits do not re-run), then the worker's failure, then whether
// anything has run.
func (s PlaygroundState) Status() Status {
	empty := s.Output == OutputNothing
	switch {
	case !s.Wired:
		return StatusLoading
	case s.Editor == SaidInvalid && empty:
		return StatusWaitingInvalid
	case s.Editor == SaidInvalid:
		return StatusPausedInvalid
	case s.Editor == SaidBound && empty:
		return StatusWaitingBound
	case s.Editor == SaidBound:
		return StatusPausedBound
	case s.Worker == TroubleDown:
		return StatusWorkerDown
	case empty:
		return StatusLiveNothingRan
	}
	return StatusLive
}

// State is the status line's data-state: "" (loading: unchanged), "live",
// "paused" or "error".
func (st Status) State() string {
	switch st {
	case StatusLive, StatusLiveNothingRan:
		return "live"
	case StatusPausedInvalid, StatusWaitingInvalid, StatusPausedBound, StatusWaitingBound:
		return "paused"
	case StatusWorkerDown:
		return "error"
	}
	return ""
}

// Text is the status line's words.
func (st Status) Text() string {
	switch st {
	case StatusWaitingInvalid:
		return "Waiting: the scenario is invalid, so nothing has run yet. Fix it and every change runs it."
	case StatusPausedInvalid:
		return "Paused: the scenario is invalid, so it does not re-run; the output is the last valid run. Fix it to go live again."
	case StatusWaitingBound:
		return "Waiting: the scenario is valid, but its run went past one of the engine's bounds (the message under the editor names it), so nothing has run yet. Make it smaller and every change runs it."
	case StatusPausedBound:
		return "Paused: the scenario is valid, but its run went past one of the engine's bounds (the message under the editor names it); the output is the last run that finished. Make the scenario smaller to go live again."
	case StatusWorkerDown:
		return "The simulator could not run; the message on the page says why. Reload the page to try again."
	case StatusLiveNothingRan:
		return "Live: nothing has run yet, since the link could not be opened; every change runs the scenario in your browser, off the page's thread."
	case StatusLive:
		return "Live: every change re-runs the scenario in your browser, off the page's thread."
	}
	return ""
}
