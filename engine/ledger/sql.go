package ledger

import "encoding/json"

// The SQL form of a ledger (DOMAIN.md §4), shared by every Store on SQLite:
// package ledger/sqlite natively (ncruces/go-sqlite3) and the browser's
// SQLite (wasm/jsledger/jsledger.go, SQLite's own WebAssembly build), so the two
// cannot drift apart. Statements with parameters bind them 1..n in the
// order the columns are listed; integers are 64-bit, times in virtual ms.
const (
	// SQLSchema creates the two tables: idempotency holds a committed
	// record per key (Record); executions is the simulated side effect,
	// one row per execution n (1, 2, ...) with its receipt.
	SQLSchema = `
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

	// SQLBegin takes the write lock (SQLITE_BUSY when another connection
	// holds it: Conn.Begin's ErrBusy); SQLCommit and SQLRollback end it.
	SQLBegin    = `BEGIN IMMEDIATE`
	SQLCommit   = `COMMIT`
	SQLRollback = `ROLLBACK`

	// SQLLookup reads the record of one key (parameter: key) (columns key, tool, fingerprint,
	// result, committed_at: Record's).
	SQLLookup = `SELECT key, tool, fingerprint, result, committed_at FROM idempotency WHERE key = ?`
	// SQLRecords reads every record, ordered by key.
	SQLRecords = `SELECT key, tool, fingerprint, result, committed_at FROM idempotency ORDER BY key`
	// SQLCount is the number of the last execution, 0 when none ran.
	SQLCount = `SELECT COALESCE(MAX(n), 0) FROM executions`
	// SQLLog reads the executions, oldest first (columns n, tool, receipt,
	// args, at: LogEntry's).
	SQLLog = `SELECT n, tool, receipt, args, at FROM executions ORDER BY n`
	// SQLInsertExecution appends execution n (parameters: n, tool,
	// receipt, args, at).
	SQLInsertExecution = `INSERT INTO executions(n, tool, receipt, args, at) VALUES (?, ?, ?, ?, ?)`
	// SQLInsertRecord commits a record (parameters: key, tool,
	// fingerprint, result, committed_at).
	SQLInsertRecord = `INSERT INTO idempotency(key, tool, fingerprint, result, committed_at) VALUES (?, ?, ?, ?, ?)`
	// SQLEmptyRecords and SQLEmptyExecutions empty the two tables; run in
	// one transaction, a pooled database then looks like a fresh one.
	SQLEmptyRecords    = `DELETE FROM idempotency`
	SQLEmptyExecutions = `DELETE FROM executions`
)

// LogEntry is one row of SQLLog as Conn.Log returns it: the JSON object
// {"args","at","n","receipt","tool"} (keys sorted, no spaces), args being
// the stored canonical arguments.
func LogEntry(n int64, tool, receipt, args string, at int64) json.RawMessage {
	return canon(map[string]any{"n": n, "tool": tool, "receipt": receipt, "args": json.RawMessage(args), "at": at})
}
