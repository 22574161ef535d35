package ledger

import (
	"encoding/json"
	"errors"
	"sync"
)

// Opening SQLite is most of a small ledger run's cost, natively and in the
// browser (a ledger lesson page re-runs its scenario on every
// control change, within a 16 ms frame): every new database runs the
// schema, every connection opens SQLite and prepares its statements. So
// both SQLite bindings (package ledger/sqlite natively, wasm/jsledger/jsledger.go in
// the browser) hand out their in-memory ledgers through one Pool: a closed
// connection goes back to its ledger, open, with its prepared statements,
// and a closed ledger goes back to the pool once emptied (SQLEmptyRecords
// and SQLEmptyExecutions, in one transaction), so the next run finds the
// same empty tables a fresh database has, without opening SQLite or
// running the schema.
//
// What a run can observe is the same as on a fresh database (DOMAIN.md §4,
// every run starts on an empty ledger): the tables are empty, executions
// are numbered from MAX(n) (0 when empty, SQLCount), records are read
// ordered by key (SQLRecords), and a connection given back mid-transaction
// is rolled back first, as closing it would.
//
// Bounds: a Pool keeps at most PoolLedgers = 4 emptied ledgers, and each
// ledger keeps at most PoolConns = 4 idle connections (a run uses one per
// replica and one per raced call); beyond them, connections and ledgers
// are really closed.
const (
	// PoolLedgers is how many emptied ledgers a Pool keeps: 4.
	PoolLedgers = 4
	// PoolConns is how many idle connections a pooled ledger keeps open: 4.
	PoolConns = 4
)

// DB is one database of a SQLite binding as a Pool holds it: a database
// whose schema (SQLSchema) exists, and the raw connections to it.
type DB interface {
	// Open opens a new connection to the database. The pool closes it
	// with its Close, which really closes it.
	Open() (RawConn, error)
	// Close really closes the database (an in-memory one is gone). The
	// pool calls it once, after it has closed the connections it kept.
	Close() error
}

// RawConn is one connection of a binding: a Conn whose Close really
// closes it (and its prepared statements) and whose Rollback abandons the
// open transaction, if any (a no-op in autocommit), plus Exec.
type RawConn interface {
	Conn
	// Exec runs one statement without parameters (SQLBegin,
	// SQLEmptyRecords, SQLEmptyExecutions, SQLCommit: how the pool empties
	// a ledger).
	Exec(sql string) error
}

// Pool hands out fresh, empty in-memory ledgers (Store), emptied ones it
// kept first, new ones from its open function otherwise; see PoolLedgers
// and PoolConns for its bounds. It is safe for use by several goroutines.
type Pool struct {
	open func() (DB, error)
	mu   sync.Mutex
	kept []pooled // at most PoolLedgers, the last kept handed out first
}

// pooled is a closed, emptied ledger: its database and idle connections.
type pooled struct {
	db   DB
	idle []RawConn
}

// NewPool returns an empty pool whose new ledgers come from open, which
// returns a new database with its schema and empty tables.
func NewPool(open func() (DB, error)) *Pool {
	return &Pool{open: open}
}

// Open returns a fresh, empty ledger: an emptied one the pool kept when
// there is one, else a new database from the pool's open function (whose
// error it returns). Its Close gives it back to the pool; its connections'
// Close give them back to it. A second Close of either does nothing, and
// a connection used after Close answers an error.
func (p *Pool) Open() (Store, error) {
	p.mu.Lock()
	if n := len(p.kept); n > 0 {
		k := p.kept[n-1]
		p.kept = p.kept[:n-1]
		p.mu.Unlock()
		return &poolStore{pool: p, db: k.db, idle: k.idle}, nil
	}
	p.mu.Unlock()
	db, err := p.open()
	if err != nil {
		return nil, err
	}
	return &poolStore{pool: p, db: db}, nil
}

