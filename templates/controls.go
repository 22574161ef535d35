package templates

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// control kinds (how a control is drawn).
const (
	controlSelect   = "select"
	controlNumber   = "number"
	controlRange    = "range"
	controlCheckbox = "checkbox"
)

// controlGroup is a titled set of controls (a fieldset).
type controlGroup struct {
	ID       string // DOM id of the fieldset
	Title    string
	Controls []control
}

// control is one input that edits one member of the scenario. The page
// carries Path as data-path and ValueKind as data-kind; the browser glue
// applies the DOM value with scenario.Edit (path, kind, value), then re-runs
// the scenario.
type control struct {
	ID        string // DOM id: "ctl-" + Path with every non-alphanumeric as "-"
	Path      string // the scenario.SetPath path, e.g. "steps[2].at"
	Label     string
	Kind      string // a control* value
	ValueKind string // a scenario.Value* kind
	Value     string // current value as the control shows it
	Checked   bool   // checkbox state
	Options   []option
	Min, Max  int64 // number and range bounds: a number's are the decoder's (for an optional number Min is 0, none)
	Unit      string
	Help      string
	// Lead is true for a control the page's story or Try-it names (a
	// known-broken switch that is on, the Try-it's control): ControlPanel
	// draws it before "More switches".
	Lead bool
}

// option is one choice of a select control.
type option struct {
	Value, Label string
	Selected     bool
}

// NewControls derives the page's controls from a normalized scenario: the
// transport and protocol; the latency each way; a slider for the time of
// every cancel, complete, fail, progress, disconnect, drop, retry,
// mutate-result, reopen-ledger and task step; the client's timeouts (the
// request's own, where a call sets them); every policy switch of
// scenario.ClientPolicy and scenario.ServerPolicy (the ledger's switches
// only when the scenario has a ledger); the SSE headers on Streamable HTTP;
// and a group for each section the scenario has: the SSE buffer and its
// consumer, the proxy, the ledger's replicas, the reconnect herd (a
// scenario with a herd and no steps gets only that group). endMs (the
// trace's last event time) sets the sliders' range with the step times. A
// nil scenario has no controls.
func NewControls(s *scenario.Scenario, endMs int64) []controlGroup {
	if s == nil {
		return nil
	}
	net := networkControls(s)
	script, client := scriptControls(s, endMs)
	if len(client.Controls) == 0 { // no call sets its own timeouts
		client.Controls = append(client.Controls,
			optionalControl("client.idleTimeoutMs", "Idle timeout", s.Client.IdleTimeoutMs,
				"How long a request may go without progress. 0 = none."),
			optionalControl("client.maxTimeoutMs", "Maximum timeout", s.Client.MaxTimeoutMs,
				"Absolute budget from the request's start; nothing resets it. 0 = none."))
	}
	client.Controls = append(client.Controls, policyControls("client.policy", reflect.ValueOf(s.Client.Policy))...)
	client.Controls = append(client.Controls, retryControls(s.Client.Policy.Retry)...)
	server, ledger := serverControls(s)
	if s.Herd != nil && len(s.Steps) == 0 {
		// A pure herd experiment: nothing else of the scenario runs.
		return []controlGroup{herdControls(s.Herd)}
	}
	// The scenario's own sections first: they hold what its page is about.
	groups := []controlGroup{net}
	if s.Buffer != nil {
		groups = append(groups, bufferControls(s))
	}
	if s.Proxy != nil {
		groups = append(groups, controlGroup{ID: "controls-proxy", Title: "Proxy", Controls: []control{
			checkboxControl("proxy.buffering", "Proxy buffers responses", s.Proxy.Buffering,
				"A buffering proxy holds bytes until it has flushBytes or the stream ends, unless the server sent X-Accel-Buffering: no."),
			countControl("proxy.flushBytes", "Proxy flushes at", int64(s.Proxy.FlushBytes), 1, 1<<30, "bytes", "How many bytes a buffering proxy holds before it forwards them."),
			countControl("proxy.idleCloseMs", "Proxy closes idle streams after", s.Proxy.IdleCloseMs, 0, scenario.MaxDurationMs, "ms", "A stream through which no byte passed for this long is closed (keep-alive comments count). 0 = never."),
		}})
	}
	if s.Ledger != nil {
		ledger.Controls = append(ledger.Controls,
			countControl("ledger.replicas", "Server replicas", int64(s.Ledger.Replicas), 1, 8, "replicas", "Ledger calls go to the replicas in turn (1 to 8)."),
			checkboxControl("ledger.shared", "Replicas share one ledger", s.Ledger.Shared,
				"Untick to break: each replica keeps its own database and forgets the others' commits."))
		groups = append(groups, ledger)
	}
	if s.Herd != nil {
		groups = append(groups, herdControls(s.Herd))
	}
	if len(script.Controls) > 0 {
		groups = append(groups, script)
	}
	groups = append(groups, client, server)
	for gi := range groups {
		for ci := range groups[gi].Controls {
			c := &groups[gi].Controls[ci]
			c.Lead = c.Lead || isBrokenValue(s, c.Path)
		}
	}
	numberSameLabels(groups)
	return groups
}

