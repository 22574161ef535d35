// Package sqlite is the idempotency ledger of DOMAIN.md §4 on a real SQLite
// database (github.com/ncruces/go-sqlite3): a file (WAL, a busy timeout,
// BEGIN IMMEDIATE), or the memdb VFS, where a name beginning with "/" is
// shared by every connection in the process, so two connections really
// race for the same write lock. It runs the SQL of package ledger
// (ledger.SQLSchema and the statements beside it).
//
// A ledger stores, atomically and durably, an idempotency key, a
// fingerprint of the operation's arguments, and the committed result; an
// executions table is the simulated side effect (an execution counter and
// its receipt). Every value returned is decoded from the stored JSON, so a
// caller that mutates what it got back cannot change a later replay.
//
// Conn implements ledger.Conn: ledger.Apply runs the safe decision in one
// BEGIN IMMEDIATE transaction, and the phases (Begin, Lookup, Execute,
// Commit) let the engine interleave connections in a fixed order while
// SQLite's own locks decide who waits (Begin returns ledger.ErrBusy).
//
// Native binaries (mcplab run, build, review) and the engine's tests use
// this package, under Node's WebAssembly too. The site's pages do not:
// compiled to WebAssembly, it runs SQLite in wazero's interpreter, which
// made ledger.wasm 4 MB of brotli and a ledger lesson page 13 s to be
// ready; ledger.wasm uses SQLite's own WebAssembly build, the
// same release (wasm/jsledger/jsledger.go).
package sqlite

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcplab/mcplab/engine/ledger"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/vfs/memdb"
)

// Ledger is one database. Open it, Connect as many independent connections
// as needed, Close them all.
//
// The schema runs once, when the ledger is opened, on a connection the
// ledger keeps and hands to the first Connect: a run opens SQLite once per
// connection it uses and runs the schema once in all. The ledgers of
// NewMemory are pooled (pool.go, over ledger.Pool).
type Ledger struct {
	dsn    string
	memory string     // memdb name to release on Close, "" for a file
	mu     sync.Mutex // guards first: Connect may be called from several goroutines
	first  *Conn      // the connection that created the schema, until the first Connect takes it
}

// OpenFile opens (creating if needed) a ledger in the SQLite file at path,
// in WAL mode with a busy timeout for connections that wait.
func OpenFile(path string) (*Ledger, error) {
	l := &Ledger{dsn: "file:" + path + "?_pragma=busy_timeout(5000)"}
	c, err := l.connect(true)
	if err != nil {
		return nil, err
	}
	if err := c.c.Exec(`PRAGMA journal_mode=WAL`); err != nil {
		c.Close()
		return nil, fmt.Errorf("ledger: WAL: %w", err)
	}
	l.first = c
	return l, nil
}

// OpenMemory opens a ledger in the memdb VFS under name (it must begin
// with "/"), shared by every connection of the process until Close. Busy
// connections fail at once with ErrBusy instead of waiting, so a simulated
// race stays deterministic.
func OpenMemory(name string) (*Ledger, error) {
	if len(name) == 0 || name[0] != '/' {
		return nil, fmt.Errorf("ledger: memory name %q must begin with /", name)
	}
	// memdb keys shared databases by the name without its "/"; creating it
	// here holds it while connections come and go (until Close).
	memdb.Create(name[1:], nil)
	l := &Ledger{dsn: "file:" + name + "?vfs=memdb", memory: name[1:]}
	c, err := l.connect(true)
	if err != nil {
		memdb.Delete(name[1:])
		return nil, err
	}
	l.first = c
	return l, nil
}

// Close releases an in-memory ledger (its data is gone); a file stays.
// Connections taken with Connect are the caller's to close. A second
// Close does nothing. (The ledgers NewMemory hands out are ledger.Pool's:
// their Close keeps this one, emptied, for the next NewMemory, pool.go.)
func (l *Ledger) Close() error {
	l.mu.Lock()
	first, memory := l.first, l.memory
	l.first, l.memory = nil, ""
	l.mu.Unlock()
	if first != nil {
		first.Close()
	}
	if memory != "" {
		memdb.Delete(memory)
	}
	return nil
}