// keep empties a closed ledger and keeps it; false (nothing kept, the
// caller closes everything) when emptying fails or the pool is full.
//
// With no idle connection the ledger was never connected to (the first
// connection given back is always kept while the ledger is open), so its
// tables are as empty as when it was handed out and it is kept as it is.
func (p *Pool) keep(db DB, idle []RawConn) bool {
	if len(idle) > 0 && empty(idle[0]) != nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.kept) >= PoolLedgers {
		return false
	}
	p.kept = append(p.kept, pooled{db: db, idle: idle})
	return true
}

// empty deletes every row of both tables through c, in one transaction.
func empty(c RawConn) error {
	for _, sql := range [...]string{SQLBegin, SQLEmptyRecords, SQLEmptyExecutions, SQLCommit} {
		if err := c.Exec(sql); err != nil {
			c.Rollback()
			return err
		}
	}
	return nil
}

// poolStore is a ledger handed out by Pool.Open: a new value each time, so
// a second Close of an earlier hand-out cannot close a later one.
type poolStore struct {
	pool   *Pool
	db     DB
	mu     sync.Mutex // guards idle, out and closed: Connect may be called from several goroutines (the two-connection race)
	idle   []RawConn  // open connections Connect hands out before opening one, at most PoolConns
	out    int        // connections handed out and not given back yet
	closed bool
}

// errClosed is what a ledger or connection answers once closed.
var errClosed = errors.New("ledger: used after Close")

// Connect returns a connection: an idle one (statements prepared) or a
// new one from the database.
func (s *poolStore) Connect() (Conn, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errClosed
	}
	s.out++
	var raw RawConn
	if n := len(s.idle); n > 0 {
		raw = s.idle[n-1]
		s.idle = s.idle[:n-1]
	}
	s.mu.Unlock()
	if raw == nil {
		var err error
		if raw, err = s.db.Open(); err != nil {
			s.mu.Lock()
			s.out--
			s.mu.Unlock()
			return nil, err
		}
	}
	return &poolConn{Conn: raw, raw: raw, home: s}, nil
}

// Close gives the ledger back to the pool, emptied, when every connection
// was given back and the pool has room; else it really closes the idle
// connections and the database. A second Close does nothing.
func (s *poolStore) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	idle, out := s.idle, s.out
	s.idle = nil
	s.mu.Unlock()
	if out == 0 && s.pool.keep(s.db, idle) {
		return nil
	}
	for _, c := range idle {
		c.Close()
	}
	return s.db.Close()
}

// giveBack takes connection c back, rolled back and still open, while the
// ledger is open and keeps fewer than PoolConns idle ones; else it really
// closes it.
func (s *poolStore) giveBack(c RawConn) {
	c.Rollback()
	s.mu.Lock()
	s.out--
	keep := !s.closed && len(s.idle) < PoolConns
	if keep {
		s.idle = append(s.idle, c)
	}
	s.mu.Unlock()
	if !keep {
		c.Close()
	}
}

// poolConn is a connection handed out by a poolStore: the binding's
// connection for every operation but Close, which gives it back.
type poolConn struct {
	Conn         // raw while handed out, closedConn after Close
	raw  RawConn // nil after Close
	home *poolStore
}

// Close gives the connection back to its ledger, rolling back any open
// transaction. A second Close does nothing.
func (c *poolConn) Close() error {
	if c.raw == nil {
		return nil
	}
	raw := c.raw
	c.Conn, c.raw = closedConn{}, nil
	c.home.giveBack(raw)
	return nil
}

// closedConn is a connection after Close: every operation answers
// errClosed.
type closedConn struct{}

func (closedConn) Begin() error                                 { return errClosed }
func (closedConn) Commit() error                                { return errClosed }
func (closedConn) Rollback()                                    {}
func (closedConn) Lookup(string) (*Record, error)               { return nil, errClosed }
func (closedConn) Execute(int64, Intent, bool) (Outcome, error) { return Outcome{}, errClosed }
func (closedConn) Executions() (int, error)                     { return 0, errClosed }
func (closedConn) Records() ([]Record, error)                   { return nil, errClosed }
func (closedConn) Log() ([]json.RawMessage, error)              { return nil, errClosed }
func (closedConn) Close() error                                 { return nil }

var (
	_ Store = (*poolStore)(nil)
	_ Conn  = (*poolConn)(nil)
	_ Conn  = closedConn{}
)
