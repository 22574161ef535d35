// Package probe drives a live MCP server through the lab's situations
// with controlled timing (`mcplab probe`: Run), records each exchange as a
// transcript in the lab's JSON Lines, and has the engine's checks judge
// it. It is a client written on the standard library (conn.go), so it
// decides exactly when each byte leaves; the command (package site) parses
// the command line, watches the signals (SignalContext) and maps a Report
// to an exit status.
//
// Design record.
//
// Context: the probe is a client, so its transcripts are a client's view.
// engine/transcript judges a JSON Lines transcript by its
// observer, named in its header line: from a client's view a cancellation
// and a result closer than the path's round trip are undecided (the
// legitimate race); one further apart, or after the server answered a
// request sent after the cancellation (stdio reads in order: the fence),
// convicts.
//
// Decision: each transcript starts with the header {"observer":"client",
// "transport":..., "protocol":...} and holds the real times the client
// wrote and read each message (file name `*.client.jsonl`). Right after
// each cancellation the probe sends a fence (ping; server/discover under
// 2026-07-28, which has no ping) and notes when its answer arrives; it
// knows the fastest completion of the tool it has seen (the warm-up's and
// every uncancelled call's since). A message the engine flags or leaves
// undecided for no-message-after-cancel is confirmed when it arrived after
// the fence's answer, or when it is the request's response and arrived
// well before the tool could have finished (before start + fastest
// completion - max(5% of it, 10 ms)): it answers the cancellation.
// Otherwise the probe calls it undecided (the race, as a client sees it).
// Under 2026-07-28 on Streamable HTTP the cancellation closes the
// request's stream, after which the client reads nothing of it: the
// cancelling situations are undecided there.
//
// Consequence: the probe never accuses a server for the race, and says
// which order occurred at each offset of the sweep. `mcplab run FILE` on a
// probe transcript judges it as the client saw it: the race is undecided,
// the fence convicts over stdio; only the timing evidence is the probe's
// alone.
package probe
