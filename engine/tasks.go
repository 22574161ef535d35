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
// HTTP stream that created it never deletes it.

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
	w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: trace.TaskWorking,
		Note: fmt.Sprintf("The server creates durable task %s for request %s; its state outlives the request and the connection.", t.ID, r.id)})
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
	msg := jsonrpc.NewRequest(r.id.Raw(), method, r.args)
	w.wire++
	n := w.wire
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeSend, ID: idPtr(r.id), TaskID: t.ID, From: trace.ActorClient, To: trace.ActorServer, Wire: n, Message: msg, Note: note}
	if w.http() {
		e.Headers = map[string]string{"Mcp-Name": t.ID}
	}
	w.emit(e)
	sent := w.q.Now()
	w.q.Schedule(sent+w.s.LatencyMs.Up, func() {
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idPtr(r.id), TaskID: t.ID, From: trace.ActorClient, To: trace.ActorServer, Wire: n, SentAt: &sent, Message: msg,
			Note: fmt.Sprintf("Delivered to the server after %d ms.", w.s.LatencyMs.Up)})
		w.serverReceiveRequest(r)
		reply := t.Serve(w.q.Now(), method, w.is2025(), w.pollInterval())
		if reply.Note != "" {
			w.emit(trace.Event{Actor: reply.Actor, Type: trace.TypeStatus, TaskID: t.ID, Status: reply.Status, Note: reply.Note})
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
// sees a terminal status (DOMAIN.md §6). Polling is bounded: it also stops
// once the script has ended and ten intervals passed with nothing else to do.
func (w *world) schedulePoll(t *task) {
	if !t.client.Polling() {
		return
	}
	at, ok := tasks.NextPoll(w.q.Now(), w.pollInterval(), w.lastStepAt)
	if !ok {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.ID, Status: t.client.Status,
			Note: fmt.Sprintf("The script has ended and task %s is still %s; the simulation stops polling.", t.ID, t.client.Status)})
		return
	}
	w.q.Schedule(at, func() { w.poll(t, "The client polls the task at its pollIntervalMs.") })
}

func (w *world) poll(t *task, note string) {
	if !t.client.Polling() {
		return
	}
	t.client.Polls++
	w.taskRequest(t, "tasks/get", note, func(resp tasks.Reply) {
		t.client.Status = tasks.StatusOf(resp.Result)
		if trace.Terminal(t.client.Status) {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.ID, Status: t.client.Status,
				Note: fmt.Sprintf("The client sees task %s %s: a terminal status, so it stops polling.", t.ID, t.client.Status)})
			return
		}
		w.schedulePoll(t)
	})
}

// taskStep runs the task verbs.
func (w *world) taskStep(st scenario.Step) {
	t := w.tasks[st.TaskID]
	if t == nil {
		who := trace.ActorClient
		if st.Do == "checkpoint" || st.Do == "finish-task" {
			who = trace.ActorWorker
		}
		w.emit(trace.Event{Actor: who, Type: trace.TypeError, TaskID: st.TaskID, Note: fmt.Sprintf("Task %s does not exist at the server yet; step skipped.", st.TaskID)})
		return
	}
	switch st.Do {
	case "task-get":
		w.taskRequest(t, "tasks/get", fmt.Sprintf("The client asks for task %s's status.", t.ID), func(resp tasks.Reply) {
			t.client.Status = tasks.StatusOf(resp.Result)
		})
	case "task-cancel":
		w.taskRequest(t, "tasks/cancel", fmt.Sprintf("The client asks to cancel task %s.", t.ID), func(resp tasks.Reply) {
			if resp.Code != 0 {
				return
			}
			if w.is2025() {
				t.client.Status = tasks.StatusOf(resp.Result)
				w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.ID, Status: t.client.Status, Note: fmt.Sprintf("The reply is the Task: %s.", t.client.Status)})
				return
			}
			if w.s.Client.Policy.TreatTaskAckAsFinal {
				t.client.Stopped = true
				w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.ID, Status: "stopped",
					Note: "Policy treatTaskAckAsFinal: the UI says \"stopped\" on the acknowledgement and stops polling, while the worker may run on."})
				return
			}
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.ID, Status: t.client.Status,
				Note: "The acknowledgement means \"cancellation intent received\", not \"stopped\": the client keeps its one polling loop at pollIntervalMs until a terminal status."})
			// No extra poll here: the loop schedulePoll started at creation
			// is still running, and a second one would poll off its interval
			// (rule poll-interval-respected).
		})
	case "checkpoint":
		if cancelled, note := t.CheckpointAt(w.q.Now()); cancelled {
			w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: trace.TaskCancelled, Note: note})
		} else {
			w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeCheckpoint, TaskID: t.ID, Note: note})
		}
	case "finish-task":
		if ok, note := t.FinishAt(w.q.Now(), st.Result); ok {
			w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: trace.TaskCompleted, Note: note})
		} else {
			w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeIgnore, TaskID: t.ID, Note: t.UnchangedNote()})
		}
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
