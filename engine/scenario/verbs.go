package scenario

// Verb is a step's verb, the value of its "do" member (SCENARIO.md,
// "Steps"): what the step does and, through Verbs, which members it takes.
// It is a string type, so a step encodes as it always has.
type Verb string

// Client verbs (SCENARIO.md, "Steps", client verbs).
const (
	// VerbCall sends a request (tools/call unless method names another).
	VerbCall Verb = "call"
	// VerbCancel abandons a request with the transport's cancellation
	// signal (DOMAIN.md §1).
	VerbCancel Verb = "cancel"
	// VerbRetry sends request of again under the new JSON-RPC id id, same
	// method and arguments (DOMAIN.md §5).
	VerbRetry Verb = "retry"
	// VerbSend puts a raw JSON value on the wire, from the client or the
	// server (SCENARIO.md, "Steps"; send.from).
	VerbSend Verb = "send"
	// VerbDisconnect closes request id's HTTP stream by the network, not by
	// intent (Streamable HTTP only).
	VerbDisconnect Verb = "disconnect"
	// VerbListen opens a listen stream (subscriptions/listen; the GET
	// stream under 2025-11-25, SCENARIO.md "Sessions").
	VerbListen Verb = "listen"
	// VerbTaskGet polls a durable task's status (tasks/get, DOMAIN.md §6).
	VerbTaskGet Verb = "task-get"
	// VerbTaskCancel asks a durable task to stop (tasks/cancel, DOMAIN.md §6).
	VerbTaskCancel Verb = "task-cancel"
	// VerbMutateResult is the caller editing the result object it got back
	// from the ledger (DOMAIN.md §4, defensive copy).
	VerbMutateResult Verb = "mutate-result"
	// VerbReopenLedger closes every ledger connection and opens it again
	// (DOMAIN.md §4).
	VerbReopenLedger Verb = "reopen-ledger"
	// VerbRace starts one call on several independent ledger connections
	// behind a barrier (DOMAIN.md §4, the race).
	VerbRace Verb = "race"
)

// Values of a send step's from (Step.From, SCENARIO.md "Steps"): who puts
// the raw message on the wire. The trace names the same sides as actors.
const (
	// SendFromClient: the client sends it (the default).
	SendFromClient = "client"
	// SendFromServer: the server sends it.
	SendFromServer = "server"
)

// Server verbs (SCENARIO.md, "Steps", server verbs, and "Additions").
const (
	// VerbProgress sends one progress notification for a request
	// (DOMAIN.md §3).
	VerbProgress Verb = "progress"
	// VerbProduce sends count progress notifications, one every everyMs
	// (SCENARIO.md, "Additions since the first release").
	VerbProduce Verb = "produce"
	// VerbComplete finishes a request's handler with a result; a ledger
	// tool's side effect commits here (DOMAIN.md §1, the race).
	VerbComplete Verb = "complete"
	// VerbFail answers a request with a JSON-RPC error.
	VerbFail Verb = "fail"
	// VerbCheckpoint is a durable task's worker looking at its cancel flag
	// (DOMAIN.md §6).
	VerbCheckpoint Verb = "checkpoint"
	// VerbFinishTask is a durable task's worker finishing it (DOMAIN.md §6).
	VerbFinishTask Verb = "finish-task"
	// VerbNotify sends a notification on a listen stream (DOMAIN.md §9).
	VerbNotify Verb = "notify"
	// VerbEndListen ends a listen stream gracefully (DOMAIN.md §9).
	VerbEndListen Verb = "end-listen"
	// VerbDrop breaks the transport under a stream, a fault; a listen
	// stream's client then follows the reconnect plan (DOMAIN.md §9).
	VerbDrop Verb = "drop"
	// VerbEndSession retires a 2025-11-25 Streamable HTTP session
	// (SCENARIO.md, "Sessions (2025-11-25)").
	VerbEndSession Verb = "end-session"
)
