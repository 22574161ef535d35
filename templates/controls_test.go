package templates

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
)

func controlPaths(groups []controlGroup) []string {
	var out []string
	for _, g := range groups {
		for _, c := range g.Controls {
			out = append(out, c.Path)
		}
	}
	return out
}

// TestControlsOfScenarioA: scenario A gets the transport, protocol and
// latency controls, a slider for its progress, cancel and complete steps
// (not for the call), the client's timeouts and every policy switch.
func TestControlsOfScenarioA(t *testing.T) {
	tr := readTrace(t, "a-cancel-then-complete")
	groups := NewControls(tr.Scenario, tr.EndMs)
	got := controlPaths(groups)
	for _, want := range []string{
		"transport", "protocol", "latencyMs.up", "latencyMs.down",
		"steps[1].at", "steps[2].at", "steps[3].at",
		"client.idleTimeoutMs", "client.maxTimeoutMs",
		"client.policy.httpCancel", "client.policy.progressResetsMax", "client.policy.acceptNonIncreasingProgress",
		"server.policy.respondAfterCancel",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no control for %s; controls: %v", want, got)
		}
	}
	if slices.Contains(got, "steps[0].at") {
		t.Errorf("the call step got a time slider")
	}
	ids := map[string]bool{}
	for _, g := range groups {
		for _, c := range g.Controls {
			if ids[c.ID] {
				t.Errorf("duplicate control id %s", c.ID)
			}
			ids[c.ID] = true
			if c.Label == "" {
				t.Errorf("control %s has no label", c.Path)
			}
			if c.Path == "steps[2].at" {
				if c.Kind != controlRange || c.Value != "300" || c.Min != 0 || c.Max < 400 || c.Label != "Client cancels 7 at" {
					t.Errorf("cancel slider = %+v, want a range from 0 past the completion, at 300", c)
				}
			}
			if c.Path == "transport" && (c.Value != "stdio" || !c.Options[0].Selected || c.Options[1].Selected) {
				t.Errorf("transport select = %+v", c)
			}
		}
	}
}

// TestEveryPolicyHasAControl: each switch of scenario.ClientPolicy and
// scenario.ServerPolicy appears as a control (a checkbox for a bool, a
// select for a string) on a scenario with a ledger and handlers on
// Streamable HTTP, so a new policy is never unreachable from a page.
func TestEveryPolicyHasAControl(t *testing.T) {
	tr := readTrace(t, "a-cancel-then-complete")
	s := *tr.Scenario
	s.Ledger = &scenario.Ledger{Replicas: 1, Shared: true}
	s.Server.Handlers = map[string]scenario.Handler{"crunch": {WorkMs: 300}}
	s.Transport = scenario.TransportHTTP
	s.Client.Policy.Retry = &scenario.RetryPolicy{On: []string{scenario.RetryOnTimeout}, Max: 1, DelayMs: 100, SameKey: true}
	got := controlPaths(NewControls(&s, tr.EndMs))
	for prefix, typ := range map[string]reflect.Type{
		"client.policy": reflect.TypeFor[scenario.ClientPolicy](),
		"server.policy": reflect.TypeFor[scenario.ServerPolicy](),
	} {
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			path := prefix + "." + name
			if f := typ.Field(i).Type; f.Kind() == reflect.Pointer && f.Elem().Kind() == reflect.Struct {
				// A policy object (client.policy.retry): a control for a member.
				if !slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, path+".") }) {
					t.Errorf("policy %s has no control for any of its members", path)
				}
				continue
			}
			if !slices.Contains(got, path) {
				t.Errorf("policy %s has no control (a string switch needs its options in policyOptions)", path)
			}
		}
	}
}

// TestControlsEditValidScenarios: for every built-in scenario, every
// control's current value, written at its path by scenario.Edit with the
// control's value kind, gives a scenario that still decodes, so no control
// addresses a member the format does not have.
func TestControlsEditValidScenarios(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			for _, g := range NewControls(examplestest.DecodeExample(t, ex), 1000) {
				for _, c := range g.Controls {
					edited, err := scenario.Edit(ex.JSON, c.Path, c.ValueKind, c.Value, c.Checked)
					if err != nil {
						t.Fatalf("%s: scenario.Edit: %v", c.Path, err)
					}
					if _, err := scenario.Decode(edited); err != nil {
						t.Errorf("%s = %s: the edited scenario does not decode: %v", c.Path, c.Value, err)
					}
				}
			}
		})
	}
}

