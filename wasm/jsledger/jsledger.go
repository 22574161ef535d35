//go:build js && wasm

// Package jsledger is the idempotency ledger in the browser (DOMAIN.md
// §4): a ledger.Store on SQLite's own WebAssembly build, for ledger.wasm's
// runs (engine.Options.OpenLedger = Open).
package jsledger

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
// run it in wazero's interpreter inside this binary, 40-100x slower.
// Both are SQLite 3.54.1 and run the same SQL (ledger.SQL*), so
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

// jsPool holds the emptied ledgers Open hands out first: the pool
// engine/ledger/sqlite keeps natively (ledger.Pool: at most
// ledger.PoolLedgers = 4 ledgers, each keeping at most ledger.PoolConns = 4
// idle connections with their prepared statements), here over jsDB. A
// lesson page re-runs its scenario on every control change, within a frame
// (16 ms), and creating the schema is most of a small ledger run's
// SQLite time (about 0.4 ms of two CREATE TABLEs, against 10-30 us per
// statement).
var jsPool = ledger.NewPool(openJSDB)

// Open opens a fresh, empty in-memory ledger: the engine's
// Options.OpenLedger in ledger.wasm. It is an emptied one from jsPool when
// there is one, else a new database (openJSDB).
func Open() (ledger.Store, error) { return jsPool.Open() }

// jsDB is one memdb database of the browser's SQLite (ledger.DB).
type jsDB struct {
	api    js.Value
	name   string
	keeper *jsConn // created the schema; holds the database open until Close
}

// openJSDB opens a new database, whose keeper connection creates the
// schema and stays open until the database is really closed (memdb frees a
// database with its last connection).
func openJSDB() (ledger.DB, error) {
	api, err := sqliteAPI()
	if err != nil {
		return nil, err
	}
	d := &jsDB{api: api, name: "/mcplab-ledger-" + strconv.FormatInt(jsLedgers.Add(1), 10)}
	keeper, err := d.open()
	if err != nil {
		return nil, err
	}
	if _, err := keeper.call("exec", ledger.SQLSchema); err != nil {
		keeper.Close()
		return nil, fmt.Errorf("ledger: schema: %w", err)
	}
	d.keeper = keeper
	return d, nil
}

// Open opens a new connection to the database.
func (d *jsDB) Open() (ledger.RawConn, error) { return d.open() }

func (d *jsDB) open() (*jsConn, error) {
	h := d.api.Call("open", d.name)
	if h.Type() != js.TypeNumber {
		return nil, fmt.Errorf("ledger: open: %w", sqliteError(h))
	}
	return &jsConn{api: d.api, h: h.Int()}, nil
}

// Close closes the keeper: the database is gone with it.
func (d *jsDB) Close() error { return d.keeper.Close() }

// jsConn is one connection (a handle of self.mcplabSQLite), a
// ledger.RawConn: jsPool hands it out wrapped, its Close giving it back.
type jsConn struct {
	api js.Value
	h   int // 0 once closed
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

// sqlTexts holds each statement's text as a JavaScript string, made once:
// a run makes about 20 calls with a few statements, and passing the same
// string, not a new copy of it, saves its conversion from Go's memory on
// every call and lets sqlite.js's statement cache find it by a hash V8
// keeps. Bounded by the ledger's statements (ledger.SQL*, about 15).
var sqlTexts = struct {
	sync.Mutex
	m map[string]js.Value
}{m: map[string]js.Value{}}

// sqlText is sql as a JavaScript string (sqlTexts).
func sqlText(sql string) js.Value {
	sqlTexts.Lock()
	defer sqlTexts.Unlock()
	v, ok := sqlTexts.m[sql]
	if !ok {
		v = js.ValueOf(sql)
		sqlTexts.m[sql] = v
	}
	return v
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
		r = c.api.Call("query", c.h, sqlText(sql), params)
	}
	rows := r.Get("rows")
	if rows.Type() != js.TypeObject {
		return js.Value{}, sqliteError(r)
	}
	return rows, nil
}

// Close closes the connection and its statements, rolling back any open
// transaction. A second Close does nothing.
func (c *jsConn) Close() error {
	if c.h != 0 {
		c.api.Call("close", c.h)
		c.h = 0
	}
	return nil
}

// Exec runs sql, one statement without parameters, prepared once per
// connection (ledger.RawConn: how jsPool empties a ledger).
func (c *jsConn) Exec(sql string) error {
	_, err := c.call("query", sql)
	return err
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
	_ ledger.DB      = (*jsDB)(nil)
	_ ledger.RawConn = (*jsConn)(nil)
)

// Loaded reports whether the browser's SQLite is loaded here
// (self.mcplabSQLite): explore.wasm's workers load it only for a scenario
// with a ledger (?ledger=1), and give their runs a ledger only then.
func Loaded() bool {
	_, err := sqliteAPI()
	return err == nil
}
