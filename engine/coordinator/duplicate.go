package coordinator

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// DuplicateCode is the error a server routing by request answers a
// duplicate request with: JSON-RPC's Invalid Request.
const DuplicateCode = -32600

// Duplicate is the server reading msg, a raw request from the client whose
// id may name a request still in flight at the server (halves looks a
// request's halves up by id;
// modelcontextprotocol/typescript-sdk#2433,
// modelcontextprotocol/python-sdk#3060). dup is false when msg is no such
// duplicate. Else e is the server's event about it and:
//   - routing by request (the default), the server refuses the duplicate
//     on its own stream: answer is the error for it, and the first
//     request's answer still goes on its own stream;
//   - under routeByIDOnly (server.policy.routeByIdOnly, Streamable HTTP)
//     the server takes it and points the id's route at the duplicate's
//     stream: the first request's answer goes there (s.Rerouted), and its
//     own stream never gets one (failure cross-wired-response).
func Duplicate(msg json.RawMessage, halves func(scenario.ID) (*Client, *Server), routeByIDOnly bool) (e trace.Event, answer json.RawMessage, dup bool) {
	m, ok := jsonrpc.ReadPeer(msg)
	var id scenario.ID
	if !ok || m.Kind != jsonrpc.Request || !m.HasRealID() || id.UnmarshalJSON([]byte(m.ID)) != nil {
		return e, nil, false
	}
	if _, s := halves(id); s == nil || !s.Arrived || s.State().Terminal() {
		return e, nil, false
	} else if routeByIDOnly {
		s.Rerouted = true
	}
	e = trace.Event{Actor: trace.ActorServer, Type: trace.TypeReject, ID: &id, Message: msg,
		Note: "Request " + m.ID + " is already in flight: the server refuses the duplicate with an error on the duplicate's own stream, and " + m.ID + "'s answer still goes on " + m.ID + "'s stream (responses are routed by request)."}
	if routeByIDOnly {
		e.Type = trace.TypeStart
		e.Note = "Policy routeByIdOnly: the server takes the duplicate as request " + m.ID + " and points that id's route at the duplicate's stream: request " + m.ID + "'s answer will go there, and its own stream gets none (modelcontextprotocol/typescript-sdk#2433)."
		return e, nil, true
	}
	return e, jsonrpc.NewError(m.ID, jsonrpc.ErrorObject{Code: DuplicateCode, Message: "Invalid Request: id " + m.ID + " is already in flight"}), true
}

// DuplicateAnswerNote is the note of the server's error for a duplicate.
const DuplicateAnswerNote = "The server answers the duplicate on its own stream: its id is already in flight."
