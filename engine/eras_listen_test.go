package engine_test

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// listenScenario is a listen on two resources under protocol on
// transport, an update of the first at 100 ms, and then tail (more steps,
// each starting with a comma, or "").
func listenScenario(protocol, transport, tail string) string {
	return `{"mcplab":1,"protocol":"` + protocol + `","transport":"` + transport + `","latencyMs":{"up":10,"down":10},"client":{"id":"client-7"},"steps":[
		{"at":0,"do":"listen","id":"sub-1","filter":{"resourceSubscriptions":["file:///a.csv","file:///b.csv"]}},
		{"at":100,"do":"notify","listen":"sub-1","method":"notifications/resources/updated","params":{"uri":"file:///a.csv"}}` + tail + `]}`
}

// wireMethods are the methods of the messages actor sent, in order.
func wireMethods(tr *trace.Trace, actor trace.Actor) []string {
	var out []string
	for _, e := range tr.Events {
		if e.Type == trace.TypeSend && e.Actor == actor {
			if m := method(e.Message); m != "" {
				out = append(out, m)
			}
		}
	}
	return out
}

// TestListenWireOfEachRevision proves SCENARIO.md "Sessions (2025-11-25)"
// and "The wire of each revision" for a listen step: under 2025-11-25 on
// stdio it is a resources/subscribe per resource of its filter on the one
// pipe, with no subscriptions/listen, no acknowledgement, no subscription
// id and no GET; on Streamable HTTP it is the GET stream plus the same
// subscriptions; under 2026-07-28 it is subscriptions/listen, acknowledged
// first, on either transport.
func TestListenWireOfEachRevision(t *testing.T) {
	cases := []struct {
		name, protocol, transport string
		client, server            []string // the methods each side sends
		gets                      int      // the client's HTTP GETs
		note                      string   // in the update's send note
	}{
		{"2025-11-25 stdio: resources/subscribe per resource, updates on stdout", "2025-11-25", "stdio",
			[]string{"initialize", "notifications/initialized", "resources/subscribe", "resources/subscribe"},
			[]string{"notifications/resources/updated"}, 0, "on its stdout"},
		{"2025-11-25 Streamable HTTP: a GET stream and resources/subscribe", "2025-11-25", "streamable-http",
			[]string{"initialize", "notifications/initialized", "resources/subscribe", "resources/subscribe"},
			[]string{"notifications/resources/updated"}, 1, "on listen stream"},
		{"2026-07-28 stdio: subscriptions/listen, acknowledged first", "2026-07-28", "stdio",
			[]string{"subscriptions/listen"},
			[]string{"notifications/subscriptions/acknowledged", "notifications/resources/updated"}, 0, "on listen stream"},
		{"2026-07-28 Streamable HTTP: subscriptions/listen, acknowledged first", "2026-07-28", "streamable-http",
			[]string{"subscriptions/listen"},
			[]string{"notifications/subscriptions/acknowledged", "notifications/resources/updated"}, 0, "on listen stream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := run(t, listenScenario(c.protocol, c.transport, ""))
			logOnFailure(t, tr)
			if got := strings.Join(wireMethods(tr, trace.ActorClient), " "); got != strings.Join(c.client, " ") {
				t.Errorf("client sends %q, want %q", got, strings.Join(c.client, " "))
			}
			if got := strings.Join(wireMethods(tr, trace.ActorServer), " "); got != strings.Join(c.server, " ") {
				t.Errorf("server sends %q, want %q", got, strings.Join(c.server, " "))
			}
			gets := 0
			for _, e := range tr.Events {
				if e.Type == trace.TypeSend && e.HTTPMethod == trace.HTTPGet {
					gets++
				}
			}
			if gets != c.gets {
				t.Errorf("%d GETs, want %d", gets, c.gets)
			}
			updates := find(tr, ev{actor: trace.ActorServer, typ: trace.TypeSend, method: "notifications/resources/updated", at: 100})
			if len(updates) != 1 || !strings.Contains(updates[0].Note, c.note) {
				t.Fatalf("updates at 100 ms: %+v, want one whose note says %q", updates, c.note)
			}
			// 2026-07-28 tags a listen stream's messages with its
			// subscription id; 2025-11-25 has none.
			if tagged := strings.Contains(string(updates[0].Message), "subscriptionId"); tagged != (c.protocol == "2026-07-28") {
				t.Errorf("update %s: tagged %v under %s", updates[0].Message, tagged, c.protocol)
			}
			if len(tr.Skipped) != 0 {
				t.Errorf("skipped %+v, want none", tr.Skipped)
			}
		})
	}
}

