package ledger_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/mcplab/mcplab/engine/ledger"
)

// fakeBinding is a SQLite binding for the pool's tests: every database it
// opens is a fakeDB, counted, so a test sees what the pool opened, reused
// and really closed.
type fakeBinding struct {
	dbs []*fakeDB
}

func (b *fakeBinding) open() (ledger.DB, error) {
	db := &fakeDB{id: len(b.dbs) + 1}
	b.dbs = append(b.dbs, db)
	return db, nil
}

// closedDBs counts the databases the pool really closed.
func (b *fakeBinding) closedDBs() int {
	n := 0
	for _, db := range b.dbs {
		if db.closed {
			n++
		}
	}
	return n
}

// fakeState is the two tables: committed records and the execution log.
type fakeState struct {
	records []ledger.Record
	log     []json.RawMessage
}

// fakeDB is one database: its committed tables, SQLite's one write lock
// (BEGIN IMMEDIATE), and counters of what the pool did to it.
type fakeDB struct {
	id         int
	state      fakeState
	holder     *fakeConn // the connection holding the write lock, or nil
	opened     int       // connections opened
	reallyShut int       // connections really closed
	rollbacks  int       // open transactions rolled back
	closed     bool
	failEmpty  bool // SQLEmptyRecords fails (a database that cannot be emptied)
}

func (db *fakeDB) Open() (ledger.RawConn, error) {
	if db.closed {
		return nil, errors.New("fake: database closed")
	}
	db.opened++
	return &fakeConn{db: db}, nil
}

func (db *fakeDB) Close() error {
	db.closed = true
	return nil
}

// fakeConn is one connection: in a transaction it works on a copy of the
// tables, written back by Commit, dropped by Rollback.
type fakeConn struct {
	db     *fakeDB
	tx     *fakeState // the open transaction's tables, nil in autocommit
	closed bool
}

// tables is what the connection reads and writes: its transaction's
// tables, else the committed ones (autocommit).
func (c *fakeConn) tables() *fakeState {
	if c.tx != nil {
		return c.tx
	}
	return &c.db.state
}

func (c *fakeConn) Exec(sql string) error {
	switch sql {
	case ledger.SQLBegin:
		return c.Begin()
	case ledger.SQLCommit:
		return c.Commit()
	case ledger.SQLRollback:
		c.Rollback()
		return nil
	case ledger.SQLEmptyRecords:
		if c.db.failEmpty {
			return errors.New("fake: disk I/O error")
		}
		c.tables().records = nil
		return nil
	case ledger.SQLEmptyExecutions:
		c.tables().log = nil
		return nil
	}
	return fmt.Errorf("fake: unknown statement %q", sql)
}

func (c *fakeConn) Begin() error {
	switch {
	case c.closed:
		return errors.New("fake: connection closed")
	case c.tx != nil:
		return errors.New("fake: cannot start a transaction within a transaction")
	case c.db.holder != nil:
		return ledger.ErrBusy
	}
	c.db.holder = c
	c.tx = &fakeState{records: append([]ledger.Record(nil), c.db.state.records...), log: append([]json.RawMessage(nil), c.db.state.log...)}
	return nil
}

func (c *fakeConn) Commit() error {
	if c.tx == nil {
		return errors.New("fake: cannot commit - no transaction is active")
	}
	c.db.state, c.tx, c.db.holder = *c.tx, nil, nil
	return nil
}

func (c *fakeConn) Rollback() {
	if c.tx != nil {
		c.tx, c.db.holder = nil, nil
		c.db.rollbacks++
	}
}

func (c *fakeConn) Lookup(key string) (*ledger.Record, error) {
	for _, r := range c.tables().records {
		if r.Key == key {
			return &r, nil
		}
	}
	return nil, nil
}

func (c *fakeConn) Execute(now int64, in ledger.Intent, store bool) (ledger.Outcome, error) {
	t := c.tables()
	n := int64(len(t.log)) + 1
	result := ledger.ResultFor(in, n)
	t.log = append(t.log, ledger.LogEntry(n, in.Tool, ledger.ReceiptFor(in.Tool, n), string(in.Args), now))
	if store && in.Key != "" {
		t.records = append(t.records, ledger.Record{Key: in.Key, Tool: in.Tool, Fingerprint: in.Fingerprint, Result: result, CommittedAt: now})
	}
	return ledger.Outcome{Execution: int(n), Result: result}, nil
}

func (c *fakeConn) Executions() (int, error) { return len(c.tables().log), nil }

