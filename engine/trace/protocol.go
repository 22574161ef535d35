package trace

import "github.com/mcplab/mcplab/engine/scenario"

// Protocol revisions and transports a trace's Scenario names (the values of
// scenario.Scenario.Protocol and .Transport), so the packages that judge a
// trace (checks) read them without importing scenario (ARCHITECTURE.md:
// checks imports trace and jsonrpc only).
const (
	Protocol20260728 = scenario.Protocol20260728 // current: HTTP cancellation closes the stream
	Protocol20251125 = scenario.Protocol20251125 // previous: HTTP cancellation POSTs notifications/cancelled
	TransportStdio   = scenario.TransportStdio
	TransportHTTP    = scenario.TransportHTTP
)

// StatusStopped is the Status of the client's status event when its UI
// calls a durable task stopped (DOMAIN.md §6: an acknowledged tasks/cancel
// is not a terminal status; the check task-ack-not-terminal judges it).
const StatusStopped = "stopped"
