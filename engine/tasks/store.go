package tasks

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/trace"
)

// Store is the durable tasks one server keeps (DOMAIN.md §6), in creation
// order, each with what the client knows of it. The zero value is empty.
// It grows by one Entry per task-augmented call (bounded by the scenario's
// steps).
type Store struct {
	byID  map[string]*Entry
	order []*Entry
	seq   int
}

// Entry is one durable task at the server and what the client knows of it.
type Entry struct {
	Task
	Client Client
}

// Create starts task id at now (New) and keeps it.
func (s *Store) Create(id string, now int64) *Entry {
	if s.byID == nil {
		s.byID = map[string]*Entry{}
	}
	e := &Entry{Task: New(id, now)}
	s.byID[id] = e
	s.order = append(s.order, e)
	return e
}

// Get returns task id, nil when the server has not created it.
func (s *Store) Get(id string) *Entry { return s.byID[id] }

// RequestID is the JSON-RPC id text of the client's next tasks/* request
// with method: "<method>-<n>", n counting every such request from 1.
func (s *Store) RequestID(method string) string {
	s.seq++
	return method + "-" + strconv.Itoa(s.seq)
}

// Summary is the tasks' trace summaries, in creation order.
func (s *Store) Summary() []trace.Task {
	out := []trace.Task{}
	for _, e := range s.order {
		out = append(out, e.Task.Summary())
	}
	return out
}

// Interval is the polling interval a server asks for (ms): pollIntervalMs
// when positive, else DefaultPollIntervalMs.
func Interval(pollIntervalMs int64) int64 {
	if pollIntervalMs > 0 {
		return pollIntervalMs
	}
	return DefaultPollIntervalMs
}