// networkControls is the group of the transport and the network.
func networkControls(s *scenario.Scenario) controlGroup {
	net := controlGroup{ID: "controls-network", Title: "Transport and network"}
	net.Controls = append(net.Controls,
		selectControl("transport", "Transport", s.Transport,
			"stdio is one pipe; Streamable HTTP gives each request its own response stream.",
			option{Value: scenario.TransportStdio, Label: "stdio"},
			option{Value: scenario.TransportHTTP, Label: "Streamable HTTP"}),
		selectControl("protocol", "Protocol revision", s.Protocol,
			"2026-07-28 cancels over HTTP by closing the stream; 2025-11-25 POSTs notifications/cancelled.",
			option{Value: scenario.Protocol20260728, Label: "2026-07-28 (current)"},
			option{Value: scenario.Protocol20251125, Label: "2025-11-25"}),
		numberControl("latencyMs.up", "Latency client → server", s.LatencyMs.Up, "One-way network delay."),
		numberControl("latencyMs.down", "Latency server → client", s.LatencyMs.Down, "One-way network delay."),
	)
	return net
}

// scriptControls are a slider for each step's time (the script group) and
// the timeouts of the calls that set their own (the client group); a
// produce step adds its rate and count.
func scriptControls(s *scenario.Scenario, endMs int64) (script, client controlGroup) {
	script = controlGroup{ID: "controls-script", Title: "When things happen"}
	hi := sliderMax(s, endMs)
	client = controlGroup{ID: "controls-client", Title: "Client"}
	for i, st := range s.Steps {
		path := fmt.Sprintf("steps[%d]", i)
		id := ""
		if st.ID != nil {
			id = st.ID.String()
		}
		label, ok := stepControls(st, path, id, &script, &client)
		if !ok {
			continue
		}
		c := control{
			ID: controlID(path + ".at"), Path: path + ".at", Label: label,
			Kind: controlRange, ValueKind: scenario.ValueInteger, Value: strconv.FormatInt(st.At, 10),
			Min: 0, Max: max(hi, st.At), Unit: "ms", Help: stepHelp[st.Do],
		}
		script.Controls = append(script.Controls, c)
	}
	return script, client
}

