package sqlite

import (
	"testing"

	"github.com/mcplab/mcplab/engine/ledger"
)

// Rule (DOMAIN.md §4, every run starts on an empty ledger, SQLite
// opened once per page, not per run): on this binding's real SQLite, a
// ledger the pool (NewMemory's, ledger.Pool over memDB) hands out again
// after Close is the same database, emptied: no record, no execution, the
// next execution is number 1, and a connection given back in the middle of
// a transaction had it rolled back. No SQLite is opened for it.
func TestPooledLedgerComesBackEmpty(t *testing.T) {
	// A pool of this test's own, so the reuse below is this test's ledger;
	// opened records the databases its open function made.
	var opened []*Ledger
	pool := ledger.NewPool(func() (ledger.DB, error) {
		db, err := openPooled()
		if err == nil {
			opened = append(opened, db.(memDB).l)
		}
		return db, err
	})

	st, err := pool.Open()
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.Connect()
	if err != nil {
		t.Fatal(err)
	}
	in := charge(t, `{"account":"a","cents":100,"idempotencyKey":"k-1"}`, `1`)
	if _, err := ledger.Apply(c, 10, in, true); err != nil {
		t.Fatal(err)
	}
	// A second connection leaves a transaction open with a second charge.
	c2, err := st.Connect()
	if err != nil {
		t.Fatal(err)
	}
	if err := c2.Begin(); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Execute(20, charge(t, `{"account":"a","cents":5,"idempotencyKey":"k-2"}`, `2`), true); err != nil {
		t.Fatal(err)
	}
	c2.Close()
	c2.Close() // a second Close does nothing
	if n, err := c.Executions(); err != nil || n != 1 {
		t.Errorf("after the open transaction's connection closed: %d executions (%v), want 1 (rolled back)", n, err)
	}
	c.Close()
	st.Close()
	st.Close()

	again, err := pool.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if len(opened) != 1 {
		t.Fatalf("the pool opened %d databases for two ledgers in a row; want 1 (the emptied one reused)", len(opened))
	}
	conn, err := again.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if n, err := conn.Executions(); err != nil || n != 0 {
		t.Errorf("reused ledger: %d executions (%v), want 0", n, err)
	}
	if recs, err := conn.Records(); err != nil || len(recs) != 0 {
		t.Errorf("reused ledger: records %+v (%v), want none", recs, err)
	}
	out, err := ledger.Apply(conn, 30, in, true)
	if err != nil || out.Execution != 1 || out.Replayed {
		t.Errorf("first charge on the reused ledger: %+v (%v), want execution 1, not a replay", out, err)
	}
}
