package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/trace"
)

// FuzzRunJSON proves RunJSON's contract on untrusted input (SCENARIO.md,
// Bad input; ARCHITECTURE.md: Run is a pure function): it never panics; the
// same input gives the same bytes twice; bad input is a located
// *scenario.Error with a message, never a partial trace; and every trace it
// produces is valid JSON whose events satisfy the trace invariants
// (checkInvariants in rules_test.go).
//
// The decoder alone is fuzzed by FuzzDecode in package scenario (the one
// `make test` runs with -fuzz); this target lives here because a test in
// package scenario cannot import the engine.
func FuzzRunJSON(f *testing.F) {
	for _, ex := range examples.All() {
		f.Add(ex.JSON)
	}
	for _, s := range []string{
		refFlowing,
		refStops,
		policyResetsMax(true),
		sc(stdio, call7, progressAt(100, 1), cancel300, done320),
		sc(http2026, call7, `{"at":100,"do":"disconnect","id":7}`, `{"at":300,"do":"complete","id":7}`),
		sc(http2025+`,"server":{"keepaliveEveryMs":50,"policy":{"respondAfterCancel":true}}`, call7, `{"at":5,"do":"retry","id":8,"of":7}`, cancel300, done320,
			`{"at":330,"do":"fail","id":8,"code":-1,"message":"m"}`),
		sc("", `{"at":0,"do":"call","id":0}`, sendAt(1, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0,"reason":[]}}`),
			`{"at":2,"do":"send","from":"server","message":{"jsonrpc":"2.0","id":0,"result":{}}}`),
		`{"mcplab":1,"steps":[{"at":-1,"do":"call","id":7}]}`,
		`{"mcplab":1,`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if s, err := scenario.Decode(data); err == nil && runaway(s) {
			t.Skip("keep-alive comments would outnumber engine.MaxActions; see the report on unbounded keep-alive traces")
		}
		out, err := engine.RunJSONWith(data, withLedger)
		again, err2 := engine.RunJSONWith(data, withLedger)
		if !bytes.Equal(out, again) || (err == nil) != (err2 == nil) {
			t.Fatalf("two runs differ: the engine is not deterministic")
		}
		if err != nil {
			var e *scenario.Error
			switch {
			case errors.As(err, &e):
				if err.Error() == "" || e.Err == nil {
					t.Fatalf("a scenario error without a message: %#v", e)
				}
			case errors.Is(err, sim.ErrTooManyActions):
				// Documented by engine.Run: the only non-input error.
			default:
				t.Fatalf("error %v (%T) is neither a *scenario.Error nor ErrTooManyActions", err, err)
			}
			if out != nil {
				t.Fatalf("RunJSON returned %d bytes with its error: a partial trace", len(out))
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("RunJSON output is not valid JSON")
		}
		s, _ := scenario.Decode(data)
		tr, err := engine.RunWith(s, withLedger)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, tr)
	})
}

// withLedger links the SQLite ledger (in memory), as the site does, so
// ledger scenarios run too.
var withLedger = engine.Options{OpenLedger: sqlite.NewMemory}

// runaway reports whether s's keep-alive comments alone could exceed
// engine.MaxActions: every open stream gets one comment (and one delivery)
// per interval until the last thing the scenario can schedule.
func runaway(s *scenario.Scenario) bool {
	every := s.Server.KeepaliveEveryMs
	if every == 0 {
		return false
	}
	horizon := s.LatencyMs.Up + s.LatencyMs.Down + s.Client.IdleTimeoutMs + s.Client.MaxTimeoutMs
	var calls int64
	for _, st := range s.Steps {
		extra := st.At
		if st.IdleTimeoutMs != nil {
			extra += *st.IdleTimeoutMs
		}
		if st.MaxTimeoutMs != nil {
			extra += *st.MaxTimeoutMs
		}
		horizon = max(horizon, extra+s.LatencyMs.Up+s.LatencyMs.Down+s.Client.IdleTimeoutMs+s.Client.MaxTimeoutMs)
		if st.Do == "call" || st.Do == "retry" {
			calls++
		}
	}
	return calls*2*(horizon/every+1) > engine.MaxActions/10
}

// TestGeneratedScenarios is a property test over many generated request-
// lifecycle scenarios (every transport, revision, latency, timeout and
// policy, with cancels, completions, failures, progress, disconnects,
// retries and raw sends at arbitrary times; the generator is seeded, so the
// set is fixed). Every trace must satisfy the invariants of
// checkInvariants, and the domain's guarantees:
//   - a request the server cancelled has no response on the wire (unless
//     respondAfterCancel), and no progress follows a final response;
//   - without progressResetsMax no request is waited for past its maximum;
//   - when every policy is correct, no raw message is sent and the scripted
//     progress strictly increases, every check holds: the correct
//     components never break a rule of DOMAIN.md on their own.
func TestGeneratedScenarios(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(2026, 728))
	for i := range n {
		in, clean := genScenario(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("scenario: %s", in)
				}
			})
			tr := run(t, in)
			logOnFailure(t, tr)
			s := tr.Scenario
			final := map[string]bool{}
			for _, e := range tr.Events {
				if e.Type != trace.TypeSend || e.From != trace.ActorServer || e.ID == nil {
					continue
				}
				if isFinal(e.Message) {
					final[e.ID.Raw()] = true
				} else if method(e.Message) == "notifications/progress" && final[e.ID.Raw()] && !s.Server.Policy.RespondAfterCancel {
					t.Errorf("progress for request %s after its final response (DOMAIN.md §3)", e.ID)
				}
			}
			for _, r := range tr.Requests {
				if r.State == trace.StateCancelled && r.Response != nil && !s.Server.Policy.RespondAfterCancel {
					t.Errorf("request %s: cancelled at the server but answered %s (DOMAIN.md §1)", r.ID, r.Response)
				}
				if r.MaxTimeoutMs > 0 && !s.Client.Policy.ProgressResetsMax {
					deadline := r.SentAt + r.MaxTimeoutMs
					if (r.EndedAt != nil && *r.EndedAt > deadline) || (r.EndedAt == nil && tr.EndMs > deadline) {
						t.Errorf("request %s waited for past its maximum deadline %d (DOMAIN.md §2): %s", r.ID, deadline, summary(r))
					}
				}
			}
			if clean {
				for _, c := range tr.Checks {
					if c.OK != nil && !*c.OK {
						t.Errorf("check %s fails with every policy correct: %s", c.Rule, c.Detail)
					}
				}
			}
		})
	}
}

// genScenario returns a random valid request-lifecycle scenario, and
// whether it is clean: correct policies, no raw sends, and progress values
// that strictly increase per request.
func genScenario(rng *rand.Rand) (string, bool) {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	chance := func(p float64) bool { return rng.Float64() < p }
	http := chance(0.5)
	clean := true
	var top []string
	if http {
		top = append(top, `"transport":"streamable-http"`)
	}
	is2025 := chance(0.4)
	if is2025 {
		top = append(top, `"protocol":"2025-11-25"`)
	}
	top = append(top, fmt.Sprintf(`"latencyMs":{"up":%d,"down":%d}`, rng.IntN(4)*20, rng.IntN(4)*20))
	var client []string
	idle := int64(0)
	if chance(0.7) {
		idle = int64(100 + rng.IntN(8)*100)
		client = append(client, fmt.Sprintf(`"idleTimeoutMs":%d`, idle))
	}
	if chance(0.6) {
		client = append(client, fmt.Sprintf(`"maxTimeoutMs":%d`, max(idle, 200)+int64(rng.IntN(10)*100)))
	}
	var policy []string
	if http && chance(0.2) {
		policy = append(policy, `"httpCancel":`+pick(`"close-stream"`, `"post-notification"`))
		if !(is2025 && strings.Contains(policy[len(policy)-1], "post")) && !(!is2025 && strings.Contains(policy[len(policy)-1], "close")) {
			clean = false
		}
	}
	if chance(0.15) {
		policy, clean = append(policy, `"progressResetsMax":true`), false
	}
	if chance(0.15) {
		policy, clean = append(policy, `"acceptNonIncreasingProgress":true`), false
	}
	if len(policy) > 0 {
		client = append(client, `"policy":{`+strings.Join(policy, ",")+`}`)
	}
	top = append(top, `"client":{`+strings.Join(client, ",")+`}`)
	var server []string
	if chance(0.15) {
		server, clean = append(server, `"policy":{"respondAfterCancel":true}`), false
	}
	if http && chance(0.3) {
		server = append(server, fmt.Sprintf(`"keepaliveEveryMs":%d`, 50+rng.IntN(6)*50))
	}
	top = append(top, `"server":{`+strings.Join(server, ",")+`}`)

	type call struct {
		id string
		at int64
	}
	var calls []*call
	var steps []string
	ids := []string{`7`, `"7"`, `0`, `"a"`, `-3`}
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	at := int64(0)
	for k := range 1 + rng.IntN(3) {
		c := &call{id: ids[k], at: at}
		calls = append(calls, c)
		var extra string
		if chance(0.8) {
			extra += fmt.Sprintf(`,"progressToken":"p%d"`, k)
		}
		if chance(0.2) {
			extra += fmt.Sprintf(`,"idleTimeoutMs":%d,"maxTimeoutMs":%d`, 150, 150+rng.IntN(5)*100)
		}
		if chance(0.1) {
			extra += `,"method":"initialize"`
		}
		steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"call","id":%s%s}`, c.at, c.id, extra))
		at += int64(rng.IntN(3) * 50)
	}
	for range 2 + rng.IntN(10) {
		c := calls[rng.IntN(len(calls))]
		when := c.at + int64(rng.IntN(30)*50+rng.IntN(3))
		switch v := rng.IntN(20); {
		case v < 6:
			// Values grow with time and, at equal times, with file order,
			// so they strictly increase unless the generator means otherwise.
			value := float64(when)*100 + float64(len(steps))
			if chance(0.1) {
				value, clean = float64(rng.IntN(3)), false
			}
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"progress","id":%s,"progress":%v}`, when, c.id, value))
		case v < 9:
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"cancel","id":%s}`, when, c.id))
		case v < 12:
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"complete","id":%s}`, when, c.id))
		case v < 13:
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"fail","id":%s,"code":-32000,"message":"x"}`, when, c.id))
		case v < 15 && http:
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"disconnect","id":%s}`, when, c.id))
		case v < 16:
			k := len(calls) + len(steps)
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"retry","id":%d,"of":%s}`, when, 100+k, c.id))
		case v < 18:
			clean = false
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"send","message":%s}`, when, pick(
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+c.id+`}}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+c.id+`,"reason":1}}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":[]}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`,
				`{"jsonrpc":"2.0","id":`+c.id+`,"result":{}}`,
			)))
		default:
			clean = false
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"send","from":"server","message":%s}`, when, pick(
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+c.id+`}}`,
				`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p0","progress":1000}}`,
				`{"jsonrpc":"2.0","id":`+c.id+`,"result":{"late":true}}`,
			)))
		}
	}
	return `{"mcplab":1,` + strings.Join(top, ",") + `,"steps":[` + strings.Join(steps, ",") + `]}`, clean
}
