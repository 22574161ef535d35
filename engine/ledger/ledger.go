// Package ledger defines the idempotency ledger of DOMAIN.md §4: what a
// ledger tool call means (Intent, with its canonical arguments and
// fingerprint), what a ledger stores (Record) and returns (Outcome), and the
// Store and Conn interfaces a real database implements (package
// ledger/sqlite). Apply is the safe decision, the key check, the effect and
// the result insert in one BEGIN IMMEDIATE transaction. A scenario's ledger
// at the server is a Server (Open): Call runs one tool call, RaceCalls a
// race as a schedule of lock, wait, check and effect, and each reply and
// step returns the trace event that tells it.
//
// Design record: this package holds no database code, so the engine can
// depend on it without linking SQLite into every WebAssembly page;
// binaries that run ledger scenarios pass a Store: natively one opened by
// package ledger/sqlite, in the browser one on SQLite's own WebAssembly
// build (wasm/jsledger/jsledger.go). Both run the SQL of sql.go, and both hand
// out their in-memory ledgers through one Pool (pool.go), written once
// over DB and RawConn, the little each binding implements: open a
// connection, run a statement, roll back, close for real.
package ledger

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcplab/mcplab/engine/internal/sha256"
)

// Errors. ErrBusy means another connection holds the write lock; the
// caller retries after that connection commits.
var (
	ErrBusy        = errors.New("ledger: database is locked by another connection")
	ErrKeyConflict = errors.New("ledger: idempotency key reused with different arguments")
	ErrInvalid     = errors.New("ledger: invalid arguments")
)

// Store is one ledger database.
type Store interface {
	// Connect opens a new independent connection.
	Connect() (Conn, error)
	// Close releases the database (an in-memory one is gone; a file stays).
	Close() error
}

// Conn is one connection to a Store. Begin, Lookup, Execute and Commit are
// the phases of a decision, so a caller can interleave two connections in a
// fixed order and let the database's locks decide who waits.
type Conn interface {
	// Begin starts BEGIN IMMEDIATE: the write lock, or ErrBusy.
	Begin() error
	Commit() error
	// Rollback abandons the open transaction, if any.
	Rollback()
	// Lookup returns the committed record for key, or nil.
	Lookup(key string) (*Record, error)
	// Execute performs the side effect at virtual time now (ms): execution
	// n with its receipt; with store and a key it also inserts the record.
	Execute(now int64, in Intent, store bool) (Outcome, error)
	// Executions counts the side effects that ran.
	Executions() (int, error)
	// Records lists committed records ordered by key.
	Records() ([]Record, error)
	// Log lists the executions, oldest first.
	Log() ([]json.RawMessage, error)
	Close() error
}

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
func Apply(c Conn, now int64, in Intent, checkFingerprint bool) (out Outcome, err error) {
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
	return Decide(c, now, in, checkFingerprint)
}

// IsTool reports whether name is one of the ledger tools (DOMAIN.md §4):
// charge_account and reserve_inventory, whose calls have a side effect
// unless the call says otherwise.
func IsTool(name string) bool { return name == "charge_account" || name == "reserve_inventory" }

// ToolResult wraps a ledger result as the CallToolResult a ledger tool
// returns: one text content holding the result's JSON, and the result as
// structuredContent.
func ToolResult(result json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(struct {
		Content           []map[string]string `json:"content"`
		StructuredContent json.RawMessage     `json:"structuredContent"`
	}{[]map[string]string{{"type": "text", "text": string(result)}}, result})
	return b
}

// ReceiptFor names execution n of tool: charge-001, res-001.
func ReceiptFor(tool string, n int64) string {
	if tool == "reserve_inventory" {
		return fmt.Sprintf("res-%03d", n)
	}
	return fmt.Sprintf("charge-%03d", n)
}

// resultFor builds the result of execution n (DOMAIN.md §4 reference shape
// for charge_account: {"account","cents","receipt","rpcId"}). A reservation
// stores no secret or payment data: tenant, SKU, quantity, reservation id.
func ResultFor(in Intent, n int64) json.RawMessage {
	var a map[string]json.RawMessage
	_ = json.Unmarshal(in.Args, &a)
	if in.Tool == "reserve_inventory" {
		return canon(map[string]json.RawMessage{"quantity": a["quantity"], "reservation": canon(ReceiptFor(in.Tool, n)), "rpcId": in.RPCID, "sku": a["sku"], "tenant": a["tenant"]})
	}
	return canon(map[string]json.RawMessage{"account": a["account"], "cents": a["cents"], "receipt": canon(ReceiptFor(in.Tool, n)), "rpcId": in.RPCID})
}

// Effect is a call's side effect: effect when the call says, else true for
// a ledger tool (IsTool) when the scenario has a ledger (hasLedger): ledger
// tools have side effects unless the call says otherwise (DOMAIN.md §4–5).
func Effect(effect *bool, tool string, hasLedger bool) *bool {
	if effect == nil && hasLedger && IsTool(tool) {
		t := true
		return &t
	}
	return effect
}