func (c *fakeConn) Records() ([]ledger.Record, error) {
	out := append([]ledger.Record{}, c.tables().records...)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func (c *fakeConn) Log() ([]json.RawMessage, error) {
	return append([]json.RawMessage{}, c.tables().log...), nil
}

// Close really closes the connection, rolling back its transaction.
func (c *fakeConn) Close() error {
	if !c.closed {
		c.Rollback()
		c.closed = true
		c.db.reallyShut++
	}
	return nil
}

var _ ledger.RawConn = (*fakeConn)(nil)

func mustOpen(t *testing.T, p *ledger.Pool) ledger.Store {
	t.Helper()
	st, err := p.Open()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func mustConnect(t *testing.T, st ledger.Store) ledger.Conn {
	t.Helper()
	c, err := st.Connect()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func charge(t *testing.T, args string) ledger.Intent {
	t.Helper()
	in, err := ledger.Prepare("charge_account", json.RawMessage(args), json.RawMessage(`1`))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// Rule (DOMAIN.md §4, every run starts on an empty ledger,
// SQLite opened once per page, not per run): a ledger the pool hands out
// again after Close is the same database with the same open connection,
// emptied: no record, no execution, and the first charge is execution 1,
// not a replay of the key it held before.
func TestPoolReusesAnEmptiedLedger(t *testing.T) {
	b := &fakeBinding{}
	p := ledger.NewPool(b.open)
	st := mustOpen(t, p)
	c := mustConnect(t, st)
	in := charge(t, `{"account":"a","cents":100,"idempotencyKey":"k-1"}`)
	for i, want := range []int{1, 2} {
		if out, err := ledger.Apply(c, 10, charge(t, fmt.Sprintf(`{"account":"a","cents":%d}`, 5+i)), true); err != nil || out.Execution != want {
			t.Fatalf("charge %d: %+v (%v), want execution %d", i+1, out, err, want)
		}
	}
	if _, err := ledger.Apply(c, 20, in, true); err != nil {
		t.Fatal(err)
	}
	c.Close()
	st.Close()

	again := mustOpen(t, p)
	defer again.Close()
	conn := mustConnect(t, again)
	defer conn.Close()
	if len(b.dbs) != 1 || b.dbs[0].opened != 1 {
		t.Fatalf("two ledgers in a row: %d databases opened, the first with %d connections; want 1 database with 1 connection (reused)", len(b.dbs), b.dbs[0].opened)
	}
	if n, err := conn.Executions(); err != nil || n != 0 {
		t.Errorf("reused ledger: %d executions (%v), want 0", n, err)
	}
	if recs, err := conn.Records(); err != nil || len(recs) != 0 {
		t.Errorf("reused ledger: records %+v (%v), want none", recs, err)
	}
	if log, err := conn.Log(); err != nil || len(log) != 0 {
		t.Errorf("reused ledger: log %s (%v), want empty", log, err)
	}
	out, err := ledger.Apply(conn, 30, in, true)
	if err != nil || out.Execution != 1 || out.Replayed {
		t.Errorf("key k-1 on the reused ledger: %+v (%v), want execution 1, not a replay", out, err)
	}
}

// Rule (DOMAIN.md §4, an effect commits only with its transaction; closing
// a connection rolls back what it did not commit): a connection given back
// in the middle of a transaction is rolled back, its effect and record
// gone and the write lock free, and the pool keeps it open for the next
// Connect.
func TestPoolRollsBackAConnectionGivenBackMidTransaction(t *testing.T) {
	b := &fakeBinding{}
	st := mustOpen(t, ledger.NewPool(b.open))
	defer st.Close()
	c := mustConnect(t, st)
	if err := c.Begin(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Execute(10, charge(t, `{"account":"a","cents":5,"idempotencyKey":"k-2"}`), true); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c.Close() // a second Close does nothing
	db := b.dbs[0]
	if db.rollbacks != 1 || db.holder != nil || db.reallyShut != 0 {
		t.Fatalf("given back mid-transaction: %d rollbacks, lock held %v, %d really closed; want 1 rollback, lock free, 0 closed", db.rollbacks, db.holder != nil, db.reallyShut)
	}
	if _, err := c.Executions(); err == nil {
		t.Errorf("a connection used after Close answered no error")
	}
	next := mustConnect(t, st)
	defer next.Close()
	if db.opened != 1 {
		t.Errorf("the next Connect opened a connection (%d opened); want the one given back", db.opened)
	}
	if err := next.Begin(); err != nil {
		t.Fatalf("BEGIN on the connection given back: %v, want the write lock", err)
	}
	if n, err := next.Executions(); err != nil || n != 0 {
		t.Errorf("after the rollback: %d executions (%v), want 0", n, err)
	}
	if rec, err := next.Lookup("k-2"); err != nil || rec != nil {
		t.Errorf("after the rollback: record %+v (%v), want none", rec, err)
	}
}

// Rule (engine/ledger/pool.go's bounds): a ledger keeps at most
// PoolConns = 4 idle connections and really closes the others; a Pool
// keeps at most PoolLedgers = 4 emptied ledgers and really closes the
// others with their connections.
func TestPoolBounds(t *testing.T) {
	if ledger.PoolConns != 4 || ledger.PoolLedgers != 4 {
		t.Fatalf("bounds %d connections, %d ledgers; pool.go documents 4 and 4", ledger.PoolConns, ledger.PoolLedgers)
	}
	b := &fakeBinding{}
	p := ledger.NewPool(b.open)

	st := mustOpen(t, p)
	var conns []ledger.Conn
	for i := 0; i < ledger.PoolConns+2; i++ {
		conns = append(conns, mustConnect(t, st))
	}
	for _, c := range conns {
		c.Close()
	}
	db := b.dbs[0]
	if db.opened != ledger.PoolConns+2 || db.reallyShut != 2 {
		t.Fatalf("%d connections given back: %d really closed, want 2 (%d kept)", db.opened, db.reallyShut, ledger.PoolConns)
	}
	conns = conns[:0]
	for i := 0; i < ledger.PoolConns+1; i++ {
		conns = append(conns, mustConnect(t, st))
	}
	if db.opened != ledger.PoolConns+3 {
		t.Errorf("%d connections after %d were kept: %d opened in all, want %d (one new)", ledger.PoolConns+1, ledger.PoolConns, db.opened, ledger.PoolConns+3)
	}
	for _, c := range conns {
		c.Close()
	}
	st.Close()

	var stores []ledger.Store
	for i := 0; i < ledger.PoolLedgers+2; i++ {
		st := mustOpen(t, p)
		mustConnect(t, st).Close()
		stores = append(stores, st)
	}
	if len(b.dbs) != ledger.PoolLedgers+2 {
		t.Fatalf("%d ledgers open at once, one of them pooled: %d databases opened, want %d", ledger.PoolLedgers+2, len(b.dbs), ledger.PoolLedgers+2)
	}
	for _, st := range stores {
		st.Close()
	}
	if n := b.closedDBs(); n != 2 {
		t.Errorf("%d ledgers closed: %d databases really closed, want 2 (%d kept)", ledger.PoolLedgers+2, n, ledger.PoolLedgers)
	}
	for _, db := range b.dbs {
		if db.closed && db.reallyShut != db.opened {
			t.Errorf("database %d really closed with %d of its %d connections open", db.id, db.opened-db.reallyShut, db.opened)
		}
	}
	for i := 0; i < ledger.PoolLedgers+1; i++ {
		defer mustOpen(t, p).Close()
	}
	if len(b.dbs) != ledger.PoolLedgers+3 {
		t.Errorf("%d ledgers after %d were kept: %d databases opened in all, want %d (one new)", ledger.PoolLedgers+1, ledger.PoolLedgers, len(b.dbs), ledger.PoolLedgers+3)
	}
}

// Rule (DOMAIN.md §4, every run starts on an empty ledger): the pool keeps
// only a ledger it emptied. One closed with a connection still handed out,
// or whose emptying failed, is really closed (emptying rolled back), and
// the next Open is a new database; a closed ledger refuses Connect.
func TestPoolKeepsOnlyWhatItEmptied(t *testing.T) {
	b := &fakeBinding{}
	p := ledger.NewPool(b.open)

	st := mustOpen(t, p)
	out := mustConnect(t, st)
	st.Close()
	st.Close() // a second Close does nothing
	if !b.dbs[0].closed {
		t.Errorf("a ledger closed with a connection out was kept; want it really closed")
	}
	if _, err := st.Connect(); err == nil {
		t.Errorf("Connect after Close answered no error")
	}
	out.Close()
	if b.dbs[0].reallyShut != 1 {
		t.Errorf("the connection given back after its ledger closed: %d really closed, want 1", b.dbs[0].reallyShut)
	}

	st = mustOpen(t, p)
	mustConnect(t, st).Close()
	b.dbs[1].failEmpty = true
	st.Close()
	if db := b.dbs[1]; !db.closed || db.rollbacks != 1 || db.holder != nil {
		t.Errorf("a ledger that could not be emptied: closed %v, %d rollbacks, lock held %v; want closed, 1 rollback, lock free", db.closed, db.rollbacks, db.holder != nil)
	}
	defer mustOpen(t, p).Close()
	if len(b.dbs) != 3 {
		t.Errorf("after two ledgers that could not be kept: %d databases opened, want 3", len(b.dbs))
	}
}
