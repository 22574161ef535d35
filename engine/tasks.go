package engine

import (
	"encoding/json"
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

// setStatus moves t to status at the worker; terminal statuses never change.
func (w *world) setStatus(t *task, status, note string) bool {
	if !t.Set(w.q.Now(), status) {
		w.statusUnchanged(t)
		return false
	}
	w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: status, Note: note})
	return true
}

func (w *world) statusUnchanged(t *task) {
	w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeIgnore, TaskID: t.ID, Note: fmt.Sprintf("Task %s is already %s; terminal statuses never change.", t.ID, t.Status())})
}

// createTask answers a task-augmented call: the server creates the durable
// task and replies at once with CreateTaskResult (resultType "task").
func (w *world) createTask(r *request) {
	t := &task{Task: tasks.New(r.task, w.q.Now())}
	w.tasks[t.ID] = t
	w.taskOrder = append(w.taskOrder, t)
	w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: trace.TaskWorking,
		Note: fmt.Sprintf("The server creates durable task %s for request %s; its state outlives the request and the connection.", t.ID, r.id)})
	result := mustJSON(struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
	}{"task", t.Wire(w.pollInterval())})
	resp, _ := r.srv.Complete(w.q.Now(), jsonrpc.NewResult(r.id.Raw(), result), false)
	r.response = resp
	w.serverToClient(r, resp, fmt.Sprintf("The server answers request %s with a task handle (resultType \"task\").", r.id), func() {
		w.clientResponse(r, false)
		t.client.Status = trace.TaskWorking
		w.schedulePoll(t)
	})
}

// taskReply is the server's answer to a tasks/* request: a result or an
// error.
type taskReply struct {
	Result json.RawMessage
	Error  *jsonrpc.ErrorObject
}

// taskRequest sends a tasks/* request from the client; over HTTP it carries
// Mcp-Name with the taskId.
func (w *world) taskRequest(t *task, method string, note string, onAnswer func(resp taskReply)) {
	w.taskSeq++
	r := &request{id: scenario.NewStringID(fmt.Sprintf("%s-%d", method, w.taskSeq)), method: method, args: mustJSON(map[string]string{"taskId": t.ID}), outcome: trace.OutcomePending}
	r.sentAt = w.q.Now()
	r.clientStreamOpen = w.http()
	w.reqs[r.id.Raw()] = r
	w.order = append(w.order, r)
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
		reply := w.serveTask(t, method)
		failed := reply.Error != nil
		wire := jsonrpc.NewResult(r.id.Raw(), reply.Result)
		if failed {
			wire = jsonrpc.NewError(r.id.Raw(), *reply.Error)
		}
		resp, _ := r.srv.Complete(w.q.Now(), wire, failed)
		r.response = resp
		w.serverToClient(r, resp, fmt.Sprintf("The server answers %s for task %s.", method, t.ID), func() {
			w.clientResponse(r, failed)
			onAnswer(reply)
		})
	})
}

// serveTask is the server's handling of tasks/get and tasks/cancel.
func (w *world) serveTask(t *task, method string) taskReply {
	var reply taskReply
	if method == "tasks/get" {
		reply.Result = t.Wire(w.pollInterval())
		return reply
	}
	// tasks/cancel
	if w.is2025() {
		if trace.Terminal(t.Status()) {
			reply.Error = &jsonrpc.ErrorObject{Code: -32602, Message: fmt.Sprintf("task %s is already %s", t.ID, t.Status())}
			w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, TaskID: t.ID, Note: "Under 2025-11-25 cancelling a terminal task fails with -32602."})
			return reply
		}
		w.setStatus(t, trace.TaskCancelled, fmt.Sprintf("Under 2025-11-25 a valid tasks/cancel moves task %s to cancelled before the reply, and the reply is the Task.", t.ID))
		reply.Result = t.Wire(w.pollInterval())
		return reply
	}
	t.RequestCancel()
	w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, TaskID: t.ID, Status: t.Status(),
		Note: fmt.Sprintf("The server records the cancellation intent for task %s and acknowledges it; the task stays %s until a worker checkpoint observes the flag.", t.ID, t.Status())})
	reply.Result = json.RawMessage(`{"resultType":"complete"}`)
	return reply
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
	w.taskRequest(t, "tasks/get", note, func(resp taskReply) {
		var s struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal(resp.Result, &s)
		t.client.Status = s.Status
		if trace.Terminal(s.Status) {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.ID, Status: s.Status,
				Note: fmt.Sprintf("The client sees task %s %s: a terminal status, so it stops polling.", t.ID, s.Status)})
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
		w.taskRequest(t, "tasks/get", fmt.Sprintf("The client asks for task %s's status.", t.ID), func(resp taskReply) {
			var s struct {
				Status string `json:"status"`
			}
			_ = json.Unmarshal(resp.Result, &s)
			t.client.Status = s.Status
		})
	case "task-cancel":
		w.taskRequest(t, "tasks/cancel", fmt.Sprintf("The client asks to cancel task %s.", t.ID), func(resp taskReply) {
			if resp.Error != nil {
				return
			}
			if w.is2025() {
				var s struct {
					Status string `json:"status"`
				}
				_ = json.Unmarshal(resp.Result, &s)
				t.client.Status = s.Status
				w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.ID, Status: s.Status, Note: fmt.Sprintf("The reply is the Task: %s.", s.Status)})
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
		if t.Checkpoint(w.q.Now()) {
			w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: trace.TaskCancelled,
				Note: fmt.Sprintf("A worker checkpoint observes the cancellation flag: task %s becomes cancelled.", t.ID)})
			return
		}
		why := "no cancellation was requested"
		if trace.Terminal(t.Status()) {
			why = "the task is already " + t.Status()
		}
		w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeCheckpoint, TaskID: t.ID, Note: fmt.Sprintf("Worker checkpoint for task %s: %s; work continues.", t.ID, why)})
	case "finish-task":
		result := st.Result
		if result == nil {
			result = json.RawMessage(`{"content":[]}`)
		}
		note := fmt.Sprintf("The worker finishes task %s: completed.", t.ID)
		if t.CancelRequested() {
			note = fmt.Sprintf("The worker finishes task %s before any checkpoint saw the cancellation: it ends completed even though the cancel was acknowledged.", t.ID)
		}
		if !t.Finish(w.q.Now(), result) {
			w.statusUnchanged(t)
			return
		}
		w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.ID, Status: trace.TaskCompleted, Note: note})
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
