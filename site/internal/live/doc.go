// Package live is everything of mcplab that talks to a real peer
// (ARCHITECTURE.md, "Outside engine/"): the recording proxy between a real
// client and a real server (proxy.go for Streamable HTTP, tee.go for
// stdio), on one connection and recorder layer for every live verb: a
// child process in its own process group (process_*.go), SSE events and
// stdio lines relayed byte for byte, and a Recorder that writes what
// crossed the wire, with real times, as the lab's JSON Lines that
// engine/transcript imports and the checks judge (Messages reads every
// wire message with engine/jsonrpc). A Session is one run of `mcplab
// proxy` (the proxy or the tee, recording into one transcript);
// CiteLines cites a transcript's lines in a check's detail for every
// verb that prints verdicts.
//
// Bounds: a message (a line on stdio, an SSE event or a response body on
// Streamable HTTP) is recorded up to MaxMessage bytes (a longer one passes
// through unrecorded; a request body past it is refused with 413, as the
// proxy holds each request whole before forwarding it); a transcript at most transcript.MaxLines lines and
// transcript.MaxBytes bytes, the importer's limits (the rest passes
// through unrecorded, and the proxy says how much); a child process
// is given StopGrace to leave after its input closes, then its process
// group is killed.
package live
