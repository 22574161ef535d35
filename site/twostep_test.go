package site

// The two steps of a scenario page's run (worker.js's later): the worker
// makes the second step, the tables, only once the page has drawn the
// first (made at once, it ran on the second core while the page
// drew the first, and a ledger page's warm change to its frame took a
// median 20.9 ms against 15.7 ms held; the budget is 16 ms).

import (
	"context"
	"slices"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// twoStepLogJS records, in window.twoStep, the page's messages to the
// worker ("req", "more") and the worker's answers ("first" for a reply
// that says more: true, "second" for the rest) with their times (ms);
// with dropMore, the page's {more} messages are recorded but not sent.
func twoStepLogJS(dropMore bool) string {
	drop := "false"
	if dropMore {
		drop = "true"
	}
	return `(() => {
  window.twoStep = [];
  const eng = mcplabEngine, w = eng.worker, post = w.postMessage.bind(w);
  w.postMessage = (m, tr) => {
    if (m && m.more !== undefined) { twoStep.push(["more", performance.now()]); if (` + drop + `) return; }
    else if (m && m.req) twoStep.push(["req", performance.now()]);
    post(m, tr);
  };
  const answer = eng.answer.bind(eng);
  eng.answer = (ww, msg) => {
    if (msg && msg.id) twoStep.push([msg.reply && msg.reply.more ? "first" : "second", performance.now()]);
    answer(ww, msg);
  };
  return true;
})()`
}

type twoStepEntry struct {
	What string
	At   float64
}

// readTwoStep is window.twoStep.
func readTwoStep(t *testing.T, ctx context.Context) []twoStepEntry {
	t.Helper()
	raw := evalJSON[[][2]any](t, ctx, `window.twoStep`)
	out := make([]twoStepEntry, len(raw))
	for i, r := range raw {
		out[i].What, _ = r[0].(string)
		out[i].At, _ = r[1].(float64)
	}
	return out
}

// Rule (worker.js's later): a control change on a scenario page
// is answered in two steps, and the worker makes the second (the tables)
// after the page has drawn the first and said so ({more: id}): the
// messages run request, first step, the page's go-ahead, second step;
// and the tables then show the changed run (scenario A over Streamable
// HTTP closes the response stream: a close-stream event).
func TestSecondStepWaitsForTheFirstToBeDrawn(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "the page idle", settledJS)
	evalJSON[bool](t, ctx, twoStepLogJS(false))
	setControl(t, ctx, "transport", scenario.TransportHTTP)
	waitFor(t, ctx, "the HTTP run's tables", settledJS+` && !!document.querySelector('#events tr[data-type="close-stream"]')`)
	var got []string
	for _, e := range readTwoStep(t, ctx) {
		got = append(got, e.What)
	}
	if want := []string{"req", "first", "more", "second"}; !slices.Equal(got, want) {
		t.Errorf("the change's messages were %v, want %v (the second step made after the page's go-ahead)", got, want)
	}
}

// Rule (worker.js's later, holdMs = 100): a page that never says it drew
// the first step (a hidden tab draws no frames) still gets the second,
// holdMs after the first: the page's go-ahead is withheld here, and the
// tables still show the changed run, at least 50 ms after the first
// step reached the page (100 ms less the message's own delay).
func TestSecondStepComesWithoutTheGoAhead(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(scenarioA))
	waitReady(t, ctx)
	// Warm (worker.js's warming): the tables then take a few ms to make,
	// so a gap of 50 ms is the hold, not the work.
	waitFor(t, ctx, "the page idle and its run warmed up", settledJS+` && !!mcplabEngine.warmed`)
	evalJSON[bool](t, ctx, twoStepLogJS(true))
	setControl(t, ctx, "transport", scenario.TransportHTTP)
	waitFor(t, ctx, "the HTTP run's tables", settledJS+` && !!document.querySelector('#events tr[data-type="close-stream"]')`)
	log := readTwoStep(t, ctx)
	first, second := -1.0, -1.0
	for _, e := range log {
		switch e.What {
		case "first":
			first = e.At
		case "second":
			second = e.At
		}
	}
	if first < 0 || second < 0 {
		t.Fatalf("the change's messages were %v, want a first and a second step", log)
	}
	if second-first < 50 {
		t.Errorf("the second step came %.1f ms after the first without the page's go-ahead, want the worker to hold it about 100 ms", second-first)
	}
}
