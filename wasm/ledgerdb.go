//go:build js && wasm && ledger

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/ledger"
)

// The idempotency ledger in the browser (DOMAIN.md §4): a ledger.Store on
// SQLite's own WebAssembly build, which the engine worker loads beside
// ledger.wasm (site/static/sqlite.js, built from site/editor/sqlite.js) and
// exposes as self.mcplabSQLite (the page loads it too, for mcplab.run). V8 compiles that SQLite to machine code;
// ncruces/go-sqlite3, which native builds keep (engine/ledger/sqlite), would
// run it in wazero's interpreter inside this binary, 40-100x slower
// (issue 11). Both are SQLite 3.54.1 and run the same SQL (ledger.SQL*), so
// a run's trace is byte for byte the native one (the site's browser tests
// compare every ledger page with its prerendered run).
//
// Each ledger is a database in SQLite's memdb VFS under a name unique in
// the worker ("/mcplab-ledger-N"), shared by the ledger's connections with
// SQLite's own locks between them and no busy timeout, so a simulated race
// is decided by SQLite and stays deterministic: BEGIN IMMEDIATE on a
// second connection answers SQLITE_BUSY (ledger.ErrBusy) at once.

// sqliteBusy is SQLITE_BUSY, the primary result code (the low 8 bits of an
// extended one).
const sqliteBusy = 5

// jsLedgers numbers the databases of this worker.
var jsLedgers atomic.Int64

// errNoSQLite is what a ledger run answers when SQLite was not loaded
// (site/static/app.js and worker.js load it before they start ledger.wasm;
// a script that starts ledger.wasm itself must too).
var errNoSQLite = errors.New("ledger: the browser's SQLite is not loaded (self.mcplabSQLite, from sqlite.js)")

// sqliteAPI is self.mcplabSQLite, or an error when it is missing.
func sqliteAPI() (js.Value, error) {
	api := js.Global().Get("mcplabSQLite")
	if api.Type() != js.TypeObject {
		return js.Value{}, errNoSQLite
	}
	return api, nil
}

// A lesson page re-runs its scenario on every control change, within a
// frame (issue 11), and creating the schema is most of a small ledger
// run's SQLite time (about 0.4 ms of two CREATE TABLEs, against 10-30 us
// per statement). So, as engine/ledger/sqlite's pool does natively, a
// closed ledger is emptied (ledger.SQLEmpty*, in one transaction) and kept
// with its open connections and their prepared statements, and the next
// run takes it: the same empty tables a fresh database has, executions
// numbered from MAX(n) (0 when empty), records read ordered by key, and a
// connection given back mid-transaction rolled back first. Bounds:
// jsPoolLedgers ledgers, each keeping jsPoolConns idle connections;
// beyond them they are really closed.
const (
	jsPoolLedgers = 4
	jsPoolConns   = 4
)

// jsPool holds the emptied ledgers newJSLedger hands out first.
var jsPool struct {
	mu  sync.Mutex
	dbs []*jsLedger
}

// newJSLedger opens a fresh, empty in-memory ledger: the engine's
// Options.OpenLedger in ledger.wasm. It is an emptied one from jsPool when
// there is one, else a new database, whose keeper connection creates the
// schema and stays open until the ledger is really closed (memdb frees a
// database with its last connection).
func newJSLedger() (ledger.Store, error) {
	jsPool.mu.Lock()
	if n := len(jsPool.dbs); n > 0 {
		l := jsPool.dbs[n-1]
		jsPool.dbs = jsPool.dbs[:n-1]
		jsPool.mu.Unlock()
		l.closed = false
		return l, nil
	}
	jsPool.mu.Unlock()
	api, err := sqliteAPI()
	if err != nil {
		return nil, err
	}
	l := &jsLedger{api: api, name: "/mcplab-ledger-" + strconv.FormatInt(jsLedgers.Add(1), 10)}
	keeper, err := l.open()
	if err != nil {
		return nil, err
	}
	if _, err := keeper.call("exec", ledger.SQLSchema); err != nil {
		keeper.really()
		return nil, fmt.Errorf("ledger: schema: %w", err)
	}
	l.keeper = keeper
	return l, nil
}

// jsLedger is one memdb database of the browser's SQLite.
type jsLedger struct {
	api    js.Value
	name   string
	keeper *jsConn // holds the database open; empties it for the pool
	mu     sync.Mutex
	idle   []*jsConn // open connections Connect hands out first
	out    int       // connections handed out and not closed yet
	closed bool
}

