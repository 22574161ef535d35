// Package ledger is the idempotency ledger of DOMAIN.md §4 on a real SQLite
// database (github.com/ncruces/go-sqlite3): a file natively (WAL, a busy
// timeout, BEGIN IMMEDIATE), the memdb VFS in the browser, where a name
// beginning with "/" is shared by every connection in the process, so two
// connections really race for the same write lock.
//
// A ledger stores, atomically and durably, an idempotency key, a
// fingerprint of the operation's arguments, and the committed result; an
// executions table is the simulated side effect (an execution counter and
// its receipt). Every value returned is decoded from the stored JSON, so a
// caller that mutates what it got back cannot change a later replay.
//
// Two ways to use a connection:
//   - Apply runs the whole decision in one BEGIN IMMEDIATE transaction: key
//     check, effect and result insert (the safe way).
//   - Begin, Lookup, Execute and Commit expose the same work as phases, so
//     the engine can interleave two connections in a fixed order and let
//     SQLite's own locks decide who waits (Begin returns ErrBusy), or run
//     the unsafe check-then-act variant in separate transactions.
//
// Design record: the engine does not import this package (SQLite makes the
// WebAssembly binary about ten times larger); it talks to it through the
// engine.Ledger interface, and only binaries that run ledger scenarios link
// it in.
package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/vfs/memdb"
)

// Errors. ErrBusy means another connection holds the write lock; the
// caller retries after that connection commits.
var (
	ErrBusy        = errors.New("ledger: database is locked by another connection")
	ErrKeyConflict = errors.New("ledger: idempotency key reused with different arguments")
	ErrInvalid     = errors.New("ledger: invalid arguments")
)

const schema = `
CREATE TABLE IF NOT EXISTS idempotency (
  key          TEXT PRIMARY KEY,
  tool         TEXT NOT NULL,
  fingerprint  TEXT NOT NULL,
  result       TEXT NOT NULL,
  committed_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS executions (
  n       INTEGER PRIMARY KEY,
  tool    TEXT NOT NULL,
  receipt TEXT NOT NULL,
  args    TEXT NOT NULL,
  at      INTEGER NOT NULL
);`

// Ledger is one database. Open it, Connect as many independent connections
// as needed, Close them all.
type Ledger struct {
	dsn    string
	memory string // memdb name to release on Close, "" for a file
}

// OpenFile opens (creating if needed) a ledger in the SQLite file at path,
// in WAL mode with a busy timeout for connections that wait.
func OpenFile(path string) (*Ledger, error) {
	l := &Ledger{dsn: "file:" + path + "?_pragma=busy_timeout(5000)"}
	c, err := l.Connect()
	if err != nil {
		return nil, err
	}
	if err := c.c.Exec(`PRAGMA journal_mode=WAL`); err != nil {
		c.Close()
		return nil, fmt.Errorf("ledger: WAL: %w", err)
	}
	return l, c.Close()
}

// OpenMemory opens a ledger in the memdb VFS under name (it must begin
// with "/"), shared by every connection of the process until Close. Busy
// connections fail at once with ErrBusy instead of waiting, so a simulated
// race stays deterministic.
func OpenMemory(name string) (*Ledger, error) {
	if len(name) == 0 || name[0] != '/' {
		return nil, fmt.Errorf("ledger: memory name %q must begin with /", name)
	}
	memdb.Create(name, nil) // hold the database while connections come and go
	l := &Ledger{dsn: "file:" + name + "?vfs=memdb", memory: name}
	c, err := l.Connect()
	if err != nil {
		memdb.Delete(name)
		return nil, err
	}
	return l, c.Close()
}

// Close releases an in-memory ledger (its data is gone); a file stays.
func (l *Ledger) Close() error {
	if l.memory != "" {
		memdb.Delete(l.memory)
	}
	return nil
}

// Conn is one independent connection to the ledger.
type Conn struct {
	c *sqlite3.Conn
}

// Connect opens a new connection and makes sure the schema exists.
func (l *Ledger) Connect() (*Conn, error) {
	c, err := sqlite3.Open(l.dsn)
	if err != nil {
		return nil, fmt.Errorf("ledger: open: %w", err)
	}
	if l.memory != "" {
		err = c.BusyTimeout(0)
	} else {
		err = c.BusyTimeout(5 * time.Second)
	}
	if err == nil {
		err = c.Exec(schema)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("ledger: schema: %w", err)
	}
	return &Conn{c: c}, nil
}

// Close closes the connection, rolling back any open transaction.
func (c *Conn) Close() error { return c.c.Close() }

// Intent is one call of a ledger tool, already validated by Prepare.
type Intent struct {
	Tool        string          // "charge_account" or "reserve_inventory"
	Key         string          // the deduplication key, "" for none
	Fingerprint string          // SHA-256 hex of the canonical arguments
	Args        json.RawMessage // the canonical arguments
	RPCID       json.RawMessage // the JSON-RPC id of this call
}