// Conn is one independent connection to the ledger.
type Conn struct {
	c     *sqlite3.Conn
	stmts map[string]*sqlite3.Stmt // prepared once, reused (reset) per call
}

// stmt returns the prepared statement for sql, preparing it on first use.
// The caller resets it when done (defer st.Reset()).
func (c *Conn) stmt(sql string) (*sqlite3.Stmt, error) {
	if st, ok := c.stmts[sql]; ok {
		return st, st.ClearBindings()
	}
	st, _, err := c.c.Prepare(sql)
	if err != nil {
		return nil, err
	}
	if c.stmts == nil {
		c.stmts = map[string]*sqlite3.Stmt{}
	}
	c.stmts[sql] = st
	return st, nil
}

// Connect returns a new connection: first the one that created the schema
// at Open, then freshly opened ones (the schema already exists). It is safe
// to call from several goroutines (the two-connection race does).
func (l *Ledger) Connect() (ledger.Conn, error) {
	c, err := l.conn()
	if err != nil {
		return nil, err
	}
	return c, nil
}

// conn is Connect's connection as a *Conn (the pool's ledger.RawConn).
func (l *Ledger) conn() (*Conn, error) {
	l.mu.Lock()
	c := l.first
	l.first = nil
	l.mu.Unlock()
	if c != nil {
		return c, nil
	}
	return l.connect(false)
}

func (l *Ledger) connect(schemaToo bool) (*Conn, error) {
	c, err := sqlite3.Open(l.dsn)
	if err != nil {
		return nil, fmt.Errorf("ledger: open: %w", err)
	}
	if l.memory != "" {
		err = c.BusyTimeout(0)
	} else {
		err = c.BusyTimeout(5 * time.Second)
	}
	if err == nil && schemaToo {
		err = c.Exec(ledger.SQLSchema)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("ledger: schema: %w", err)
	}
	return &Conn{c: c}, nil
}

// Close closes the connection and its prepared statements, rolling back
// any open transaction. (A connection of a NewMemory ledger is handed out
// wrapped by ledger.Pool, whose Close gives it back instead.) A second
// Close does nothing.
func (c *Conn) Close() error {
	if c.c == nil {
		return nil
	}
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = nil
	err := c.c.Close()
	c.c = nil
	return err
}

// Begin starts a BEGIN IMMEDIATE transaction: it takes the write lock or
// returns ErrBusy when another connection holds it. Begin, Commit and
// Rollback run statements prepared once per connection (sqlite3_exec would
// parse them on every call: a sixth of a warm ledger run in WebAssembly).
func (c *Conn) Begin() error {
	if err := c.Exec(ledger.SQLBegin); err != nil {
		if errors.Is(err, sqlite3.BUSY) {
			return ledger.ErrBusy
		}
		return fmt.Errorf("ledger: begin: %w", err)
	}
	return nil
}

// Commit commits the open transaction.
func (c *Conn) Commit() error {
	if err := c.Exec(ledger.SQLCommit); err != nil {
		return fmt.Errorf("ledger: commit: %w", err)
	}
	return nil
}

// Rollback abandons the open transaction, if any.
func (c *Conn) Rollback() {
	if !c.c.GetAutocommit() {
		_ = c.Exec(ledger.SQLRollback)
	}
}

// Exec runs sql, one statement without parameters, prepared once per
// connection (ledger.RawConn: how ledger.Pool empties a ledger).
func (c *Conn) Exec(sql string) error {
	st, err := c.stmt(sql)
	if err != nil {
		return err
	}
	defer st.Reset()
	return st.Exec()
}

