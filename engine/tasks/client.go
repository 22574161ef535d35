package tasks

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The client's and the worker's moves, each returned as the trace event
// (actor, type, task, status, note) the runner emits: the rules decide,
// the runner schedules and records.

// Created is the event of the server creating durable task t for the
// request whose id reads request.
func (t *Task) Created(request string) trace.Event {
	return trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: trace.TaskWorking,
		Note: "The server creates durable task " + t.ID + " for request " + request + "; its state outlives the request and the connection."}
}

// Served is the event of a tasks/* request changing or confirming t (the
// Reply's Actor, Status and Note), and false when the reply has no note.
func (r Reply) Served(t *Task) (trace.Event, bool) {
	return trace.Event{Actor: r.Actor, Type: trace.TypeStatus, TaskID: t.ID, Status: r.Status, Note: r.Note}, r.Note != ""
}

// Work is the worker's step do on t at now (DOMAIN.md §6):
// scenario.VerbCheckpoint (CheckpointAt: a status event when it cancels t,
// a checkpoint event otherwise) or scenario.VerbFinishTask with result (FinishAt: a status event, or an
// ignore event when t was already terminal).
func (t *Task) Work(now int64, do scenario.Verb, result json.RawMessage) trace.Event {
	e := trace.Event{Actor: trace.ActorWorker, TaskID: t.ID}
	if do == scenario.VerbCheckpoint {
		cancelled, note := t.CheckpointAt(now)
		e.Type, e.Note = trace.TypeCheckpoint, note
		if cancelled {
			e.Type, e.Status = trace.TypeStatus, trace.TaskCancelled
		}
		return e
	}
	ok, note := t.FinishAt(now, result)
	e.Type, e.Status, e.Note = trace.TypeStatus, trace.TaskCompleted, note
	if !ok {
		e.Type, e.Status, e.Note = trace.TypeIgnore, "", t.UnchangedNote()
	}
	return e
}

// Missing is the event of a step naming task id before the server created
// it: a worker error for the worker's verbs (checkpoint, finish-task), a
// client error otherwise.
func Missing(id string, do scenario.Verb) trace.Event {
	who := trace.ActorClient
	if do == scenario.VerbCheckpoint || do == scenario.VerbFinishTask {
		who = trace.ActorWorker
	}
	return trace.Event{Actor: who, Type: trace.TypeError, TaskID: id, Note: "Task " + id + " does not exist at the server yet; step skipped."}
}

// Polled is the client reading the reply to one of its tasks/get polls of
// task id: it records the status, and when that status is terminal returns
// the event of the client stopping its polling loop (true).
func (c *Client) Polled(id string, r Reply) (trace.Event, bool) {
	c.Status = StatusOf(r.Result)
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: id, Status: c.Status,
		Note: "The client sees task " + id + " " + c.Status + ": a terminal status, so it stops polling."}, trace.Terminal(c.Status)
}

// StopPolling is the event of the simulation giving up polling task id,
// still not terminal, after the script ended (NextPoll returned false).
func (c *Client) StopPolling(id string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: id, Status: c.Status,
		Note: "The script has ended and task " + id + " is still " + c.Status + "; the simulation stops polling."}
}

// Cancelled is the client reading the reply to its tasks/cancel of task
// id (DOMAIN.md §6), and false for an error reply (nothing to record).
// Under 2025-11-25 (is2025) the reply is the Task and the client records
// its status. Under 2026-07-28 it is an acknowledgement: "cancellation
// intent received", not "stopped", so the client keeps its one polling
// loop at pollIntervalMs until a terminal status (a second loop would
// break rule poll-interval-respected); under ackIsFinal (policy
// treatTaskAckAsFinal, a known-broken client) it says "stopped" and stops
// polling while the worker may run on.
func (c *Client) Cancelled(id string, r Reply, is2025, ackIsFinal bool) (trace.Event, bool) {
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: id}
	switch {
	case r.Code != 0:
		return e, false
	case is2025:
		c.Status = StatusOf(r.Result)
		e.Note = "The reply is the Task: " + c.Status + "."
	case ackIsFinal:
		c.Stopped = true
		e.Status, e.Note = "stopped", "Policy treatTaskAckAsFinal: the UI says \"stopped\" on the acknowledgement and stops polling, while the worker may run on."
		return e, true
	default:
		e.Note = "The acknowledgement means \"cancellation intent received\", not \"stopped\": the client keeps its one polling loop at pollIntervalMs until a terminal status."
	}
	e.Status = c.Status
	return e, true
}

// Response is the JSON-RPC response carrying r to the request whose id
// text is rpcID: its result, or its error; failed reports the error.
func (r Reply) Response(rpcID string) (msg json.RawMessage, failed bool) {
	if r.Code != 0 {
		return jsonrpc.NewError(rpcID, jsonrpc.ErrorObject{Code: int64(r.Code), Message: r.Message}), true
	}
	return jsonrpc.NewResult(rpcID, r.Result), false
}