// Record is a committed idempotency record.
type Record struct {
	Key         string          `json:"key"`
	Tool        string          `json:"tool"`
	Fingerprint string          `json:"fingerprint"`
	Result      json.RawMessage `json:"result"`
	CommittedAt int64           `json:"committedAt"`
}

// Outcome is what a call got: a fresh execution, or a replay of the
// committed result. Result is always decoded from stored JSON.
type Outcome struct {
	Replayed  bool
	Execution int // the execution number, 0 for a replay
	Result    json.RawMessage
}

func canon(v any) json.RawMessage {
	b, _ := json.Marshal(v) // maps marshal with sorted keys, no spaces
	return b
}

func fingerprint(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// Prepare validates a ledger tool call and computes its fingerprint
// (DOMAIN.md §4): charge_account {account, cents > 0, idempotencyKey?}
// fingerprints the canonical JSON {"account":...,"cents":...};
// reserve_inventory {tenant, sku, quantity > 0, idempotencyKey?} binds the
// key to SKU, quantity, tenant and the operation name. Key is the
// idempotencyKey, "" when absent. Errors wrap ErrInvalid.
func Prepare(tool string, arguments json.RawMessage, rpcID json.RawMessage) (Intent, error) {
	in := Intent{Tool: tool, RPCID: rpcID}
	switch tool {
	case "charge_account":
		var a struct {
			Account *string `json:"account"`
			Cents   *int64  `json:"cents"`
			Key     *string `json:"idempotencyKey"`
		}
		if err := json.Unmarshal(arguments, &a); err != nil || a.Account == nil || a.Cents == nil {
			return in, fmt.Errorf("%w: charge_account needs a string account and integer cents", ErrInvalid)
		}
		if *a.Cents <= 0 {
			return in, fmt.Errorf("%w: cents must be > 0, got %d", ErrInvalid, *a.Cents)
		}
		in.Args = canon(map[string]any{"account": *a.Account, "cents": *a.Cents})
		if a.Key != nil {
			in.Key = *a.Key
		}
	case "reserve_inventory":
		var a struct {
			Tenant   *string `json:"tenant"`
			SKU      *string `json:"sku"`
			Quantity *int64  `json:"quantity"`
			Key      *string `json:"idempotencyKey"`
		}
		if err := json.Unmarshal(arguments, &a); err != nil || a.Tenant == nil || a.SKU == nil || a.Quantity == nil {
			return in, fmt.Errorf("%w: reserve_inventory needs string tenant and sku and integer quantity", ErrInvalid)
		}
		if *a.Quantity <= 0 {
			return in, fmt.Errorf("%w: quantity must be > 0, got %d", ErrInvalid, *a.Quantity)
		}
		in.Args = canon(map[string]any{"operation": "reserve_inventory", "quantity": *a.Quantity, "sku": *a.SKU, "tenant": *a.Tenant})
		if a.Key != nil {
			in.Key = *a.Key
		}
	default:
		return in, fmt.Errorf("%w: %q is not a ledger tool", ErrInvalid, tool)
	}
	in.Fingerprint = fingerprint(in.Args)
	return in, nil
}

// Begin starts a BEGIN IMMEDIATE transaction: it takes the write lock or
// returns ErrBusy when another connection holds it.
func (c *Conn) Begin() error {
	if _, err := c.c.BeginImmediate(); err != nil {
		if errors.Is(err, sqlite3.BUSY) {
			return ErrBusy
		}
		return fmt.Errorf("ledger: begin: %w", err)
	}
	return nil
}

// Commit commits the open transaction.
func (c *Conn) Commit() error {
	if err := c.c.Exec(`COMMIT`); err != nil {
		return fmt.Errorf("ledger: commit: %w", err)
	}
	return nil
}

// Rollback abandons the open transaction, if any.
func (c *Conn) Rollback() {
	if !c.c.GetAutocommit() {
		_ = c.c.Exec(`ROLLBACK`)
	}
}

// Lookup returns the committed record for key, or nil.
func (c *Conn) Lookup(key string) (*Record, error) {
	st, _, err := c.c.Prepare(`SELECT key, tool, fingerprint, result, committed_at FROM idempotency WHERE key = ?`)
	if err != nil {
		return nil, fmt.Errorf("ledger: lookup: %w", err)
	}
	defer st.Close()
	if err := st.BindText(1, key); err != nil {
		return nil, err
	}
	if !st.Step() {
		return nil, st.Err()
	}
	return &Record{Key: st.ColumnText(0), Tool: st.ColumnText(1), Fingerprint: st.ColumnText(2), Result: json.RawMessage(st.ColumnText(3)), CommittedAt: st.ColumnInt64(4)}, nil
}

// Execute performs the simulated side effect at virtual time now (ms): it
// appends execution n with its receipt and returns the result. When store
// is true and in has a key, the result is recorded under it in the same
// transaction. The caller holds a transaction (Begin) or runs autocommit.
func (c *Conn) Execute(now int64, in Intent, store bool) (Outcome, error) {
	n, err := c.count()
	if err != nil {
		return Outcome{}, err
	}
	n++
	result := resultFor(in, n)
	err = c.exec(`INSERT INTO executions(n, tool, receipt, args, at) VALUES (?, ?, ?, ?, ?)`, n, in.Tool, receiptFor(in.Tool, n), string(in.Args), now)
	if err == nil && store && in.Key != "" {
		err = c.exec(`INSERT INTO idempotency(key, tool, fingerprint, result, committed_at) VALUES (?, ?, ?, ?, ?)`, in.Key, in.Tool, in.Fingerprint, string(result), now)
	}
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Execution: int(n), Result: result}, nil
}

