package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Durable tasks (DOMAIN.md §6; the tasks extension io.modelcontextprotocol/tasks).
// A task's state lives apart from any request or connection: closing the
// HTTP stream that created it never deletes it.

// Task statuses.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// defaultPollIntervalMs is the tasks/get polling interval a server asks for
// when the scenario does not say.
const defaultPollIntervalMs = 500

// task is one durable task at the server, plus what the client knows of it.
type task struct {
	id              string
	status          string
	cancelRequested bool
	result          json.RawMessage
	history         [][2]any // [at, status]
	// client side
	clientStatus string // the last status the client saw
	stopped      bool   // the client stopped polling
	polls        int
}

func terminal(status string) bool {
	return status == TaskCompleted || status == TaskFailed || status == TaskCancelled
}

func (w *world) pollInterval() int64 {
	if w.s.Server.PollIntervalMs > 0 {
		return w.s.Server.PollIntervalMs
	}
	return defaultPollIntervalMs
}

// taskShape is the Task object on the wire.
func (w *world) taskShape(t *task) json.RawMessage {
	return mustJSON(struct {
		TaskID         string          `json:"taskId"`
		Status         string          `json:"status"`
		PollIntervalMs int64           `json:"pollIntervalMs"`
		Result         json.RawMessage `json:"result,omitempty"`
	}{t.id, t.status, w.pollInterval(), t.result})
}

// setStatus moves t to status at the worker; terminal statuses never change.
func (w *world) setStatus(t *task, status, note string) bool {
	if terminal(t.status) {
		w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeIgnore, TaskID: t.id, Note: fmt.Sprintf("Task %s is already %s; terminal statuses never change.", t.id, t.status)})
		return false
	}
	t.status = status
	t.history = append(t.history, [2]any{w.q.Now(), status})
	w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.id, Status: status, Note: note})
	return true
}

// createTask answers a task-augmented call: the server creates the durable
// task and replies at once with CreateTaskResult (resultType "task").
func (w *world) createTask(r *request) {
	t := &task{id: r.task, status: TaskWorking, clientStatus: ""}
	t.history = [][2]any{{w.q.Now(), TaskWorking}}
	w.tasks[t.id] = t
	w.taskOrder = append(w.taskOrder, t)
	w.emit(trace.Event{Actor: trace.ActorWorker, Type: trace.TypeStatus, TaskID: t.id, Status: TaskWorking,
		Note: fmt.Sprintf("The server creates durable task %s for request %s; its state outlives the request and the connection.", t.id, r.id)})
	result := mustJSON(struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
	}{"task", w.taskShape(t)})
	resp, _ := r.srv.Complete(w.q.Now(), mustJSON(rpcMessage{JSONRPC: "2.0", ID: idPtr(r.id), Result: result}), false)
	r.response = resp
	w.serverToClient(r, resp, fmt.Sprintf("The server answers request %s with a task handle (resultType \"task\").", r.id), func() {
		w.clientResponse(r, false)
		t.clientStatus = TaskWorking
		w.schedulePoll(t)
	})
}

// taskRequest sends a tasks/* request from the client; over HTTP it carries
// Mcp-Name with the taskId.
func (w *world) taskRequest(t *task, method string, note string, onAnswer func(resp rpcMessage)) {
	w.taskSeq++
	r := &request{id: scenario.NewStringID(fmt.Sprintf("%s-%d", method, w.taskSeq)), method: method, args: mustJSON(map[string]string{"taskId": t.id}), outcome: trace.OutcomePending}
	r.sentAt = w.q.Now()
	r.clientStreamOpen = w.http()
	w.reqs[r.id.Raw()] = r
	w.order = append(w.order, r)
	msg := mustJSON(rpcMessage{JSONRPC: "2.0", ID: idPtr(r.id), Method: method, Params: r.args})
	w.wire++
	n := w.wire
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeSend, ID: idPtr(r.id), TaskID: t.id, From: trace.ActorClient, To: trace.ActorServer, Wire: n, Message: msg, Note: note}
	if w.http() {
		e.Headers = map[string]string{"Mcp-Name": t.id}
	}
	w.emit(e)
	sent := w.q.Now()
	w.q.Schedule(sent+w.s.LatencyMs.Up, func() {
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idPtr(r.id), TaskID: t.id, From: trace.ActorClient, To: trace.ActorServer, Wire: n, SentAt: &sent, Message: msg,
			Note: fmt.Sprintf("Delivered to the server after %d ms.", w.s.LatencyMs.Up)})
		w.serverReceiveRequest(r)
		reply := w.serveTask(t, method)
		reply.ID = idPtr(r.id)
		failed := reply.Error != nil
		resp, _ := r.srv.Complete(w.q.Now(), mustJSON(reply), failed)
		r.response = resp
		w.serverToClient(r, resp, fmt.Sprintf("The server answers %s for task %s.", method, t.id), func() {
			w.clientResponse(r, failed)
			onAnswer(reply)
		})
	})
}

