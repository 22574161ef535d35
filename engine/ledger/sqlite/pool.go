package sqlite

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcplab/mcplab/engine/ledger"
)

// Opening SQLite is most of a small ledger run's cost, under WebAssembly
// (issue 11: a ledger lesson page re-runs its scenario on every
// control change, within a 16 ms frame): every connection instantiates the
// SQLite module (its memory, its C globals) and prepares its statements.
// So the in-memory ledgers of NewMemory are pooled: a closed connection
// goes back to its ledger, open, with its prepared statements, and a
// closed ledger goes back to the pool once emptied (DELETE of both tables,
// in one transaction), so the next run finds the same empty tables a
// fresh database has, without opening SQLite or running the schema.
//
// What a run can observe is the same as on a fresh database: the tables
// are empty, executions are numbered from MAX(n) (0 when empty), records
// are read ordered by key, and a connection given back mid-transaction is
// rolled back first (as closing it would). Bounds: poolLedgers ledgers,
// each keeping poolConns connections (a run uses one per replica and one
// per raced call); beyond them connections and ledgers are really closed.
const (
	poolLedgers = 4
	poolConns   = 4
)

// pool holds the emptied in-memory ledgers NewMemory hands out first.
var pool struct {
	mu   sync.Mutex
	dbs  []pooledDB
	seq  atomic.Int64 // names of new memdb databases
	miss atomic.Int64 // NewMemory calls that opened SQLite (for tests)
}

// pooledDB is a closed, emptied ledger's database and open connections.
type pooledDB struct {
	dsn, memory string
	idle        []*Conn
}

// NewMemory opens a fresh, empty in-memory ledger, the engine's
// Options.OpenLedger natively and in the browser: an emptied one from the
// pool when there is one, else a new memdb database under a name unique
// in the process. Close gives it back.
func NewMemory() (ledger.Store, error) {
	pool.mu.Lock()
	if n := len(pool.dbs); n > 0 {
		db := pool.dbs[n-1]
		pool.dbs = pool.dbs[:n-1]
		pool.mu.Unlock()
		return &Ledger{dsn: db.dsn, memory: db.memory, idle: db.idle, pooled: true}, nil
	}
	pool.mu.Unlock()
	pool.miss.Add(1)
	l, err := OpenMemory(fmt.Sprintf("/mcplab-ledger-%d", pool.seq.Add(1)))
	if err != nil {
		return nil, err
	}
	l.pooled = true
	return l, nil
}

// recycle empties a closed pooled ledger through one of its idle
// connections and keeps it in the pool; false (nothing kept, the caller
// closes everything) when it has no connection, emptying fails or the
// pool is full.
func recycle(dsn, memory string, idle []*Conn) bool {
	if len(idle) == 0 {
		return false
	}
	c := idle[0]
	for _, sql := range []string{ledger.SQLBegin, ledger.SQLEmptyRecords, ledger.SQLEmptyExecutions, ledger.SQLCommit} {
		if err := c.run(sql); err != nil {
			c.Rollback()
			return false
		}
	}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if len(pool.dbs) >= poolLedgers {
		return false
	}
	pool.dbs = append(pool.dbs, pooledDB{dsn: dsn, memory: memory, idle: idle})
	return true
}

// giveBack takes connection c of pooled ledger l back, rolled back and
// still open, as a new *Conn (so a second Close of c does nothing); past
// poolConns, or once l is closed, it is really closed.
func (l *Ledger) giveBack(c *Conn) {
	c.Rollback()
	kept := &Conn{c: c.c, stmts: c.stmts}
	c.c, c.stmts, c.home = nil, nil, nil
	l.mu.Lock()
	l.out--
	keep := !l.closed && len(l.idle) < poolConns
	if keep {
		l.idle = append(l.idle, kept)
	}
	l.mu.Unlock()
	if !keep {
		kept.Close()
	}
}