func TestControlID(t *testing.T) {
	tests := map[string]string{
		"transport":                "ctl-transport",
		"latencyMs.up":             "ctl-latencyMs-up",
		"steps[12].at":             "ctl-steps-12--at",
		"client.policy.httpCancel": "ctl-client-policy-httpCancel",
		"steps[3]":                 "ctl-steps-3",
	}
	for path, want := range tests {
		if got := controlID(path); got != want {
			t.Errorf("controlID(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestTryHint: the race scenario suggests dragging the cancel past the
// completion; notes with "Try:" win over the derived hint.
func TestTryHint(t *testing.T) {
	tr := readTrace(t, "a-cancel-then-complete")
	saved := tr.Scenario.Notes
	tr.Scenario.Notes = ""
	if h := tryHint(tr.Scenario); !strings.Contains(h, "Drag the cancel time past the completion time") {
		t.Errorf("TryHint(A) = %q", h)
	}
	p := Page{Trace: tr, Summary: "S."}
	if p.intro() != "S." {
		t.Errorf("intro without notes = %q, want the summary", p.intro())
	}
	tr.Scenario.Notes = "It shows a race. Try: drag it."
	if p.intro() != "It shows a race." || p.hint() != "Drag it." {
		t.Errorf("intro/hint = %q / %q", p.intro(), p.hint())
	}
	tr.Scenario.Notes = saved
}

// TestControlsFollowTheScenario: a section of the scenario brings its
// controls and only then: the ledger's switches, replicas and sharing with
// "ledger"; capacity, policy and drain rate with "buffer"; the proxy's
// switches and the SSE headers with "proxy"; the herd's parameters with
// "herd" (and nothing else for a herd without steps); a slider for the
// reopen-ledger, retry and task steps.
func TestControlsFollowTheScenario(t *testing.T) {
	tests := []struct {
		example   string
		want, not []string
	}{
		{"a-cancel-then-complete", nil, []string{"server.policy.atomicLedger", "server.policy.dedupeBy", "ledger.replicas", "buffer.capacity", "proxy.buffering", "server.sseHeaders", "herd.strategy"}},
		{"ledger-reopen-defensive-copy", []string{"server.policy.dedupeBy", "server.policy.atomicLedger", "server.policy.defensiveCopy", "server.policy.fingerprint", "ledger.replicas", "ledger.shared", "steps[3].at", "steps[5].at", "steps[2].at"}, []string{"buffer.capacity"}},
		{"buffer-reference-coalesce", []string{"buffer.capacity", "buffer.policy", "consumer.drainEveryMs", "consumer.batch", "server.sseHeaders", "server.keepaliveEveryMs", "protocol"}, []string{"ledger.replicas", "server.policy.atomicLedger"}},
		{"proxy-buffering-burst", []string{"proxy.buffering", "proxy.flushBytes", "proxy.idleCloseMs", "server.sseHeaders", "server.keepaliveEveryMs"}, []string{"buffer.capacity"}},
		{"broken-task-ack-as-final", []string{"client.policy.treatTaskAckAsFinal", "steps[1].at", "steps[2].at", "steps[4].at"}, nil},
		{"herd-reference-backoff", []string{"herd.strategy", "herd.clients", "herd.serverCapacityPerSecond", "herd.baseMs", "herd.capMs", "herd.maxAttempts"}, []string{"transport", "client.policy.httpCancel"}},
	}
	for _, tt := range tests {
		t.Run(tt.example, func(t *testing.T) {
			got := controlPaths(NewControls(examplestest.Decode(t, tt.example), 1000))
			for _, p := range tt.want {
				if !slices.Contains(got, p) {
					t.Errorf("no control for %s; controls: %v", p, got)
				}
			}
			for _, p := range tt.not {
				if slices.Contains(got, p) {
					t.Errorf("control for %s on a scenario without that section", p)
				}
			}
		})
	}
}

// TestBufferCapacityZeroMeansUnbounded: the capacity control writes 0 as a
// number (unbounded), not as "none".
func TestBufferCapacityZeroMeansUnbounded(t *testing.T) {
	ex := examplestest.Get(t, "buffer-reference-coalesce")
	for _, g := range NewControls(examplestest.DecodeExample(t, ex), 1000) {
		for _, c := range g.Controls {
			if c.Path != "buffer.capacity" {
				continue
			}
			edited, err := scenario.Edit(ex.JSON, c.Path, c.ValueKind, "0", false)
			if err != nil {
				t.Fatal(err)
			}
			s2, err := scenario.Decode(edited)
			if err != nil {
				t.Fatal(err)
			}
			if s2.Buffer == nil || s2.Buffer.Capacity != 0 {
				t.Errorf("capacity 0 gives buffer %+v, want capacity 0 (unbounded)", s2.Buffer)
			}
			return
		}
	}
	t.Fatal("no buffer.capacity control")
}

// TestDedupeControlShowsKeylessCalls: the dedupe control shows what the
// scenario does. The flagship's calls carry no
// arguments.idempotencyKey, so its selected choice, the server's default
// "idempotency-key", says nothing is deduplicated (its headline: without a
// key the effect runs again, DOMAIN.md §4); the fixed flagship sends
// "checkout-7" and shows plain "idempotency key".
func TestDedupeControlShowsKeylessCalls(t *testing.T) {
	for name, want := range map[string]string{
		"flagship-retry-charges-twice":  noKeyLabel,
		"flagship-with-idempotency-key": "idempotency key",
	} {
		c, ok := findControl(NewControls(examplestest.Decode(t, name), 3000), "server.policy.dedupeBy")
		if !ok {
			t.Fatalf("%s: no dedupe control", name)
		}
		var selected []string
		for _, o := range c.Options {
			if o.Selected {
				selected = append(selected, o.Value+" = "+o.Label)
			}
		}
		if len(selected) != 1 || selected[0] != "idempotency-key = "+want {
			t.Errorf("%s: selected %v, want idempotency-key = %q", name, selected, want)
		}
	}
}

// Every number control states the decoder's range (ledger.replicas,
// then the latency, timeout and keep-alive inputs, showed no maximum):
// over all built-ins, every number control has a maximum, the decoder's
// own (the value one past it is refused at the control's path with "must
// be <= Max"), and a minimum, the decoder's own too (one below it is
// refused with "must be >= Min"; an optional time's minimum is 0, which
// removes the member); the panel's number inputs carry both as min and
// max. The ledger's replicas control says 1 to 8.
func TestNumberControlsStateTheDecodersRange(t *testing.T) {
	seen := map[string]bool{}
	refused := func(ex examples.Example, c control, v int64, want string) {
		t.Helper()
		edited, err := scenario.Edit(ex.JSON, c.Path, c.ValueKind, strconv.FormatInt(v, 10), false)
		if err != nil {
			t.Fatalf("%s: %s = %d: %v", ex.Name, c.Path, v, err)
		}
		_, err = scenario.Decode(edited)
		var e *scenario.Error
		if !errors.As(err, &e) || e.Path != c.Path || err.Error() != c.Path+": "+want {
			t.Errorf("%s: %s = %d (past its control's range %d..%d): %v; want %s: %s", ex.Name, c.Path, v, c.Min, c.Max, err, c.Path, want)
		}
	}
	for _, ex := range examples.All() { // every built-in: each shows other controls
		groups := NewControls(examplestest.DecodeExample(t, ex), 1000)
		var b strings.Builder
		if err := ControlPanel(groups).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		for _, g := range groups {
			for _, c := range g.Controls {
				if c.Kind != controlNumber {
					continue
				}
				seen[c.Path] = true
				if c.Max <= c.Min {
					t.Errorf("%s: %s (%s) has no maximum (min %d, max %d)", ex.Name, c.Path, c.Unit, c.Min, c.Max)
					continue
				}
				refused(ex, c, c.Max+1, "must be <= "+strconv.FormatInt(c.Max, 10))
				if c.ValueKind == scenario.ValueOptionalInteger {
					if c.Min != 0 {
						t.Errorf("%s: optional %s has min %d, want 0 (none)", ex.Name, c.Path, c.Min)
					}
				} else {
					refused(ex, c, c.Min-1, "must be >= "+strconv.FormatInt(c.Min, 10))
				}
				i := strings.Index(html, `id="`+c.ID+`"`)
				if i < 0 {
					t.Errorf("%s: no input %s in the panel", ex.Name, c.ID)
					continue
				}
				input := html[strings.LastIndex(html[:i], "<input"):]
				input = input[:strings.Index(input, ">")]
				if !strings.Contains(input, `type="number"`) || !strings.Contains(input, `min="`+strconv.FormatInt(c.Min, 10)+`"`) || !strings.Contains(input, `max="`+strconv.FormatInt(c.Max, 10)+`"`) {
					t.Errorf("%s: input %s: want type=number min=\"%d\" max=\"%d\"", ex.Name, input, c.Min, c.Max)
				}
			}
		}
	}
	for _, p := range []string{"latencyMs.up", "latencyMs.down", "client.idleTimeoutMs", "client.maxTimeoutMs", "server.keepaliveEveryMs",
		"ledger.replicas", "herd.clients", "buffer.capacity", "consumer.batch"} {
		if !seen[p] {
			t.Errorf("no built-in showed a %s control", p)
		}
	}
	var b strings.Builder
	if err := ControlPanel(NewControls(examplestest.Decode(t, "broken-replicas-not-shared"), 1000)).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Ledger calls go to the replicas in turn (1 to 8).") {
		t.Errorf("the replicas help does not say 1 to 8")
	}
}

// TestSelectControlsOfferTheScenariosValue: for every built-in scenario,
// every select control offers the scenario's current value and selects
// exactly that option, so the page shows what runs (a select that lacks the
// value shows its first option instead, and choosing that option fires no
// change). The format accepts every option it offers at the control's path.
func TestSelectControlsOfferTheScenariosValue(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			for _, g := range NewControls(examplestest.DecodeExample(t, ex), 1000) {
				for _, c := range g.Controls {
					if c.Kind != controlSelect {
						continue
					}
					var values, selected []string
					for _, o := range c.Options {
						values = append(values, o.Value)
						if o.Selected {
							selected = append(selected, o.Value)
						}
						edited, err := scenario.Edit(ex.JSON, c.Path, c.ValueKind, o.Value, false)
						if err != nil {
							t.Fatalf("%s: scenario.Edit %q: %v", c.Path, o.Value, err)
						}
						// Another member may forbid the option (stdio has no
						// proxy), but the member itself must accept it.
						var e *scenario.Error
						if _, err := scenario.Decode(edited); errors.As(err, &e) && e.Path == c.Path {
							t.Errorf("%s: the format refuses option %q: %v", c.Path, o.Value, err)
						}
					}
					if !slices.Contains(values, c.Value) {
						t.Errorf("%s (%s): options %q lack the scenario's value %q", c.Path, c.Label, values, c.Value)
					}
					if !slices.Equal(selected, []string{c.Value}) {
						t.Errorf("%s (%s): selected %q, want exactly %q", c.Path, c.Label, selected, c.Value)
					}
				}
			}
		})
	}
}

// TestStrategyOptionsAreTheFormats: the Backoff strategy control offers
// exactly the values herd.strategy accepts (scenario.HerdStrategies), in
// its order, each once; and choosing one on one page does not mark it on
// the next (the list is shared).
func TestStrategyOptionsAreTheFormats(t *testing.T) {
	var got []string
	for _, o := range strategyOptions {
		got = append(got, o.Value)
		if o.Label == "" || o.Selected {
			t.Errorf("option %q: label %q, selected %v; want a label and nothing selected in the shared list", o.Value, o.Label, o.Selected)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(scenario.HerdStrategies) {
		t.Errorf("the control offers %v, the format accepts %v", got, scenario.HerdStrategies)
	}
	herdControls(&scenario.Herd{Strategy: scenario.HerdExponential})
	for _, o := range strategyOptions {
		if o.Selected {
			t.Errorf("after a page of strategy exponential the shared list has %q selected", o.Value)
		}
	}
}