// stepControls is the label of a step's time slider, or false for a step
// without one; a produce step adds its rate and count to script, a call
// step its own timeouts to client.
func stepControls(st scenario.Step, path, id string, script, client *controlGroup) (string, bool) {
	var label string
	switch st.Do {
	case scenario.VerbCancel:
		label = "Client cancels " + id + " at"
	case scenario.VerbComplete:
		label = "Server completes " + id + " at"
	case scenario.VerbFail:
		label = "Server fails " + id + " at"
	case scenario.VerbDisconnect:
		label = "Network drops " + id + " at"
	case scenario.VerbDrop:
		label = "Stream " + id + " drops at"
	case scenario.VerbRetry:
		of := ""
		if st.Of != nil {
			of = st.Of.String()
		}
		label = "Client retries " + of + " as " + id + " at"
	case scenario.VerbMutateResult:
		of := ""
		if st.Of != nil {
			of = st.Of.String()
		}
		label = "Caller edits the result of " + of + " at"
	case scenario.VerbReopenLedger:
		label = "Ledger closed and reopened at"
	case scenario.VerbTaskCancel:
		label = "Client cancels task " + st.TaskID + " at"
	case scenario.VerbTaskGet:
		label = "Client polls task " + st.TaskID + " at"
	case scenario.VerbCheckpoint:
		label = "Worker checkpoint of " + st.TaskID + " at"
	case scenario.VerbFinishTask:
		label = "Worker finishes " + st.TaskID + " at"
	case scenario.VerbProgress:
		label = "Progress"
		if st.Progress != nil {
			label += " " + strconv.FormatFloat(*st.Progress, 'f', -1, 64)
			if st.Total != nil {
				label += "/" + strconv.FormatFloat(*st.Total, 'f', -1, 64)
			}
		}
		label += " for " + id + " at"
	case scenario.VerbProduce:
		every := numberControl(path+".everyMs", "Progress every (production rate of "+id+")", st.EveryMs, "The server reports progress this often.")
		count := numberControl(path+".count", "Progress values for "+id, int64(st.Count), "How many values it reports (1 to 1000).")
		every.Min, count.Min, count.Max, count.Unit = 1, 1, scenario.MaxProduceCount, "values"
		script.Controls = append(script.Controls, every, count)
		label = "Server starts reporting progress for " + id + " at"
	case scenario.VerbCall:
		if st.IdleTimeoutMs != nil {
			client.Controls = append(client.Controls, optionalControl(path+".idleTimeoutMs",
				"Idle timeout of "+id, *st.IdleTimeoutMs, "Progress resets it. 0 = none."))
		}
		if st.MaxTimeoutMs != nil {
			client.Controls = append(client.Controls, optionalControl(path+".maxTimeoutMs",
				"Maximum timeout of "+id, *st.MaxTimeoutMs, "Nothing resets it. 0 = none."))
		}
		return "", false
	default:
		return "", false
	}
	return label, true
}

// serverControls are the server's switches and those of the idempotency
// ledger its policy holds.
func serverControls(s *scenario.Scenario) (server, ledger controlGroup) {
	server = controlGroup{ID: "controls-server", Title: "Server"}
	ledger = controlGroup{ID: "controls-ledger", Title: "Idempotency ledger"}
	for _, c := range policyControls("server.policy", reflect.ValueOf(s.Server.Policy)) {
		if handlerPolicies[c.Path] && len(s.Server.Handlers) == 0 || c.Path == "server.policy.routeByIdOnly" && s.Transport != scenario.TransportHTTP {
			continue // a handler's switches with handlers; response routing on Streamable HTTP
		}
		if ledgerPolicies[c.Path] {
			showKeyless(&c, s)
			ledger.Controls = append(ledger.Controls, c)
			continue
		}
		server.Controls = append(server.Controls, c)
	}
	if s.Transport == scenario.TransportHTTP || s.Proxy != nil {
		server.Controls = append(server.Controls, checkboxControl("server.sseHeaders",
			"Send the SSE headers (X-Accel-Buffering: no)", scenario.On(s.Server.SSEHeaders),
			"Untick to break: without them a proxy may buffer the stream and deliver progress in a burst."))
	}
	server.Controls = append(server.Controls,
		optionalControl("server.keepaliveEveryMs", "SSE keep-alive every", s.Server.KeepaliveEveryMs,
			"Comment lines on open HTTP streams; they are not progress. 0 = none."),
	)
	server.Controls = append(server.Controls, handlerControls(s.Server)...)
	return server, ledger
}

