package tasks

// What the tasks/* requests say on the wire (DOMAIN.md §6; the tasks
// extension io.modelcontextprotocol/tasks): the headers of a tasks/*
// request and the notes of the requests and answers.

// Headers are a tasks/* request's headers for task id: over Streamable
// HTTP (http) Mcp-Name carries the taskId; stdio has no headers (nil).
func Headers(id string, http bool) map[string]string {
	if !http {
		return nil
	}
	return map[string]string{"Mcp-Name": id}
}

// HandleNote is the note of the server answering task-augmented request
// request at once with a task handle (CreateTaskResult), as its revision
// marks it: resultType "task" under 2026-07-28, the result's task member
// under 2025-11-25 (is2025), whose results have no resultType.
func HandleNote(request string, is2025 bool) string {
	if is2025 {
		return "The server answers request " + request + " with a task handle (CreateTaskResult: the Task in its task member)."
	}
	return "The server answers request " + request + " with a task handle (resultType \"task\")."
}

// AskNote is the note of the client's tasks/get (method) or tasks/cancel
// for task id, from a task-get or task-cancel step.
func AskNote(method, id string) string {
	if method == "tasks/cancel" {
		return "The client asks to cancel task " + id + "."
	}
	return "The client asks for task " + id + "'s status."
}

// AnswerNote is the note of the server answering method for task id.
func AnswerNote(method, id string) string {
	return "The server answers " + method + " for task " + id + "."
}

// PollNote is the note of one of the client's tasks/get polls, naming the
// interval the server advertised as the revision's Task does: pollInterval
// under 2025-11-25 (is2025), pollIntervalMs under 2026-07-28.
func PollNote(is2025 bool) string {
	if is2025 {
		return "The client polls the task at its pollInterval."
	}
	return "The client polls the task at its pollIntervalMs."
}