// Connect returns a connection to the ledger's database: an idle one
// (statements prepared) or a new one.
func (l *jsLedger) Connect() (ledger.Conn, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, errors.New("ledger: connect after close")
	}
	l.out++
	if n := len(l.idle); n > 0 {
		c := l.idle[n-1]
		l.idle = l.idle[:n-1]
		l.mu.Unlock()
		return &jsConn{api: c.api, h: c.h, home: l}, nil
	}
	l.mu.Unlock()
	c, err := l.open()
	if err != nil {
		l.mu.Lock()
		l.out--
		l.mu.Unlock()
		return nil, err
	}
	c.home = l
	return c, nil
}

// open opens a new connection to the database.
func (l *jsLedger) open() (*jsConn, error) {
	h := l.api.Call("open", l.name)
	if h.Type() != js.TypeNumber {
		return nil, fmt.Errorf("ledger: open: %w", sqliteError(h))
	}
	return &jsConn{api: l.api, h: h.Int()}, nil
}

// Close ends the ledger: emptied and kept for the next newJSLedger when
// every connection was given back and the pool has room, else really
// closed (its data is gone). A second Close does nothing.
func (l *jsLedger) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	out := l.out
	l.mu.Unlock()
	if out == 0 && l.empty() {
		jsPool.mu.Lock()
		if len(jsPool.dbs) < jsPoolLedgers {
			jsPool.dbs = append(jsPool.dbs, l)
			jsPool.mu.Unlock()
			return nil
		}
		jsPool.mu.Unlock()
	}
	l.mu.Lock()
	idle := l.idle
	l.idle = nil
	l.mu.Unlock()
	for _, c := range idle {
		c.really()
	}
	l.keeper.really()
	return nil
}

// empty deletes every row of both tables in one transaction; false when
// that failed (the ledger is then really closed).
func (l *jsLedger) empty() bool {
	for _, sql := range []string{ledger.SQLBegin, ledger.SQLEmptyRecords, ledger.SQLEmptyExecutions, ledger.SQLCommit} {
		if _, err := l.keeper.call("query", sql); err != nil {
			l.keeper.Rollback()
			return false
		}
	}
	return true
}

// giveBack takes connection c back, rolled back and still open, while
// the ledger is open and keeps fewer than jsPoolConns; else it is really
// closed.
func (l *jsLedger) giveBack(c *jsConn) {
	c.Rollback()
	kept := &jsConn{api: c.api, h: c.h}
	l.mu.Lock()
	l.out--
	keep := !l.closed && len(l.idle) < jsPoolConns
	if keep {
		l.idle = append(l.idle, kept)
	}
	l.mu.Unlock()
	if !keep {
		kept.really()
	}
}

// jsConn is one connection (a handle of self.mcplabSQLite).
type jsConn struct {
	api  js.Value
	h    int       // 0 once closed
	home *jsLedger // the ledger it goes back to on Close, nil for a keeper
}

// sqlError is a failure SQLite answered: its extended result code and
// message.
type sqlError struct {
	code    int
	message string
}

func (e *sqlError) Error() string { return e.message }

// sqliteError reads an answer's {code, message}.
func sqliteError(v js.Value) error {
	if v.Type() != js.TypeObject {
		return &sqlError{code: 1, message: "SQLite answered " + v.Type().String()}
	}
	return &sqlError{code: v.Get("code").Int(), message: v.Get("message").String()}
}

// busy reports whether err is SQLITE_BUSY (another connection holds the
// write lock).
func busy(err error) bool {
	var e *sqlError
	return errors.As(err, &e) && e.code&0xff == sqliteBusy
}

// call runs method ("exec" or "query") with sql and args (strings and
// int64s) and returns the rows, each an array of column values.
func (c *jsConn) call(method, sql string, args ...any) (js.Value, error) {
	if c.h == 0 {
		return js.Value{}, errors.New("ledger: connection is closed")
	}
	var r js.Value
	if method == "exec" {
		r = c.api.Call("exec", c.h, sql)
	} else {
		params := make([]any, len(args))
		for i, a := range args {
			switch v := a.(type) {
			case int64:
				params[i] = float64(v) // virtual ms and execution numbers: far below 2^53
			default:
				params[i] = v
			}
		}
		r = c.api.Call("query", c.h, sql, params)
	}
	rows := r.Get("rows")
	if rows.Type() != js.TypeObject {
		return js.Value{}, sqliteError(r)
	}
	return rows, nil
}

// Close gives the connection back to its ledger, rolling back any open
// transaction. A second Close does nothing.
func (c *jsConn) Close() error {
	if c.h == 0 {
		return nil
	}
	if c.home != nil {
		c.home.giveBack(c)
		c.h, c.home = 0, nil
		return nil
	}
	c.really()
	return nil
}

