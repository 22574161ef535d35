package trace

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// declared counts the constants of type typ the package declares (its
// non-test files), so a table that misses one is caught.
func declared(t *testing.T, typ string) int {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range pkgs["trace"].Files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				if v := spec.(*ast.ValueSpec); v.Type != nil {
					if id, ok := v.Type.(*ast.Ident); ok && id.Name == typ {
						n += len(v.Names)
					}
				}
			}
		}
	}
	return n
}

// TestActorsAndEventTypesRoundTrip: each Actor and EventType constant is
// the value SCENARIO.md (Trace: events[]) or this package's doc spells,
// Encode writes it as that value under "actor" / "type" (and an actor
// under "from" / "to"), and encoding/json reads it back into the typed
// field. The tables hold every constant once (the counts), so a constant
// added without its spelling here fails.
func TestActorsAndEventTypesRoundTrip(t *testing.T) {
	actors := []struct {
		actor Actor
		want  string
	}{
		{ActorClient, "client"}, {ActorNetwork, "network"}, {ActorProxy, "proxy"},
		{ActorServer, "server"}, {ActorWorker, "worker"}, {ActorLedger, "ledger"},
	}
	types := []struct {
		typ  EventType
		want string
	}{
		// SCENARIO.md's version 1 list.
		{TypeSend, "send"}, {TypeDeliver, "deliver"}, {TypeCloseStream, "close-stream"},
		{TypeIgnore, "ignore"}, {TypeSuppress, "suppress"}, {TypeTimeout, "timeout"},
		{TypeEffect, "effect"}, {TypeReplay, "replay"}, {TypeReject, "reject"},
		{TypeCoalesce, "coalesce"}, {TypeDrop, "drop"}, {TypeFlush, "flush"},
		{TypeKeepalive, "keepalive"}, {TypeStatus, "status"}, {TypeReconnect, "reconnect"},
		{TypeError, "error"},
		// Beyond version 1 (the package doc's list).
		{TypeStart, "start"}, {TypeActivity, "activity"}, {TypeAccept, "accept"},
		{TypeEnqueue, "enqueue"}, {TypeHold, "hold"}, {TypeCheck, "check"},
		{TypeLock, "lock"}, {TypeWait, "wait"}, {TypeReopen, "reopen"},
		{TypeMutate, "mutate"}, {TypeCheckpoint, "checkpoint"}, {TypeAcquire, "acquire"},
		{TypeRelease, "release"}, {TypeSkip, "skip"}, {TypePrime, "prime"},
		// The client's decisions.
		{TypeAbandon, "abandon"}, {TypeAwait, "await"}, {TypeBlocked, "blocked"},
	}
	seenActors, seenTypes := map[Actor]bool{}, map[EventType]bool{}
	tr := &Trace{Mcplab: 1, Events: []Event{}}
	for i, a := range actors {
		seenActors[a.actor] = true
		if string(a.actor) != a.want {
			t.Errorf("actor %q: SCENARIO.md spells it %q", a.actor, a.want)
		}
		tr.Events = append(tr.Events, Event{Seq: i, Actor: a.actor, Type: TypeSend, From: a.actor, To: a.actor})
	}
	for _, c := range types {
		seenTypes[c.typ] = true
		if string(c.typ) != c.want {
			t.Errorf("event type %q: SCENARIO.md spells it %q", c.typ, c.want)
		}
		tr.Events = append(tr.Events, Event{Seq: len(tr.Events), Actor: ActorServer, Type: c.typ})
	}
	if len(seenActors) != len(actors) || len(seenTypes) != len(types) || len(actors) != declared(t, "Actor") || len(types) != declared(t, "EventType") {
		t.Errorf("%d actors and %d event types in the tables, each once; the package declares %d and %d", len(seenActors), len(seenTypes), declared(t, "Actor"), declared(t, "EventType"))
	}
	out, err := Encode(tr, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actors {
		for _, member := range []string{"actor", "from", "to"} {
			if want := `"` + member + `": "` + a.want + `"`; !strings.Contains(string(out), want) {
				t.Errorf("Encode writes no %s", want)
			}
		}
	}
	for _, c := range types {
		if want := `"type": "` + c.want + `"`; !strings.Contains(string(out), want) {
			t.Errorf("Encode writes no %s", want)
		}
	}
	var back Trace
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	for i, e := range back.Events {
		if e.Actor != tr.Events[i].Actor || e.Type != tr.Events[i].Type || e.From != tr.Events[i].From || e.To != tr.Events[i].To {
			t.Errorf("event %d read back as %s %s %s→%s, want %s %s %s→%s", i, e.Actor, e.Type, e.From, e.To,
				tr.Events[i].Actor, tr.Events[i].Type, tr.Events[i].From, tr.Events[i].To)
		}
	}
}