// TestListenOnStdio2025CannotDrop proves SCENARIO.md "honest time" for the
// moves a 2025-11-25 stdio listen has no wire for: a drop (no stream of
// its own, no GET to resume with Last-Event-ID), an end-listen (no
// server message ends a resource subscription), a cancel, a completion
// or progress (no request opened it) each become a skip event at the step's time with its reason
// in words and an entry of skipped[], with no reconnect, no GET and no
// cancellation; the stdout pipe stays open, so a later update still
// arrives. The same drop on Streamable HTTP is resumed with GET and
// Last-Event-ID.
func TestListenOnStdio2025CannotDrop(t *testing.T) {
	const later = `,{"at":400,"do":"notify","listen":"sub-1","method":"notifications/resources/updated","params":{"uri":"file:///b.csv"}}`
	cases := []struct {
		name, step string
		actor      trace.Actor
		reason     string
	}{
		{"drop: no stream of its own, no GET to resume", `,{"at":300,"do":"drop","id":"sub-1","affected":["file:///a.csv"]}`, trace.ActorServer, "no GET to resume with Last-Event-ID"},
		{"end-listen: no server message ends a subscription", `,{"at":300,"do":"end-listen","id":"sub-1","reason":"shutting down"}`, trace.ActorServer, "only by the client's resources/unsubscribe"},
		{"cancel: no request opened the stream", `,{"at":300,"do":"cancel","id":"sub-1"}`, trace.ActorClient, "no request to cancel"},
		{"complete: no request to answer", `,{"at":300,"do":"complete","id":"sub-1","result":{}}`, trace.ActorServer, "no request to report progress for or to answer"},
		{"progress: no request to report progress for", `,{"at":300,"do":"progress","id":"sub-1","progress":1}`, trace.ActorServer, "no request to report progress for or to answer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := run(t, listenScenario("2025-11-25", "stdio", c.step+later))
			logOnFailure(t, tr)
			skips := find(tr, ev{typ: trace.TypeSkip, id: `"sub-1"`, at: 300})
			if len(skips) != 1 || skips[0].Actor != c.actor || skips[0].Step == nil || *skips[0].Step != 2 || !strings.Contains(skips[0].Note, c.reason) {
				t.Fatalf("skip events at 300 ms: %+v, want one by the %s for steps[2] saying %q", skips, c.actor, c.reason)
			}
			if len(tr.Skipped) != 1 || tr.Skipped[0].Step != 2 || !strings.Contains(tr.Skipped[0].Reason, c.reason) {
				t.Errorf("skipped %+v, want steps[2] saying %q", tr.Skipped, c.reason)
			}
			for _, e := range tr.Events {
				if e.Type == trace.TypeReconnect || e.HTTPMethod == trace.HTTPGet || method(e.Message) == "notifications/cancelled" || e.Type == trace.TypeCloseStream {
					t.Errorf("event %d (%s %s %s): a 2025-11-25 stdio listen has no stream to break, resume or cancel", e.Seq, e.Actor, e.Type, e.Note)
				}
			}
			if len(tr.Reconnects) != 0 {
				t.Errorf("reconnects %+v, want none", tr.Reconnects)
			}
			if got := find(tr, ev{actor: trace.ActorClient, typ: trace.TypeAccept, id: `"sub-1"`, at: 410}); len(got) != 1 {
				t.Errorf("the update at 400 ms reaches the client %d times, want once: stdout is still open", len(got))
			}
		})
	}
	t.Run("the same drop on Streamable HTTP resumes with GET and Last-Event-ID", func(t *testing.T) {
		tr := run(t, listenScenario("2025-11-25", "streamable-http", `,{"at":300,"do":"drop","id":"sub-1","affected":["file:///a.csv"]}`))
		logOnFailure(t, tr)
		rec := find(tr, ev{actor: trace.ActorClient, typ: trace.TypeReconnect, id: `"sub-1"`, at: -1})
		if len(rec) != 1 || rec[0].HTTPMethod != trace.HTTPGet || rec[0].Headers["Last-Event-ID"] == "" || len(tr.Skipped) != 0 {
			t.Errorf("reconnects %+v, skipped %+v: want one GET with Last-Event-ID and no skip", rec, tr.Skipped)
		}
	})
}

// TestListenOnStdio2025FollowsThePipe proves that a 2025-11-25 stdio
// listen lives as long as the client reads the server's stdout, since no
// request of its own opened it (SCENARIO.md, "Sessions (2025-11-25)"):
// once the client tears the session down, an update that still arrives
// is ignored; a server-sent notifications/cancelled naming the listen's
// id names no request, so it ends nothing and a later update is applied.
func TestListenOnStdio2025FollowsThePipe(t *testing.T) {
	const update = `,{"at":300,"do":"notify","listen":"sub-1","method":"notifications/resources/updated","params":{"uri":"file:///b.csv"}}`
	cases := []struct {
		name, policy, steps string
		want                trace.EventType // the client's event type for the update at 310 ms
	}{
		{"torn down: the client reads stdout no more", `"client":{"policy":{"lateResponseIsError":true}},"server":{"policy":{"respondAfterCancel":true}},`,
			`,{"at":0,"do":"call","id":1,"name":"crunch"},{"at":50,"do":"cancel","id":1},{"at":100,"do":"complete","id":1,"result":{"content":[]}}` + update, trace.TypeIgnore},
		{"a cancellation naming the listen's id ends nothing", "",
			`,{"at":150,"do":"send","from":"server","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"sub-1"}}}` + update, trace.TypeAccept},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(listenScenario("2025-11-25", "stdio", c.steps), `"client":{"id":"client-7"},`, c.policy, 1)
			tr := run(t, in)
			logOnFailure(t, tr)
			got := find(tr, ev{actor: trace.ActorClient, id: `"sub-1"`, at: 310})
			if len(got) != 1 || got[0].Type != c.want {
				t.Errorf("the client's events for the update at 310 ms: %+v, want one %s", got, c.want)
			}
		})
	}
}
