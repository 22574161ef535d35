package engine

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/ledger"
)

// The server's ledger tools (DOMAIN.md §4), run against the ledger.Store the
// caller supplies in Options; ledger.Server holds the replicas, decides each
// reply and runs races.

// ErrNoLedger is returned by Run for a scenario with a ledger when no
// Options.OpenLedger was given (ledger.ErrNoLedger).
var ErrNoLedger = ledger.ErrNoLedger

// ledgerCall runs the handler of a ledger tool for r at completion and
// returns the response to send (DOMAIN.md §4).
func (w *world) ledgerCall(r *request) (json.RawMessage, bool) {
	return w.ledgerAnswer(r, w.ledger.Call(w.q.Now(), ledger.Call{Tool: r.name, Args: r.args, RPCID: r.id.Raw()}))
}

// ledgerAnswer records a ledger reply as its event and builds the response;
// failed says it is an error.
func (w *world) ledgerAnswer(r *request, rep ledger.Reply) (json.RawMessage, bool) {
	w.tell(r, rep.Event())
	return rep.Response(r.id.Raw())
}
