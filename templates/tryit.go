package templates

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// tryIt is a page's "Try it" as a claim that can be tested: set the control
// at Path to Value (JSON, as scenario.SetPath writes it) and what Observe
// reads from the run flips from From (the page as it loads) to To.
// TestTryItClaims runs every one through the engine.
type tryIt struct {
	Path  string // the control's data-path, e.g. "client.policy.progressResetsMax"
	Value string // the JSON value the edit writes, e.g. "true"
	// Observe names what flips: "verdict" (verdict.Key), "outcome" (the
	// first request's outcome key), "outcomes" (every request's, in order,
	// space-separated), "signal" or "cause" (the first request's
	// cancellation signal or cause, "" when none).
	Observe  string
	From, To string
	// Watch says what the reader will see, after "and watch".
	Watch string
	// Also, when not empty, is a second suggestion appended as written.
	Also string
}

// tryIts are the built-in scenarios' Try-its, by scenario name
// (tryItNamed). A scenario missing here gets raceTry when its script races a cancel against a completion,
// else its notes' "Try:" part, else tryHint's general advice.
var tryIts = map[string]tryIt{
	"c-progress-then-maximum":                {Path: "client.policy.progressResetsMax", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the hung work outlive its 2,000 ms maximum"},
	"d-cancel-on-streamable-http":            {Path: "client.policy.httpCancel", Value: `"post-notification"`, Observe: "verdict", From: "good", To: "bad", Watch: "the client POST a cancellation the 2026-07-28 server does not expect", Also: "Or switch “Protocol revision” to 2025-11-25, where that POST is the rule."},
	"buffer-reference-coalesce":              {Path: "buffer.policy", Value: `"drop-newest"`, Observe: "verdict", From: "good", To: "bad", Watch: "the full buffer lose the final response", Also: "Or change the production and drain rates and watch the buffer's depth."},
	"herd-reference-backoff":                 {Path: "herd.strategy", Value: `"none"`, Observe: "verdict", From: "good", To: "bad", Watch: "the clients return in lockstep and give up", Also: "The chart below runs the same herd under every strategy, side by side."},
	"http-2025-post-cancel":                  {Path: "protocol", Value: `"2026-07-28"`, Observe: "signal", From: trace.SignalNotification, To: trace.SignalCloseStream, Watch: "the cancellation travel as a closed stream instead of a POST"},
	"key-reuse-rejected":                     {Path: "server.policy.fingerprint", Value: "false", Observe: "verdict", From: "good", To: "bad", Watch: "one key alias two intents"},
	"ledger-keyed-race":                      {Path: "server.policy.atomicLedger", Value: "false", Observe: "verdict", From: "good", To: "bad", Watch: "both connections run the charge"},
	"ledger-reopen-defensive-copy":           {Path: "server.policy.defensiveCopy", Value: "false", Observe: "verdict", From: "good", To: "bad", Watch: "the caller's edit corrupt the replay"},
	"proxy-buffering-burst":                  {Path: "server.sseHeaders", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "the proxy pass the progress on as it is sent"},
	"stale-progress-ignored":                 {Path: "client.policy.acceptNonIncreasingProgress", Value: "true", Observe: "cause", From: trace.CauseIdleTimeout, To: trace.CauseMaxTimeout, Watch: "the stuck server keep the request alive until its maximum"},
	"task-cancel-ack-not-final":              {Path: "client.policy.treatTaskAckAsFinal", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the UI say stopped while the worker runs on"},
	"broken-buffer-drops-final":              {Path: "buffer.policy", Value: `"evict-progress"`, Observe: "verdict", From: "intended", To: "good", Watch: "the final response get through"},
	"broken-dedupe-by-rpc-id":                {Path: "server.policy.dedupeBy", Value: `"idempotency-key"`, Observe: "verdict", From: "intended", To: "good", Watch: "the retry charge once"},
	"broken-defensive-copy":                  {Path: "server.policy.defensiveCopy", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "the replay return the committed result"},
	"broken-http-posts-cancel":               {Path: "client.policy.httpCancel", Value: `"close-stream"`, Observe: "verdict", From: "intended", To: "good", Watch: "the client cancel by closing the stream, as 2026-07-28 requires"},
	"broken-key-reuse-no-fingerprint":        {Path: "server.policy.fingerprint", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "the reused key be rejected"},
	"broken-last-event-id":                   {Path: "client.policy.sendLastEventId", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the client reconnect with a new request and a refetch"},
	"broken-ledger-check-then-act":           {Path: "server.policy.atomicLedger", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "one transaction let only one connection charge"},
	"broken-progress-resets-max":             {Path: "client.policy.progressResetsMax", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the maximum timeout cut the hung work"},
	"broken-replicas-not-shared":             {Path: "ledger.shared", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "the retry charge once on any replica"},
	"broken-respond-after-cancel":            {Path: "server.policy.respondAfterCancel", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the server go quiet after the cancellation"},
	"broken-stale-progress":                  {Path: "client.policy.acceptNonIncreasingProgress", Value: "false", Observe: "cause", From: trace.CauseMaxTimeout, To: trace.CauseIdleTimeout, Watch: "the idle timeout cut the stuck request early"},
	"broken-ignore-disconnect":               {Path: "server.policy.ignoreDisconnect", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the server stop its work when the stream closes"},
	"broken-ignore-progress":                 {Path: "client.policy.ignoreProgress", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "progress keep the long call alive"},
	"broken-late-response-fatal":             {Path: "client.policy.lateResponseIsError", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the client ignore the late response and keep its session"},
	"broken-herd-exponential-lockstep":       {Path: "herd.strategy", Value: `"reference"`, Observe: "verdict", From: "intended", To: "good", Watch: "jitter spread the clients out"},
	"broken-task-ack-as-final":               {Path: "client.policy.treatTaskAckAsFinal", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the client keep polling until the worker really stops"},
	"resume-keeps-position":                  {Path: "client.policy.forgetResumeToken", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the second resume lose its position, so the report never arrives and the call hangs until its maximum"},
	"broken-forget-resume-token":             {Path: "client.policy.forgetResumeToken", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the second resume send Last-Event-ID 2 again and the report arrive"},
	"give-up-tells-server":                   {Path: "client.policy.cancelOnAbandon", Value: "false", Observe: "verdict", From: "good", To: "bad", Watch: "the client give up in silence and the server answer a call nobody waits for"},
	"broken-abandon-silently":                {Path: "client.policy.cancelOnAbandon", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "the timeout send notifications/cancelled and the server stop"},
	"cancel-ends-the-wait":                   {Path: "client.policy.awaitResponseAfterCancel", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the cancelled call never end for the client"},
	"broken-await-after-cancel":              {Path: "client.policy.awaitResponseAfterCancel", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the call end at the cancel"},
	"cancel-before-first-event":              {Path: "client.policy.cancelAfterFirstEvent", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the close wait until the result is written"},
	"broken-cancel-after-first-event":        {Path: "client.policy.cancelAfterFirstEvent", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the close go out at the timeout and the work stop"},
	"resume-with-last-event-id":              {Path: "client.policy.omitLastEventId", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the resumed stream replay nothing"},
	"broken-resume-without-last-event-id":    {Path: "client.policy.omitLastEventId", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the GET carry Last-Event-ID and the missed progress arrive"},
	"dropped-call-resumed":                   {Path: "client.policy.resumeDroppedCalls", Value: "false", Observe: "verdict", From: "good", To: "bad", Watch: "the dropped call hang for ever"},
	"broken-dropped-call-not-resumed":        {Path: "client.policy.resumeDroppedCalls", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "the client resume the stream and get the result"},
	"refetch-after-reconnect":                {Path: "client.policy.skipRefetch", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the client keep its stale tool list"},
	"broken-skip-refetch":                    {Path: "client.policy.skipRefetch", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the client refetch tools/list after the reconnect"},
	"retry-loop-backs-off":                   {Path: "herd.strategy", Value: `"none"`, Observe: "verdict", From: "good", To: "bad", Watch: "the client retry every 250 ms through the whole outage"},
	"broken-constant-retry-loop":             {Path: "herd.strategy", Value: `"reference"`, Observe: "verdict", From: "intended", To: "good", Watch: "the client's delays double while the server is down"},
	"resume-replays-own-stream":              {Path: "server.policy.replayAllStreams", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "call 2's progress arrive a second time, on call 1's stream"},
	"broken-replay-all-streams":              {Path: "server.policy.replayAllStreams", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the resumed stream replay only call 1's missed progress"},
	"request-has-timeout":                    {Path: "client.policy.timeouts", Value: `"none"`, Observe: "verdict", From: "good", To: "bad", Watch: "the silent call wait for ever"},
	"broken-no-timeout":                      {Path: "client.policy.timeouts", Value: `"required"`, Observe: "verdict", From: "intended", To: "good", Watch: "the idle timeout cut the silent call at 1,000 ms"},
	"flagship-with-idempotency-key":          {Path: "server.policy.dedupeBy", Value: `"rpc-id"`, Observe: "verdict", From: "good", To: "bad", Watch: "the retry with the new id \"41-r1\" charge a second time"},
	"broken-buffer-unbounded":                {Path: "buffer.capacity", Value: "4", Observe: "verdict", From: "intended", To: "good", Watch: "the bounded buffer coalesce the stale progress"},
	"broken-late-progress-fatal":             {Path: "client.policy.lateProgressIsError", Value: "false", Observe: "outcomes", From: "completed client-error", To: "completed completed", Watch: "the client ignore the late progress and call 2 complete"},
	"late-progress-ignored":                  {Path: "client.policy.lateProgressIsError", Value: "true", Observe: "outcomes", From: "completed completed", To: "completed client-error", Watch: "the late progress tear the session down and fail call 2"},
	"broken-proxy-ignores-no-buffering":      {Path: "proxy.buffering", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "each progress notification arrive as it is sent"},
	"proxy-honours-no-buffering":             {Path: "server.sseHeaders", Value: "false", Observe: "verdict", From: "good", To: "bad", Watch: "the proxy hold the progress until the final response"},
	"broken-proxy-timeout-before-first-byte": {Path: "server.sseHeaders", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "the progress get through and keep the idle timeout from firing"},
	"handler-cancel-propagates":              {Path: "server.policy.respondAfterCancel", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the framework answer the request it cancelled"},
	"broken-handler-answers-after-cancel":    {Path: "server.policy.respondAfterCancel", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the server write nothing more after the cancellation"},
	"handler-cancel-not-swallowed":           {Path: "server.policy.handlerIgnoresCancel", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the charge commit for a caller who left"},
	"broken-handler-swallows-cancel":         {Path: "server.policy.handlerIgnoresCancel", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "the handler stop at its checkpoint, before the charge"},
	"handler-releases-lock":                  {Path: "server.policy.releaseOnCancel", Value: "false", Observe: "verdict", From: "good", To: "bad", Watch: "call 2 wait for a lock nobody releases"},
	"broken-handler-keeps-lock":              {Path: "server.policy.releaseOnCancel", Value: "true", Observe: "verdict", From: "intended", To: "good", Watch: "call 2 get the lock as call 1 stops, and answer"},
	"handler-progress-streams":               {Path: "server.policy.holdNotifications", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "the idle timeout cut the call whose progress is held back"},
	"broken-hold-notifications":              {Path: "server.policy.holdNotifications", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "each progress notification keep the call alive until it completes"},
	"responses-routed-by-request":            {Path: "server.policy.routeByIdOnly", Value: "true", Observe: "verdict", From: "good", To: "bad", Watch: "call 1's answer go to the other caller"},
	"broken-route-by-id-only":                {Path: "server.policy.routeByIdOnly", Value: "false", Observe: "verdict", From: "intended", To: "good", Watch: "call 1 get its own answer on its own stream"},
	"herd-no-backoff":                        {Path: "herd.strategy", Value: `"reference"`, Observe: "verdict", From: "intended", To: "good", Watch: "every client get back in"},
}

// observe reads what a tryIt's Observe names from a run.
func observe(tr *trace.Trace, what string) string {
	var r trace.Request
	if len(tr.Requests) > 0 {
		r = tr.Requests[0]
	}
	switch what {
	case "verdict":
		return newVerdict(tr).Key
	case "outcome":
		return outcomeOf(r).Key
	case "signal":
		if r.Signal != nil {
			return *r.Signal
		}
	case "cause":
		if r.Cause != nil {
			return *r.Cause
		}
	case "outcomes":
		keys := make([]string, len(tr.Requests))
		for i, r := range tr.Requests {
			keys[i] = outcomeOf(r).Key
		}
		return strings.Join(keys, " ")
	}
	return ""
}

// tryItNamed returns the Try-it of the built-in scenario called name.
func tryItNamed(name string) (tryIt, bool) {
	t, ok := tryIts[name]
	return t, ok
}

// tryItFor returns the Try-it of a page: its entry in tryIts, else the
// cancellation race of its script as the run shows it (raceTry); ok is
// false when neither applies.
func tryItFor(name string, tr *trace.Trace) (tryIt, bool) {
	if t, ok := tryItNamed(name); ok {
		return t, true
	}
	if tr == nil || tr.Scenario == nil {
		return tryIt{}, false
	}
	return raceTry(tr)
}

// raceTry is the Try-it of a script that cancels a request the server also
// completes: move the cancel to the other side of the completion, so the
// outcome the page shows on load flips. From a page that opens on
// "cancellation wins" the cancel goes 100 ms past the completion; from one
// that opens on "completion wins" it goes to the request's start (0 ms
// after its call), before anything else happens.
func raceTry(tr *trace.Trace) (tryIt, bool) {
	s := tr.Scenario
	cancelAt, completeAt, callAt := map[string]int{}, map[string]int64{}, map[string]int64{}
	for i, st := range s.Steps {
		if st.ID == nil {
			continue
		}
		switch st.Do {
		case scenario.VerbCancel:
			cancelAt[st.ID.Raw()] = i
		case scenario.VerbComplete:
			completeAt[st.ID.Raw()] = st.At
		case scenario.VerbCall:
			callAt[st.ID.Raw()] = st.At
		}
	}
	for _, r := range tr.Requests {
		i, ok := cancelAt[r.ID.Raw()]
		done, ok2 := completeAt[r.ID.Raw()]
		if !ok || !ok2 {
			continue
		}
		from := outcomeOf(r).Key
		t := tryIt{Path: "steps[" + strconv.Itoa(i) + "].at", Observe: "outcome", From: from}
		const httpCancel = "switch “Transport” to Streamable HTTP and see the cancellation travel as a closed stream instead of notifications/cancelled."
		switch from {
		case "cancellation-wins":
			t.Value, t.To, t.Watch = strconv.FormatInt(done+100, 10), "completion-wins", "the outcome flip from “cancellation wins” to “completion wins”"
			// Past the completion no cancellation is sent, so the
			// transport switch needs the cancel back where it was.
			if s.Transport == scenario.TransportStdio {
				t.Also = "Then drag it back to " + strconv.FormatInt(s.Steps[i].At, 10) + " ms, before the completion at " + strconv.FormatInt(done, 10) + " ms, " + httpCancel
			}
		case "completion-wins":
			t.Value, t.To, t.Watch = strconv.FormatInt(callAt[r.ID.Raw()], 10), "cancellation-wins", "the outcome flip from “completion wins” to “cancellation wins”"
			if s.Transport == scenario.TransportStdio {
				t.Also = "Then " + httpCancel
			}
		default:
			continue
		}
		return t, true
	}
	return tryIt{}, false
}

// text writes the Try-it in the words of the page's controls: "Tick
// “Progress resets the maximum timeout” and watch …", "Set “Backoff
// strategy” to “none: lockstep (broken)” …", "Drag “Client cancels 7 at” to
// 400 ms …". Empty when groups has no control at t.Path.
func (t tryIt) text(groups []controlGroup) string {
	c, ok := findControl(groups, t.Path)
	if !ok {
		return ""
	}
	var b strings.Builder
	switch c.Kind {
	case controlCheckbox:
		if t.Value == "true" {
			b.WriteString("Tick “" + c.Label + "”")
		} else {
			b.WriteString("Untick “" + c.Label + "”")
		}
	case controlSelect:
		var v string
		_ = json.Unmarshal([]byte(t.Value), &v)
		label := v
		for _, o := range c.Options {
			if o.Value == v {
				label = o.Label
			}
		}
		b.WriteString("Set “" + c.Label + "” to “" + label + "”")
	case controlRange:
		b.WriteString("Drag “" + c.Label + "” to " + t.Value + " " + c.Unit)
	default:
		b.WriteString("Set “" + c.Label + "” to " + t.Value)
		if c.Unit != "" {
			b.WriteString(" " + c.Unit)
		}
	}
	b.WriteString(" and watch " + t.Watch + ".")
	if t.Also != "" {
		b.WriteString(" " + t.Also)
	}
	return b.String()
}

// findControl returns the control at path.
func findControl(groups []controlGroup, path string) (control, bool) {
	for _, g := range groups {
		for _, c := range g.Controls {
			if c.Path == path {
				return c, true
			}
		}
	}
	return control{}, false
}

// markLead marks the controls at paths as leading the page (drawn before
// "More switches").
func markLead(groups []controlGroup, paths ...string) {
	for gi := range groups {
		for ci := range groups[gi].Controls {
			for _, p := range paths {
				if groups[gi].Controls[ci].Path == p {
					groups[gi].Controls[ci].Lead = true
				}
			}
		}
	}
}

// isBrokenValue reports a control showing a known-broken setting of s (the
// switches brokenSwitches lists), which leads its page.
func isBrokenValue(s *scenario.Scenario, path string) bool {
	p, sp := s.Client.Policy, s.Server.Policy
	switch path {
	case "client.policy.progressResetsMax":
		return p.ProgressResetsMax
	case "client.policy.acceptNonIncreasingProgress":
		return p.AcceptNonIncreasingProgress
	case "client.policy.sendLastEventId":
		return p.SendLastEventID
	case "client.policy.treatTaskAckAsFinal":
		return p.TreatTaskAckAsFinal
	case "client.policy.forgetResumeToken":
		return p.ForgetResumeToken && s.Protocol == scenario.Protocol20251125
	case "client.policy.timeouts":
		return p.Timeouts == scenario.TimeoutsNone
	case "client.policy.cancelOnAbandon":
		return !p.CancelsOnAbandon()
	case "client.policy.awaitResponseAfterCancel":
		return p.AwaitResponseAfterCancel
	case "client.policy.cancelAfterFirstEvent":
		return p.CancelAfterFirstEvent && s.Transport == scenario.TransportHTTP
	case "client.policy.omitLastEventId":
		return p.OmitLastEventID && s.Protocol == scenario.Protocol20251125
	case "client.policy.resumeDroppedCalls":
		return !p.ResumesDroppedCalls() && s.Protocol == scenario.Protocol20251125
	case "client.policy.skipRefetch":
		return p.SkipRefetch
	case "server.policy.replayAllStreams":
		return sp.ReplayAllStreams && s.Protocol == scenario.Protocol20251125
	case "client.policy.httpCancel":
		return s.Transport == scenario.TransportHTTP && s.Protocol == scenario.Protocol20260728 && p.HTTPCancel == scenario.HTTPCancelPostNotification
	case "server.policy.respondAfterCancel":
		return sp.RespondAfterCancel
	case "server.policy.dedupeBy":
		return sp.DedupeBy == "rpc-id" || sp.DedupeBy == "none"
	case "server.policy.atomicLedger":
		return !scenario.On(sp.AtomicLedger)
	case "server.policy.defensiveCopy":
		return !scenario.On(sp.DefensiveCopy)
	case "server.policy.fingerprint":
		return !scenario.On(sp.Fingerprint)
	case "server.sseHeaders":
		return !scenario.On(s.Server.SSEHeaders)
	}
	return false
}

// generalGroups are the groups every scenario has; the rest are its own.
var generalGroups = map[string]bool{"controls-network": true, "controls-client": true, "controls-server": true}

// splitPanel splits the groups into the leading ones and those under "More
// switches" (ControlPanel).
func splitPanel(groups []controlGroup) (lead, more []controlGroup) {
	story := controlGroup{ID: "controls-story", Title: "This story's switches"}
	for _, g := range groups {
		if !generalGroups[g.ID] {
			lead = append(lead, g)
			continue
		}
		rest := g
		rest.Controls = nil
		for _, c := range g.Controls {
			if c.Lead {
				story.Controls = append(story.Controls, c)
			} else {
				rest.Controls = append(rest.Controls, c)
			}
		}
		if len(rest.Controls) > 0 {
			more = append(more, rest)
		}
	}
	if len(story.Controls) > 0 {
		lead = append([]controlGroup{story}, lead...)
	}
	if len(lead) == 0 {
		return more, nil
	}
	return lead, more
}

// markNamed marks as Lead every control whose label the hint quotes
// (“Transport”), so what the Try-it names is on screen.
func markNamed(groups []controlGroup, hint string) {
	for gi := range groups {
		for ci := range groups[gi].Controls {
			c := &groups[gi].Controls[ci]
			if strings.Contains(hint, "“"+c.Label+"”") {
				c.Lead = true
			}
		}
	}
}

// stripTransport drops a trailing " (stdio)" or " (Streamable HTTP)" from
// a title: the page's controls can switch the transport, and the verdict
// says the one the run used (verdict.Where), so the title never
// contradicts it.
func stripTransport(title string) string {
	for _, t := range []string{" (stdio)", " (Streamable HTTP)", " (streamable-http)"} {
		title = strings.TrimSuffix(title, t)
	}
	return title
}
