// Package mock plays a scenario's server half in real time to one real
// client (SCENARIO.md, "Live: real clients and the path between": mcplab
// mock, and each situation of mcplab probe-client): the server.handlers
// (work of workMs, progress every progressEveryMs on the request's own
// stream, a cancellation noticed at the handler's checkpoints, its held
// resource) under the server switches (respondAfterCancel,
// handlerIgnoresCancel, releaseOnCancel, holdNotifications), on stdio
// (Serve over a reader and a writer) or Streamable HTTP (HTTP, served at
// /mcp), in the era the client speaks (initialize: 2025-11-25; params._meta
// with a protocol version: 2026-07-28) or the one it is told.
//
// Play is one run of `mcplab mock` (a Server for one client, its
// transcript written when the client leaves); Judge has the engine's
// checks judge a mock's transcript with the client's stated timeouts (for
// the mock verb and package probeclient).
//
// Every message it reads and writes goes through engine/jsonrpc, and what
// crossed the wire is recorded, with real times, by a live.Recorder whose
// header names the server as observer: the transcript engine/transcript
// imports and the checks judge (mcplab run -checks FILE). On Streamable
// HTTP it also records what the server sees of the session's streams as
// event lines: a response or listen stream it opens, a listen stream it
// ends or that breaks, the client's reconnects, and each request it
// refuses with its status (503, a retired session's 404).
//
// The handlers' timing comes from engine/handler (the progress cadence and
// the checkpoint at which a cancellation is observed), in ms of real time
// since the handler started; the clock, the timers and the goroutines are
// this package's, never the engine's.
//
// Bounds: a line or a request body is read up to live.MaxMessage bytes (a
// longer one ends a stdio session, and is refused with 413 on HTTP); at
// most MaxCalls calls are in flight at once (a further one is answered
// with an error); an HTTP request's headers are read within 10 s; the
// transcript holds what live.Recorder keeps.
package mock
