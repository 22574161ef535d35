package protocol

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// Reply is one answer of the worker: it writes itself as the JSON object
// the page reads (the Read functions of its type).
type Reply interface {
	// AppendJSON appends the reply as one JSON object to b.
	AppendJSON(b []byte) []byte
	// Failed reports whether the reply is an error (worker.js stops
	// warming a page up on one).
	Failed() bool
}

// writer writes JSON objects and lists into b; the strings go through
// jsonrpc.AppendString, which copies the runs of HTML between the bytes JSON
// escapes. counts holds, per object or list open, how many members it
// has so far.
type writer struct {
	b      []byte
	counts []int
}

func (w *writer) begin() {
	w.b = append(w.b, '{')
	w.counts = append(w.counts, 0)
}

func (w *writer) end() {
	w.b = append(w.b, '}')
	w.counts = w.counts[:len(w.counts)-1]
}

func (w *writer) beginList() {
	w.b = append(w.b, '[')
	w.counts = append(w.counts, 0)
}

func (w *writer) endList() {
	w.b = append(w.b, ']')
	w.counts = w.counts[:len(w.counts)-1]
}

// item starts the next member of the object or list open.
func (w *writer) item() {
	top := &w.counts[len(w.counts)-1]
	if *top > 0 {
		w.b = append(w.b, ',')
	}
	*top++
}

func (w *writer) key(k string) {
	w.item()
	w.b = append(jsonrpc.AppendString(w.b, k), ':')
}

func (w *writer) str(k, v string) {
	w.key(k)
	w.b = jsonrpc.AppendString(w.b, v)
}

// strOpt writes k only when v is not "".
func (w *writer) strOpt(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *writer) int(k string, v int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

func (w *writer) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

// boolOpt writes k only when v is true.
func (w *writer) boolOpt(k string, v bool) {
	if v {
		w.bool(k, true)
	}
}

func (w *writer) strs(k string, v []string) {
	w.key(k)
	w.beginList()
	for _, s := range v {
		w.item()
		w.b = jsonrpc.AppendString(w.b, s)
	}
	w.endList()
}

// object writes one JSON object of the members fill writes onto b.
func object(b []byte, fill func(w *writer)) []byte {
	w := writer{b: b}
	w.begin()
	fill(&w)
	w.end()
	return w.b
}
