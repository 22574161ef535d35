package engine

import "github.com/mcplab/mcplab/engine/jsonrpc"

// era is the wire of the scenario's protocol revision (DOMAIN.md, "The two
// protocol eras"): what it adds to a request, a result and a POST.
func (w *world) era() jsonrpc.Era { return jsonrpc.Era{Revision: w.s.Protocol} }
