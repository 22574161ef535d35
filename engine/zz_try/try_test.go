package zz

import (
	"fmt"
	"os"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
)

func TestTry(t *testing.T) {
	b, _ := os.ReadFile(os.Getenv("SC"))
	s, err := scenario.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := engine.RunWith(s, engine.Options{OpenLedger: sqlite.NewMemory})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tr.Events {
		id := ""
		if e.ID != nil {
			id = e.ID.Raw()
		}
		fmt.Printf("#%d %d %s %s id=%s %s %s %s\n", e.Seq, e.At, e.Actor, e.Type, id, e.Resource, e.Message, e.Note)
	}
	for _, r := range tr.Requests {
		fmt.Printf("req %s %s %s wasted=%d\n", r.ID.Raw(), r.State, r.ClientOutcome, r.WastedWorkMs)
	}
	for _, c := range tr.Checks {
		ok := "null"
		if c.OK != nil {
			ok = fmt.Sprint(*c.OK)
		}
		fmt.Printf("check %s %s %s\n", c.Rule, ok, c.Detail)
	}
	fmt.Println("skipped", tr.Skipped)
}
