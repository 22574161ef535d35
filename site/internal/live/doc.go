// Package live is everything of mcplab that talks to a real peer
// (ARCHITECTURE.md, "Outside engine/"): the recording proxy between a real
// client and a real server (proxy.go, tee.go), on one connection and
// recorder layer that mock and probe-client share: a Recorder writes what
// crossed the wire, with real times, as the lab's JSON Lines that
// engine/transcript imports and the checks judge; every wire message is
// read by engine/jsonrpc.
//
// Bounds: a message (a line on stdio, an SSE event or a JSON body on
// Streamable HTTP) is at most MaxMessage bytes (a longer one passes through
// unrecorded); a transcript at most transcript.MaxLines lines (the rest
// passes through unrecorded, and the transcript says so); a child process
// is given StopGrace to leave after its input closes, then its process
// group is killed.
package live
