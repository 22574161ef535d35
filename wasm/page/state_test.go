package page

import "testing"

// Rule (the playground's status line, README "Live"): edits are live while
// the scenario is valid; paused while it is invalid or its run went past
// an engine bound (the output is then the last run that finished);
// waiting when either stopped a link's first run, so nothing has run; an
// error when the simulator itself failed; the loading status stands until
// the page is wired. Each case is a sequence of transitions from the
// start.
func TestPlaygroundStatus(t *testing.T) {
	wired := PlaygroundState{}.Wire()
	for _, tc := range []struct {
		name string
		s    PlaygroundState
		want Status
	}{
		{"not wired: the loading status stands", PlaygroundState{}.Ran(), StatusLoading},
		{"not wired, even invalid", PlaygroundState{}.Invalid(), StatusLoading},
		{"wired on the prerendered run", wired, StatusLive},
		{"an edit ran", wired.Ran(), StatusLive},
		{"an invalid edit pauses", wired.Ran().Invalid(), StatusPausedInvalid},
		{"a run past a bound pauses", wired.Ran().Bound(), StatusPausedBound},
		{"a valid edit after an invalid one is live again", wired.Invalid().Ran(), StatusLive},
		{"a bound replaces an invalid", wired.Invalid().Bound(), StatusPausedBound},
		{"an invalid replaces a bound", wired.Bound().Invalid(), StatusPausedInvalid},
		{"a link's first run invalid: waiting", wired.Nothing().Invalid(), StatusWaitingInvalid},
		{"a link's first run past a bound: waiting", wired.Nothing().Bound(), StatusWaitingBound},
		{"a damaged link opened nothing", wired.Nothing(), StatusLiveNothingRan},
		{"a run after nothing is live", wired.Nothing().Invalid().Ran(), StatusLive},
		{"the worker failed", wired.Ran().WorkerFailed(), StatusWorkerDown},
		{"an invalid text says more than the worker's failure", wired.WorkerFailed().Invalid(), StatusPausedInvalid},
		{"the worker back after a failure", wired.WorkerFailed().Ran(), StatusLive},
		{"a run stopped past its budget keeps the status", wired.Ran().Stopped(), StatusLive},
		{"stopped while invalid stays paused", wired.Invalid().Stopped(), StatusPausedInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.Status(); got != tc.want {
				t.Errorf("Status() = %v (%q), want %v (%q)", got, got.Text(), tc.want, tc.want.Text())
			}
		})
	}
}

// Rule: a run clears what the answers before it left: the message under
// the editor, the worker's trouble, an output that said nothing ran.
func TestPlaygroundRanClears(t *testing.T) {
	s := PlaygroundState{}.Wire().Nothing().Bound().Stopped().Ran()
	if s != (PlaygroundState{Wired: true}) {
		t.Errorf("after a run: %+v, want only Wired", s)
	}
}

// Rule: every status the page can show says something, in the data-state
// the stylesheet knows (live, paused, error); loading says nothing, so
// the loader's own status stands.
func TestStatusWords(t *testing.T) {
	for st := StatusLoading; st <= StatusWorkerDown; st++ {
		text, state := st.Text(), st.State()
		if (st == StatusLoading) != (text == "" && state == "") {
			t.Errorf("%v: text %q, state %q", st, text, state)
		}
		if st != StatusLoading && state != "live" && state != "paused" && state != "error" {
			t.Errorf("%v: state %q", st, state)
		}
	}
}