// serveTask is the server's handling of tasks/get and tasks/cancel.
func (w *world) serveTask(t *task, method string) rpcMessage {
	reply := rpcMessage{JSONRPC: "2.0"}
	if method == "tasks/get" {
		reply.Result = w.taskShape(t)
		return reply
	}
	// tasks/cancel
	if w.is2025() {
		if terminal(t.status) {
			reply.Error = &rpcError{Code: -32602, Message: fmt.Sprintf("task %s is already %s", t.id, t.status)}
			w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, TaskID: t.id, Note: "Under 2025-11-25 cancelling a terminal task fails with -32602."})
			return reply
		}
		w.setStatus(t, TaskCancelled, fmt.Sprintf("Under 2025-11-25 a valid tasks/cancel moves task %s to cancelled before the reply, and the reply is the Task.", t.id))
		reply.Result = w.taskShape(t)
		return reply
	}
	t.cancelRequested = true
	w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, TaskID: t.id, Status: t.status,
		Note: fmt.Sprintf("The server records the cancellation intent for task %s and acknowledges it; the task stays %s until a worker checkpoint observes the flag.", t.id, t.status)})
	reply.Result = json.RawMessage(`{"resultType":"complete"}`)
	return reply
}

// schedulePoll polls t with tasks/get every pollIntervalMs until the client
// sees a terminal status (DOMAIN.md §6). Polling is bounded: it also stops
// once the script has ended and ten intervals passed with nothing else to do.
func (w *world) schedulePoll(t *task) {
	if t.stopped || terminal(t.clientStatus) {
		return
	}
	at := w.q.Now() + w.pollInterval()
	if at > w.lastStepAt+10*w.pollInterval() {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.id, Status: t.clientStatus,
			Note: fmt.Sprintf("The script has ended and task %s is still %s; the simulation stops polling.", t.id, t.clientStatus)})
		return
	}
	w.q.Schedule(at, func() { w.poll(t, "The client polls the task at its pollIntervalMs.") })
}

func (w *world) poll(t *task, note string) {
	if t.stopped || terminal(t.clientStatus) {
		return
	}
	t.polls++
	w.taskRequest(t, "tasks/get", note, func(resp rpcMessage) {
		var s struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal(resp.Result, &s)
		t.clientStatus = s.Status
		if terminal(s.Status) {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.id, Status: s.Status,
				Note: fmt.Sprintf("The client sees task %s %s: a terminal status, so it stops polling.", t.id, s.Status)})
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
		w.taskRequest(t, "tasks/get", fmt.Sprintf("The client asks for task %s's status.", t.id), func(resp rpcMessage) {
			var s struct {
				Status string `json:"status"`
			}
			_ = json.Unmarshal(resp.Result, &s)
			t.clientStatus = s.Status
		})
	case "task-cancel":
		w.taskRequest(t, "tasks/cancel", fmt.Sprintf("The client asks to cancel task %s.", t.id), func(resp rpcMessage) {
			if resp.Error != nil {
				return
			}
			if w.is2025() {
				var s struct {
					Status string `json:"status"`
				}
				_ = json.Unmarshal(resp.Result, &s)
				t.clientStatus = s.Status
				w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.id, Status: s.Status, Note: fmt.Sprintf("The reply is the Task: %s.", s.Status)})
				return
			}
			if w.s.Client.Policy.TreatTaskAckAsFinal {
				t.stopped = true
				w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.id, Status: "stopped",
					Note: "Policy treatTaskAckAsFinal: the UI says \"stopped\" on the acknowledgement and stops polling, while the worker may run on."})
				return
			}
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, TaskID: t.id, Status: t.clientStatus,
				Note: "The acknowledgement means \"cancellation intent received\", not \"stopped\": the client keeps polling until a terminal status."})
			w.poll(t, "The client polls after the acknowledgement.")
		})
	case "checkpoint":
		if t.cancelRequested && t.status == TaskWorking {
			w.setStatus(t, TaskCancelled, fmt.Sprintf("A worker checkpoint observes the cancellation flag: task %s becomes cancelled.", t.id))
			return
		}
		why := "no cancellation was requested"
		if terminal(t.status) {
			why = "the task is already " + t.status
		}
		w.emit(trace.Event{Actor: trace.ActorWorker, Type: "checkpoint", TaskID: t.id, Note: fmt.Sprintf("Worker checkpoint for task %s: %s; work continues.", t.id, why)})
	case "finish-task":
		result := st.Result
		if result == nil {
			result = json.RawMessage(`{"content":[]}`)
		}
		note := fmt.Sprintf("The worker finishes task %s: completed.", t.id)
		if t.cancelRequested {
			note = fmt.Sprintf("The worker finishes task %s before any checkpoint saw the cancellation: it ends completed even though the cancel was acknowledged.", t.id)
		}
		if !terminal(t.status) {
			t.result = result
		}
		w.setStatus(t, TaskCompleted, note)
	}
}

// traceTasks summarizes the tasks, in creation order.
func (w *world) traceTasks() []trace.Task {
	out := []trace.Task{}
	for _, t := range w.taskOrder {
		out = append(out, trace.Task{TaskID: t.id, Status: t.status, CancelRequested: t.cancelRequested, History: t.history})
	}
	return out
}
