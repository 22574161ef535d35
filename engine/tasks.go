package engine

import (
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/tasks"
	"github.com/mcplab/mcplab/engine/trace"
)

// Durable tasks (DOMAIN.md §6; the tasks extension io.modelcontextprotocol/tasks).
// A task's state lives apart from any request or connection: closing the
// HTTP stream that created it never deletes it. Package tasks decides and
// says why; the runner sends, schedules and emits.

// createTask answers a task-augmented call: the server creates the durable
// task and replies at once with CreateTaskResult (resultType "task").
func (w *world) createTask(r *request) {
	t := w.tasks.Create(r.task, w.q.Now())
	w.emit(t.Created(r.id.String()))
	w.answer(r, jsonrpc.NewResult(r.id.Raw(), t.CreateResult(tasks.Interval(w.s.Server.PollIntervalMs))), false, tasks.HandleNote(r.id.String()), func() {
		t.Client.Status = trace.TaskWorking
		w.schedulePoll(t)
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

// schedulePoll polls t with tasks/get every pollIntervalMs until the client
// sees a terminal status (DOMAIN.md §6); tasks.NextPoll bounds it.
func (w *world) schedulePoll(t *tasks.Entry) {
	if !t.Client.Polling() {
		return
	}
	at, ok := tasks.NextPoll(w.q.Now(), tasks.Interval(w.s.Server.PollIntervalMs), w.lastStepAt)
	if !ok {
		w.emit(t.Client.StopPolling(t.ID))
		return
	}
	w.q.Schedule(at, func() {
		if !t.Client.Polling() {
			return
		}
		t.Client.Polls++
		w.taskRequest(t, "tasks/get", "The client polls the task at its pollIntervalMs.", func(resp tasks.Reply) {
			if e, terminal := t.Client.Polled(t.ID, resp); terminal {
				w.emit(e)
				return
			}
			w.schedulePoll(t)
		})
	})
}

// taskStep runs the task verbs.
func (w *world) taskStep(st scenario.Step) {
	t := w.tasks.Get(st.TaskID)
	switch {
	case t == nil:
		w.emit(tasks.Missing(st.TaskID, st.Do))
	case st.Do == "task-get":
		w.taskRequest(t, "tasks/get", tasks.AskNote("tasks/get", t.ID), func(resp tasks.Reply) {
			t.Client.Status = tasks.StatusOf(resp.Result)
		})
	case st.Do == "task-cancel":
		w.taskRequest(t, "tasks/cancel", tasks.AskNote("tasks/cancel", t.ID), func(resp tasks.Reply) {
			if e, ok := t.Client.Cancelled(t.ID, resp, w.is2025(), w.s.Client.Policy.TreatTaskAckAsFinal); ok {
				w.emit(e)
			}
		})
	default: // checkpoint, finish-task
		w.emit(t.Work(w.q.Now(), st.Do, st.Result))
	}
}