// stepHelp says in words what a step's time slider moves, by verb.
var stepHelp = map[scenario.Verb]string{
	scenario.VerbCancel:       "When the client gives up and sends its cancellation.",
	scenario.VerbComplete:     "When the server's handler finishes and sends its result.",
	scenario.VerbFail:         "When the server's handler fails and sends an error.",
	scenario.VerbDisconnect:   "When the connection under the request breaks.",
	scenario.VerbDrop:         "When the response stream breaks.",
	scenario.VerbRetry:        "When the client sends the same call again under a new JSON-RPC id.",
	scenario.VerbMutateResult: "When the caller edits the result object it received.",
	scenario.VerbReopenLedger: "When the server closes its ledger database and opens it again.",
	scenario.VerbTaskCancel:   "When the client asks the task to stop.",
	scenario.VerbTaskGet:      "When the client asks for the task's status.",
	scenario.VerbCheckpoint:   "When the worker next checks whether it should stop.",
	scenario.VerbFinishTask:   "When the worker finishes the task.",
	scenario.VerbProgress:     "When the server reports this progress.",
	scenario.VerbProduce:      "When the server starts reporting progress.",
}

// bufferControls are the SSE buffer's capacity and policy and the
// consumer's drain rate (DOMAIN.md §7).
func bufferControls(s *scenario.Scenario) controlGroup {
	g := controlGroup{ID: "controls-buffer", Title: "SSE buffer and consumer"}
	g.Controls = append(g.Controls,
		countControl("buffer.capacity", "Buffer capacity", int64(s.Buffer.Capacity), 0, 100_000, "events",
			"Events the server's buffer holds per stream: 0 = unbounded, otherwise at least 2."),
		selectControl("buffer.policy", "When the buffer is full", cmp(s.Buffer.Policy, "evict-progress"),
			"Progress is replaceable, a final response is not.",
			option{Value: "evict-progress", Label: "evict progress, keep the final"},
			option{Value: "drop-newest", Label: "refuse what comes next (broken)"}),
	)
	if s.Consumer != nil {
		g.Controls = append(g.Controls,
			countControl("consumer.drainEveryMs", "Client drains every", s.Consumer.DrainEveryMs, 1, scenario.MaxDurationMs, "ms", "How often the slow client reads from its stream."),
			countControl("consumer.batch", "Events per drain", int64(s.Consumer.Batch), 1, 100_000, "events", "How many events the client reads each time."),
		)
	}
	return g
}

// strategyOptions are the Backoff strategy control's options: every value
// herd.strategy accepts, in scenario.HerdStrategies' order
// (TestStrategyOptionsAreTheFormats), so the control cannot lack the one
// a scenario runs.
var strategyOptions = []option{
	{Value: scenario.HerdReference, Label: "reference (capped, jittered)"},
	{Value: scenario.HerdNone, Label: "none: lockstep (broken)"},
	{Value: scenario.HerdFullJitter, Label: "full jitter"},
	{Value: scenario.HerdEqualJitter, Label: "equal jitter"},
	{Value: scenario.HerdDecorrelated, Label: "decorrelated jitter"},
	{Value: scenario.HerdExponential, Label: "exponential: lockstep waves (broken)"},
}

// herdControls are the reconnect herd's parameters (SCENARIO.md, Herd).
func herdControls(h *scenario.Herd) controlGroup {
	return controlGroup{ID: "controls-herd", Title: "Reconnect herd", Controls: []control{
		selectControl("herd.strategy", "Backoff strategy", h.Strategy,
			"How each refused client picks its next delay: the reference is capped exponential backoff with hashed jitter; none is a constant delay with no jitter; exponential grows without jitter.",
			append([]option(nil), strategyOptions...)...), // selectControl marks the chosen one: a copy
		countControl("herd.clients", "Clients", int64(h.Clients), 1, 100_000, "clients", "All lose their stream at 0 ms (at most 100,000)."),
		countControl("herd.serverCapacityPerSecond", "Server capacity", int64(h.ServerCapacityPerSecond), 1, 10_000_000, "per second", "Reconnects the server admits in each whole second; it refuses the rest."),
		countControl("herd.baseMs", "Base delay", h.BaseMs, 1, 60_000, "ms", "The first attempt's ceiling."),
		countControl("herd.capMs", "Cap", h.CapMs, 1, 60_000, "ms", "No delay window grows past it."),
		countControl("herd.maxAttempts", "Attempts per client", int64(h.MaxAttempts), 1, 20, "attempts", "A client that is refused this many times gives up (at most 20)."),
	}}
}