// Lookup returns the committed record for key, or nil.
func (c *Conn) Lookup(key string) (*ledger.Record, error) {
	st, err := c.stmt(ledger.SQLLookup)
	if err != nil {
		return nil, fmt.Errorf("ledger: lookup: %w", err)
	}
	defer st.Reset()
	if err := st.BindText(1, key); err != nil {
		return nil, err
	}
	if !st.Step() {
		return nil, st.Err()
	}
	return &ledger.Record{Key: st.ColumnText(0), Tool: st.ColumnText(1), Fingerprint: st.ColumnText(2), Result: json.RawMessage(st.ColumnText(3)), CommittedAt: st.ColumnInt64(4)}, nil
}

// Execute performs the simulated side effect at virtual time now (ms): it
// appends execution n with its receipt and returns the result. When store
// is true and in has a key, the result is recorded under it in the same
// transaction. The caller holds a transaction (Begin) or runs autocommit.
func (c *Conn) Execute(now int64, in ledger.Intent, store bool) (ledger.Outcome, error) {
	n, err := c.count()
	if err != nil {
		return ledger.Outcome{}, err
	}
	n++
	result := ledger.ResultFor(in, n)
	err = c.exec(ledger.SQLInsertExecution, n, in.Tool, ledger.ReceiptFor(in.Tool, n), string(in.Args), now)
	if err == nil && store && in.Key != "" {
		err = c.exec(ledger.SQLInsertRecord, in.Key, in.Tool, in.Fingerprint, string(result), now)
	}
	if err != nil {
		return ledger.Outcome{}, err
	}
	return ledger.Outcome{Execution: int(n), Result: result}, nil
}

// Executions returns how many side effects have run.
func (c *Conn) Executions() (int, error) {
	n, err := c.count()
	return int(n), err
}

// Records returns every committed record, ordered by key.
func (c *Conn) Records() ([]ledger.Record, error) {
	st, err := c.stmt(ledger.SQLRecords)
	if err != nil {
		return nil, err
	}
	defer st.Reset()
	out := []ledger.Record{}
	for st.Step() {
		out = append(out, ledger.Record{Key: st.ColumnText(0), Tool: st.ColumnText(1), Fingerprint: st.ColumnText(2), Result: json.RawMessage(st.ColumnText(3)), CommittedAt: st.ColumnInt64(4)})
	}
	return out, st.Err()
}

// Log returns the executions (the inventory or payment log), oldest first,
// as {"n","tool","receipt","args","at"} objects.
func (c *Conn) Log() ([]json.RawMessage, error) {
	st, err := c.stmt(ledger.SQLLog)
	if err != nil {
		return nil, err
	}
	defer st.Reset()
	out := []json.RawMessage{}
	for st.Step() {
		out = append(out, ledger.LogEntry(st.ColumnInt64(0), st.ColumnText(1), st.ColumnText(2), st.ColumnText(3), st.ColumnInt64(4)))
	}
	return out, st.Err()
}

func (c *Conn) count() (int64, error) {
	st, err := c.stmt(ledger.SQLCount)
	if err != nil {
		return 0, fmt.Errorf("ledger: count: %w", err)
	}
	defer st.Reset()
	if !st.Step() {
		return 0, st.Err()
	}
	return st.ColumnInt64(0), nil
}

func (c *Conn) exec(sql string, args ...any) error {
	st, err := c.stmt(sql)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer st.Reset()
	for i, a := range args {
		switch v := a.(type) {
		case int64:
			err = st.BindInt64(i+1, v)
		case string:
			err = st.BindText(i+1, v)
		}
		if err != nil {
			return err
		}
	}
	if err := st.Exec(); err != nil {
		if errors.Is(err, sqlite3.BUSY) {
			return ledger.ErrBusy
		}
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

var _ ledger.RawConn = (*Conn)(nil)

var _ ledger.Store = (*Ledger)(nil)
