package engine

import (
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/tasks"
	"github.com/mcplab/mcplab/engine/trace"
)

// Durable tasks (DOMAIN.md §6): package tasks decides and says why (its
// Poll and Step drive the client), the runner sends and answers.

// createTask answers a task-augmented call: the server creates the durable
// task and replies at once with CreateTaskResult (tasks.CreateResult).
func (w *world) createTask(r *request) {
	t := w.tasks.Create(r.task, w.q.Now())
	w.emit(t.Created(r.id.String()))
	w.answer(r, jsonrpc.NewResult(r.id.Raw(), t.CreateResult(tasks.Interval(w.s.Server.PollIntervalMs), w.is2025())), false, tasks.HandleNote(r.id.String(), w.is2025()), func() {
		t.Client.Status = trace.TaskWorking
		t.Poll(w, w.taskRequest, tasks.Interval(w.s.Server.PollIntervalMs), w.lastStepAt, w.is2025())
	})
}

// taskRequest sends a tasks/* request from the client; over HTTP it carries
// Mcp-Name with the taskId.
func (w *world) taskRequest(t *tasks.Entry, method string, note string, onAnswer func(resp tasks.Reply)) {
	r := w.register(&request{id: scenario.NewStringID(w.tasks.RequestID(method)), method: method, args: t.Params()})
	about := trace.Event{ID: idPtr(r.id), TaskID: t.ID, Headers: tasks.Headers(t.ID, w.http())}
	w.sendAbout(trace.ActorClient, about, jsonrpc.NewRequest(r.id.Raw(), method, r.args), note, func() {
		w.serverReceiveRequest(r)
		reply := t.Serve(w.q.Now(), method, w.is2025(), tasks.Interval(w.s.Server.PollIntervalMs))
		if e, ok := reply.Served(&t.Task); ok {
			w.emit(e)
		}
		wire, failed := reply.Response(r.id.Raw())
		w.answer(r, wire, failed, tasks.AnswerNote(method, t.ID), func() { onAnswer(reply) })
	})
}
