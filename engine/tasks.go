package engine

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/tasks"
	"github.com/mcplab/mcplab/engine/trace"
)

// Durable tasks (DOMAIN.md §6; the tasks extension io.modelcontextprotocol/tasks).
// A task's state lives apart from any request or connection: closing the
// HTTP stream that created it never deletes it. Package tasks decides and
// says why; the runner sends, schedules and emits.

func (w *world) pollInterval() int64 {
	if w.s.Server.PollIntervalMs > 0 {
		return w.s.Server.PollIntervalMs
	}
	return tasks.DefaultPollIntervalMs
}

// createTask answers a task-augmented call: the server creates the durable
// task and replies at once with CreateTaskResult (resultType "task").
func (w *world) createTask(r *request) {
	t := &task{Task: tasks.New(r.task, w.q.Now())}
	w.tasks[t.ID] = t
	w.taskOrder = append(w.taskOrder, t)
	w.emit(t.Created(r.id.String()))
	w.answer(r, jsonrpc.NewResult(r.id.Raw(), t.CreateResult(w.pollInterval())), false, fmt.Sprintf("The server answers request %s with a task handle (resultType \"task\").", r.id), func() {
		t.client.Status = trace.TaskWorking
		w.schedulePoll(t)
	})
}

// taskRequest sends a tasks/* request from the client; over HTTP it carries
// Mcp-Name with the taskId.
func (w *world) taskRequest(t *task, method string, note string, onAnswer func(resp tasks.Reply)) {
	w.taskSeq++
	r := w.register(&request{id: scenario.NewStringID(fmt.Sprintf("%s-%d", method, w.taskSeq)), method: method, args: mustJSON(map[string]string{"taskId": t.ID})})
	about := trace.Event{ID: idPtr(r.id), TaskID: t.ID}
	if w.http() {
		about.Headers = map[string]string{"Mcp-Name": t.ID}
	}
	w.sendAbout(trace.ActorClient, about, jsonrpc.NewRequest(r.id.Raw(), method, r.args), note, func() {
		w.serverReceiveRequest(r)
		reply := t.Serve(w.q.Now(), method, w.is2025(), w.pollInterval())
		if e, ok := reply.Served(&t.Task); ok {
			w.emit(e)
		}
		failed := reply.Code != 0
		wire := jsonrpc.NewResult(r.id.Raw(), reply.Result)
		if failed {
			wire = jsonrpc.NewError(r.id.Raw(), jsonrpc.ErrorObject{Code: int64(reply.Code), Message: reply.Message})
		}
		w.answer(r, wire, failed, fmt.Sprintf("The server answers %s for task %s.", method, t.ID), func() { onAnswer(reply) })
	})
}

// schedulePoll polls t with tasks/get every pollIntervalMs until the client
// sees a terminal status (DOMAIN.md §6); tasks.NextPoll bounds it.
func (w *world) schedulePoll(t *task) {
	if !t.client.Polling() {
		return
	}
	at, ok := tasks.NextPoll(w.q.Now(), w.pollInterval(), w.lastStepAt)
	if !ok {
		w.emit(t.client.StopPolling(t.ID))
		return
	}
	w.q.Schedule(at, func() {
		if !t.client.Polling() {
			return
		}
		t.client.Polls++
		w.taskRequest(t, "tasks/get", "The client polls the task at its pollIntervalMs.", func(resp tasks.Reply) {
			if e, terminal := t.client.Polled(t.ID, resp); terminal {
				w.emit(e)
				return
			}
			w.schedulePoll(t)
		})
	})
}

// taskStep runs the task verbs.
func (w *world) taskStep(st scenario.Step) {
	t := w.tasks[st.TaskID]
	switch {
	case t == nil:
		w.emit(tasks.Missing(st.TaskID, st.Do))
	case st.Do == "task-get":
		w.taskRequest(t, "tasks/get", fmt.Sprintf("The client asks for task %s's status.", t.ID), func(resp tasks.Reply) {
			t.client.Status = tasks.StatusOf(resp.Result)
		})
	case st.Do == "task-cancel":
		w.taskRequest(t, "tasks/cancel", fmt.Sprintf("The client asks to cancel task %s.", t.ID), func(resp tasks.Reply) {
			if e, ok := t.client.Cancelled(t.ID, resp, w.is2025(), w.s.Client.Policy.TreatTaskAckAsFinal); ok {
				w.emit(e)
			}
		})
	default: // checkpoint, finish-task
		w.emit(t.Work(w.q.Now(), st.Do, st.Result))
	}
}

// traceTasks summarizes the tasks, in creation order.
func (w *world) traceTasks() []trace.Task {
	out := []trace.Task{}
	for _, t := range w.taskOrder {
		out = append(out, t.Summary())
	}
	return out
}