// really closes the connection and its statements.
func (c *jsConn) really() {
	if c.h != 0 {
		c.api.Call("close", c.h)
		c.h = 0
	}
}

// Begin starts BEGIN IMMEDIATE, or returns ledger.ErrBusy when another
// connection holds the write lock.
func (c *jsConn) Begin() error {
	if _, err := c.call("query", ledger.SQLBegin); err != nil {
		if busy(err) {
			return ledger.ErrBusy
		}
		return fmt.Errorf("ledger: begin: %w", err)
	}
	return nil
}

// Commit commits the open transaction.
func (c *jsConn) Commit() error {
	if _, err := c.call("query", ledger.SQLCommit); err != nil {
		return fmt.Errorf("ledger: commit: %w", err)
	}
	return nil
}

// Rollback abandons the open transaction, if any.
func (c *jsConn) Rollback() {
	if c.h != 0 && !c.api.Call("autocommit", c.h).Bool() {
		_, _ = c.call("query", ledger.SQLRollback)
	}
}

// record reads a row of ledger.SQLLookup or ledger.SQLRecords.
func record(row js.Value) ledger.Record {
	return ledger.Record{Key: row.Index(0).String(), Tool: row.Index(1).String(), Fingerprint: row.Index(2).String(), Result: []byte(row.Index(3).String()), CommittedAt: int64(row.Index(4).Float())}
}

// Lookup returns the committed record for key, or nil.
func (c *jsConn) Lookup(key string) (*ledger.Record, error) {
	rows, err := c.call("query", ledger.SQLLookup, key)
	if err != nil {
		return nil, fmt.Errorf("ledger: lookup: %w", err)
	}
	if rows.Length() == 0 {
		return nil, nil
	}
	r := record(rows.Index(0))
	return &r, nil
}

// Execute performs the simulated side effect at virtual time now (ms):
// execution n with its receipt, and, with store and a key, the record in
// the same transaction (engine/ledger/sqlite's Conn.Execute, on this
// SQLite).
func (c *jsConn) Execute(now int64, in ledger.Intent, store bool) (ledger.Outcome, error) {
	n, err := c.count()
	if err != nil {
		return ledger.Outcome{}, err
	}
	n++
	result := ledger.ResultFor(in, n)
	_, err = c.call("query", ledger.SQLInsertExecution, n, in.Tool, ledger.ReceiptFor(in.Tool, n), string(in.Args), now)
	if err == nil && store && in.Key != "" {
		_, err = c.call("query", ledger.SQLInsertRecord, in.Key, in.Tool, in.Fingerprint, string(result), now)
	}
	if err != nil {
		if busy(err) {
			return ledger.Outcome{}, ledger.ErrBusy
		}
		return ledger.Outcome{}, fmt.Errorf("ledger: %w", err)
	}
	return ledger.Outcome{Execution: int(n), Result: result}, nil
}

// Executions returns how many side effects have run.
func (c *jsConn) Executions() (int, error) {
	n, err := c.count()
	return int(n), err
}

func (c *jsConn) count() (int64, error) {
	rows, err := c.call("query", ledger.SQLCount)
	if err != nil {
		return 0, fmt.Errorf("ledger: count: %w", err)
	}
	if rows.Length() == 0 {
		return 0, nil
	}
	return int64(rows.Index(0).Index(0).Float()), nil
}

// Records returns every committed record, ordered by key.
func (c *jsConn) Records() ([]ledger.Record, error) {
	rows, err := c.call("query", ledger.SQLRecords)
	if err != nil {
		return nil, fmt.Errorf("ledger: records: %w", err)
	}
	out := make([]ledger.Record, rows.Length())
	for i := range out {
		out[i] = record(rows.Index(i))
	}
	return out, nil
}

// Log returns the executions, oldest first, as ledger.LogEntry objects.
func (c *jsConn) Log() ([]json.RawMessage, error) {
	rows, err := c.call("query", ledger.SQLLog)
	if err != nil {
		return nil, fmt.Errorf("ledger: log: %w", err)
	}
	out := make([]json.RawMessage, rows.Length())
	for i := range out {
		r := rows.Index(i)
		out[i] = ledger.LogEntry(int64(r.Index(0).Float()), r.Index(1).String(), r.Index(2).String(), r.Index(3).String(), int64(r.Index(4).Float()))
	}
	return out, nil
}

var (
	_ ledger.Store = (*jsLedger)(nil)
	_ ledger.Conn  = (*jsConn)(nil)
)