// tryHint suggests what to change on a scenario's page, from its steps: the
// cancellation race when a request is both cancelled and completed, the
// deadlines when there is progress under the client's own idle or maximum
// timeout and nothing else to tell, else a general hint.
func tryHint(s *scenario.Scenario) string {
	if s == nil {
		return ""
	}
	cancelled, completed, progress := map[string]bool{}, map[string]bool{}, false
	for _, st := range s.Steps {
		id := ""
		if st.ID != nil {
			id = st.ID.Raw()
		}
		switch st.Do {
		case scenario.VerbCancel:
			cancelled[id] = true
		case scenario.VerbComplete, scenario.VerbFail:
			completed[id] = true
		case scenario.VerbProgress, scenario.VerbProduce:
			progress = true
		}
	}
	for id := range cancelled {
		if completed[id] {
			return "Drag the cancel time past the completion time and watch the outcome flip from “cancellation wins” to “completion wins”. Then switch the transport to Streamable HTTP and see the cancellation signal change from notifications/cancelled to a closed stream."
		}
	}
	// The deadlines are the story only of a scenario whose client has a
	// timeout and none of a proxy, a buffer, a ledger or a herd to tell.
	idle, max := s.Client.IdleTimeoutMs > 0, s.Client.MaxTimeoutMs > 0
	if progress && (idle || max) && s.Proxy == nil && s.Buffer == nil && s.Ledger == nil && s.Herd == nil {
		switch {
		case idle && max:
			return "Move a progress step, or change the “Idle timeout” and the “Maximum timeout”, and watch which deadline cuts the request. Tick “Progress resets the maximum timeout” to see hung work live on."
		case idle:
			return "Move a progress step, or change the “Idle timeout”, and watch when it cuts the request."
		default:
			return "Move a progress step, or change the “Maximum timeout”, and watch when it cuts the request. Tick “Progress resets the maximum timeout” to see hung work live on."
		}
	}
	return "Change any control: the scenario re-runs in your browser and the timeline, summary and checks redraw."
}

// sliderMax is the top of the time sliders: half again the latest step,
// timeout or event, rounded up to a tick step, at least 100 ms.
func sliderMax(s *scenario.Scenario, endMs int64) int64 {
	m := max(endMs, s.Client.IdleTimeoutMs, s.Client.MaxTimeoutMs)
	for _, st := range s.Steps {
		m = max(m, st.At)
		if st.MaxTimeoutMs != nil {
			m = max(m, *st.MaxTimeoutMs)
		}
	}
	m = m * 3 / 2
	step := niceStep(m)
	return max(100, (m+step-1)/step*step)
}

func selectControl(path, label, value, help string, opts ...option) control {
	for i := range opts {
		opts[i].Selected = opts[i].Value == value
	}
	return control{ID: controlID(path), Path: path, Label: label, Kind: controlSelect,
		ValueKind: scenario.ValueString, Value: value, Options: opts, Help: help}
}

// numberControl is a time in ms: 0 up to the decoder's bound on every
// time, scenario.MaxDurationMs (86,400,000 ms, one virtual day).
func numberControl(path, label string, value int64, help string) control {
	return control{ID: controlID(path), Path: path, Label: label, Kind: controlNumber,
		ValueKind: scenario.ValueInteger, Value: strconv.FormatInt(value, 10), Min: 0, Max: scenario.MaxDurationMs, Unit: "ms", Help: help}
}