// Replay decides what a committed record means for in: the stored result
// (decoded afresh) when the fingerprints match, ErrKeyConflict otherwise
// (one key must never alias two intents). checkFingerprint false is the
// known-broken policy that skips the comparison.
func Replay(rec *Record, in Intent, checkFingerprint bool) (Outcome, error) {
	if checkFingerprint && rec.Fingerprint != in.Fingerprint {
		return Outcome{}, fmt.Errorf("%w: key %q was committed with fingerprint %.12s…, this call has %.12s…", ErrKeyConflict, rec.Key, rec.Fingerprint, in.Fingerprint)
	}
	return Outcome{Replayed: true, Result: append(json.RawMessage(nil), rec.Result...)}, nil
}

// Apply is the safe path (DOMAIN.md §4): one BEGIN IMMEDIATE transaction
// holds the key check, the effect and the result insert. Without a key
// every call executes.
func (c *Conn) Apply(now int64, in Intent, checkFingerprint bool) (out Outcome, err error) {
	if err := c.Begin(); err != nil {
		return Outcome{}, err
	}
	defer func() {
		if err != nil {
			c.Rollback()
			return
		}
		err = c.Commit()
	}()
	if in.Key != "" {
		rec, err := c.Lookup(in.Key)
		if err != nil {
			return Outcome{}, err
		}
		if rec != nil {
			return Replay(rec, in, checkFingerprint)
		}
	}
	return c.Execute(now, in, true)
}

// Executions returns how many side effects have run.
func (c *Conn) Executions() (int, error) {
	n, err := c.count()
	return int(n), err
}

// Records returns every committed record, ordered by key.
func (c *Conn) Records() ([]Record, error) {
	st, _, err := c.c.Prepare(`SELECT key, tool, fingerprint, result, committed_at FROM idempotency ORDER BY key`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out := []Record{}
	for st.Step() {
		out = append(out, Record{Key: st.ColumnText(0), Tool: st.ColumnText(1), Fingerprint: st.ColumnText(2), Result: json.RawMessage(st.ColumnText(3)), CommittedAt: st.ColumnInt64(4)})
	}
	return out, st.Err()
}

// Log returns the executions (the inventory or payment log), oldest first,
// as {"n","tool","receipt","args","at"} objects.
func (c *Conn) Log() ([]json.RawMessage, error) {
	st, _, err := c.c.Prepare(`SELECT n, tool, receipt, args, at FROM executions ORDER BY n`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out := []json.RawMessage{}
	for st.Step() {
		out = append(out, canon(map[string]any{"n": st.ColumnInt64(0), "tool": st.ColumnText(1), "receipt": st.ColumnText(2), "args": json.RawMessage(st.ColumnText(3)), "at": st.ColumnInt64(4)}))
	}
	return out, st.Err()
}

func (c *Conn) count() (int64, error) {
	st, _, err := c.c.Prepare(`SELECT COALESCE(MAX(n), 0) FROM executions`)
	if err != nil {
		return 0, fmt.Errorf("ledger: count: %w", err)
	}
	defer st.Close()
	if !st.Step() {
		return 0, st.Err()
	}
	return st.ColumnInt64(0), nil
}

func (c *Conn) exec(sql string, args ...any) error {
	st, _, err := c.c.Prepare(sql)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer st.Close()
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
			return ErrBusy
		}
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

func receiptFor(tool string, n int64) string {
	if tool == "reserve_inventory" {
		return fmt.Sprintf("res-%03d", n)
	}
	return fmt.Sprintf("charge-%03d", n)
}

// resultFor builds the result of execution n (DOMAIN.md §4 reference shape
// for charge_account: {"account","cents","receipt","rpcId"}). A reservation
// stores no secret or payment data: tenant, SKU, quantity, reservation id.
func resultFor(in Intent, n int64) json.RawMessage {
	var a map[string]json.RawMessage
	_ = json.Unmarshal(in.Args, &a)
	if in.Tool == "reserve_inventory" {
		return canon(map[string]json.RawMessage{"quantity": a["quantity"], "reservation": canon(receiptFor(in.Tool, n)), "rpcId": in.RPCID, "sku": a["sku"], "tenant": a["tenant"]})
	}
	return canon(map[string]json.RawMessage{"account": a["account"], "cents": a["cents"], "receipt": canon(receiptFor(in.Tool, n)), "rpcId": in.RPCID})
}
