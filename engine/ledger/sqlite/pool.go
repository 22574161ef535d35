package sqlite

import (
	"fmt"
	"sync/atomic"

	"github.com/mcplab/mcplab/engine/ledger"
)

// pool holds the emptied in-memory ledgers NewMemory hands out first
// (ledger.Pool: at most ledger.PoolLedgers ledgers, each keeping at most
// ledger.PoolConns idle connections).
var pool = ledger.NewPool(openPooled)

// seq names the memdb databases of the pool, unique in the process.
var seq atomic.Int64

// NewMemory opens a fresh, empty in-memory ledger, the engine's
// Options.OpenLedger natively and under Node's WebAssembly: an emptied one
// from the pool when there is one, else a new memdb database under a name
// unique in the process. Closing it gives it back to the pool, emptied,
// and closing its connections gives them back to it, rolled back and
// still open with their prepared statements (engine/ledger/pool.go).
func NewMemory() (ledger.Store, error) { return pool.Open() }

// openPooled opens a new memdb database for the pool.
func openPooled() (ledger.DB, error) {
	l, err := OpenMemory(fmt.Sprintf("/mcplab-ledger-%d", seq.Add(1)))
	if err != nil {
		return nil, err
	}
	return memDB{l}, nil
}

// memDB is a Ledger as the pool holds it (ledger.DB): Open hands out the
// connection that created the schema first, then opens new ones; Close
// releases the memdb database.
type memDB struct{ l *Ledger }

func (d memDB) Open() (ledger.RawConn, error) { return d.l.conn() }
func (d memDB) Close() error                  { return d.l.Close() }