// countControl is a whole number with its own unit and range (the
// decoder's, as the published schema states it: minimum..maximum), kept as
// given (0 is a value, not "none").
func countControl(path, label string, value, minimum, maximum int64, unit, help string) control {
	c := numberControl(path, label, value, help)
	c.Min, c.Max, c.Unit = minimum, maximum, unit
	return c
}

// optionalControl is a time in ms where 0 means none (the member is
// removed), up to scenario.MaxDurationMs.
func optionalControl(path, label string, value int64, help string) control {
	c := numberControl(path, label, value, help)
	c.ValueKind = scenario.ValueOptionalInteger
	return c
}

func checkboxControl(path, label string, checked bool, help string) control {
	return control{ID: controlID(path), Path: path, Label: label, Kind: controlCheckbox,
		ValueKind: scenario.ValueBool, Value: strconv.FormatBool(checked), Checked: checked, Help: help}
}

// controlID turns a path into a DOM id: "ctl-" + the path with every byte
// that is not an ASCII letter or digit replaced by "-".
func controlID(path string) string {
	b := []byte("ctl-" + path)
	for i := 4; i < len(b); i++ {
		c := b[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return strings.TrimRight(string(b), "-")
}

// IndexEntry is one built-in scenario on the index page.
type IndexEntry struct {
	Name, Title, Summary string
	Href                 string // link to its page, relative to the index
	Transport, Protocol  string
	Outcomes             []outcome
	Pass, Fail           int
	Undecided            int
	// Verdict is the run's headline (the lesson's point); Cards its
	// outcomes in words, repeats summarized.
	Verdict verdict
	Cards   []outcomeCard
	// group is the index section: "cancel", "idempotency", "flow",
	// "recovery" or "broken" (groupOf).
	group string
	// unjudged is set when the tally leaves out rule message-valid, which
	// only `mcplab run -checks` judges (View.judged): the index says so
	// once, above every card.
	unjudged bool
}

// Group is the entry's index section: "cancel", "idempotency", "flow",
// "recovery" or "broken" (groupOf); the playground's picker groups the
// built-in scenarios by it (PlaygroundExample.Group).
func (e IndexEntry) Group() string { return e.group }

// tally says the check results in words, e.g. "checks: 5 pass, 1 fail".
func (e IndexEntry) tally() string {
	s := "checks: " + strconv.Itoa(e.Pass) + " pass"
	if e.Fail > 0 {
		s += ", " + strconv.Itoa(e.Fail) + " fail"
	}
	if e.Undecided > 0 {
		s += ", " + strconv.Itoa(e.Undecided) + " undecided"
	}
	if e.Verdict.Intended() {
		s += " on purpose"
	}
	return s
}

// indexSection is a titled group of scenarios on the index page.
type indexSection struct {
	ID, Title, Intro string
	Entries          []IndexEntry
}

// groupEntries sorts the index into the README's sections ("What the lab
// covers") plus the failure modes, by groupOf, each in the given order with
// the lettered lesson scenarios (a-, b-, ...) and the flagship first.
// Empty sections are left out.
func groupEntries(entries []IndexEntry) []indexSection {
	secs := []indexSection{
		{ID: "cancel", Title: "Cancellation and timeouts", Intro: "Who wins when a client cancels while the server finishes, how each transport carries the cancellation, and which deadline cuts a request."},
		{ID: "idempotency", Title: "Idempotency on real SQLite", Intro: "A retry must not charge twice: what an idempotency key, one transaction and a defensive copy each prevent."},
		{ID: "flow", Title: "Flow control", Intro: "Slow clients, buffers and proxies: progress may be coalesced or delayed, a final response never dropped."},
		{ID: "recovery", Title: "Recovery", Intro: "A dropped stream comes back as a new request and a refetch; thousands of clients come back without a stampede."},
		{ID: "broken", Title: "Failure modes, one switch away", Intro: "Each of these turns one policy to its known-broken value: the failing check is the lesson. Flip the switch back on the page and watch it pass."},
	}
	at := map[string]int{}
	for i, s := range secs {
		at[s.ID] = i
	}
	for _, e := range entries {
		i := at[cmp(e.group, "cancel")]
		secs[i].Entries = append(secs[i].Entries, e)
	}
	for i := range secs {
		slices.SortStableFunc(secs[i].Entries, func(a, b IndexEntry) int {
			return cmpBool(!leadsGroup(a.Name), !leadsGroup(b.Name))
		})
	}
	return slices.DeleteFunc(secs, func(s indexSection) bool { return len(s.Entries) == 0 })
}

// leadsGroup reports the entries that open their section: the lettered
// lessons (a-, b-, ...) and the flagship story.
func leadsGroup(name string) bool {
	return len(name) > 2 && name[1] == '-' && 'a' <= name[0] && name[0] <= 'z' || strings.HasPrefix(name, "flagship-")
}

// groupOf places a scenario in an index section from its name, title and
// trace: the failure modes (named broken-..., titled Broken..., or whose
// failure is intended and not the flagship's), then idempotency (a ledger
// or retries), recovery (a herd, reconnects or listen streams), flow
// control (buffers, a proxy or durable tasks), else cancellation and
// timeouts.
func groupOf(name, title string, tr *trace.Trace, v verdict) string {
	if strings.HasPrefix(name, "broken-") || strings.HasPrefix(title, "Broken") {
		return "broken"
	}
	s := tr.Scenario
	if s == nil {
		return "cancel"
	}
	retries := false
	listen := false
	for _, st := range s.Steps {
		retries = retries || st.Do == scenario.VerbRetry
		listen = listen || st.Do == scenario.VerbListen || st.Do == scenario.VerbDrop
	}
	switch {
	case s.Ledger != nil || tr.Ledger.Executions > 0 || retries:
		return "idempotency"
	case v.Intended() && !strings.HasPrefix(name, "flagship-"):
		return "broken"
	case s.Herd != nil || len(tr.Reconnects) > 0 || listen:
		return "recovery"
	case s.Buffer != nil || s.Proxy != nil || len(tr.Tasks) > 0:
		return "flow"
	}
	return "cancel"
}

// NewIndexEntry describes a built-in scenario for the index from its name,
// title, summary, link and prerendered trace (nil for none).
func NewIndexEntry(name, title, summary, href string, tr *trace.Trace) IndexEntry {
	e := IndexEntry{Name: name, Title: title, Summary: summary, Href: href}
	if tr == nil {
		return e
	}
	if tr.Scenario != nil {
		e.Transport, e.Protocol = tr.Scenario.Transport, tr.Scenario.Protocol
	}
	v := NewView(tr)
	e.Outcomes, e.Pass, e.Fail, e.Undecided = v.Outcomes, v.Pass, v.Fail, v.Undecided
	e.Verdict, e.Cards = v.Verdict, v.Cards
	e.group = groupOf(name, title, tr, v.Verdict)
	e.unjudged = !v.judged(checks.MessageValid)
	return e
}

// handlerControls are the server's handlers' timings (server.handlers),
// in tool name order: how long each works, how often it reports progress
// and how often it checks for a cancellation (0: never reports; notices
// at once).
func handlerControls(srv scenario.Server) []control {
	names := make([]string, 0, len(srv.Handlers))
	for name := range srv.Handlers {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []control
	for _, name := range names {
		h, path := srv.Handlers[name], "server.handlers."+name
		out = append(out,
			countControl(path+".workMs", "Work of "+name, h.WorkMs, 1, scenario.MaxDurationMs, "ms", "How long the handler works, from when the request reaches the server (or the handler gets its lock)."),
			optionalControl(path+".progressEveryMs", "Progress every ("+name+")", h.ProgressEveryMs, "The handler reports progress this often, when the call carries a progress token. 0 = never."),
			optionalControl(path+".checkpointEveryMs", "Checkpoint every ("+name+")", h.CheckpointEveryMs, "How often the handler looks for a cancellation (an await, ctx.Err()); the end of the work always is one. 0 = it notices at once."),
		)
	}
	return out
}
