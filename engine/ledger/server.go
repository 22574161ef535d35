package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Ledger errors reach the client as JSON-RPC errors (DOMAIN.md §4). A key
// reused with other arguments is -32602 (invalid params) with
// data.httpStatus 422, the status the IETF Idempotency-Key draft gives a
// changed payload for the same key (409 is for a key still in flight,
// which the BEGIN IMMEDIATE lock rules out here: the second caller waits
// and replays). Any other ledger failure is -32603 (internal error).
const (
	CodeInvalidParams = -32602
	CodeInternal      = -32603
	StatusKeyConflict = 422
)

// Server is a scenario's ledger at the server (DOMAIN.md §4): one store
// per replica (or one shared by all), one connection per replica, and
// replica k takes every k-th ledger call. It also holds what each request
// got back, so a caller's later edit (Mutate) reaches the server's own
// object when defensive copies are off.
type Server struct {
	// Policy is the server's ledger switches (Open sets them; the zero
	// value deduplicates by business key with check-then-act).
	Policy Policy

	stores   []Store
	conns    []Conn
	next     int // round robin over replicas
	replicas int
	// shareResults: policy defensiveCopy false, every caller of a key gets
	// the one shared result object.
	shareResults bool
	cache        map[string]json.RawMessage // shareResults: the one object per key
	results      map[string]json.RawMessage // by request id text: what it got back
	keyOf        map[string]string          // request id text -> dedupe key
}

// OpenServer opens the stores through open (one when shared, else one per
// replica; replicas >= 1) and connects each replica. shareResults is
// server.policy.defensiveCopy false. On error nothing stays open.
func OpenServer(open func() (Store, error), replicas int, shared, shareResults bool) (*Server, error) {
	n := 1
	if !shared {
		n = replicas
	}
	s := &Server{replicas: replicas, shareResults: shareResults, cache: map[string]json.RawMessage{}, results: map[string]json.RawMessage{}, keyOf: map[string]string{}}
	for i := 0; i < n; i++ {
		st, err := open()
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("opening the ledger: %w", err)
		}
		s.stores = append(s.stores, st)
	}
	if err := s.connectAll(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) connectAll() error {
	s.conns = nil
	for i := 0; i < s.replicas; i++ {
		c, err := s.stores[i%len(s.stores)].Connect()
		if err != nil {
			return fmt.Errorf("connecting to the ledger: %w", err)
		}
		s.conns = append(s.conns, c)
	}
	return nil
}

// Close closes every connection and store; a nil Server (no ledger) has
// none.
func (s *Server) Close() {
	if s == nil {
		return
	}
	for _, c := range s.conns {
		c.Close()
	}
	for _, st := range s.stores {
		st.Close()
	}
}

// Next returns the connection of the replica that takes the next ledger
// call, and that replica's index (from 0).
func (s *Server) Next() (Conn, int) {
	k := s.next % s.replicas
	s.next++
	return s.conns[k], k
}

// Connect opens one more connection to the first store (a race's
// connections).
func (s *Server) Connect() (Conn, error) { return s.stores[0].Connect() }

// Reopen closes every connection and opens them again; committed records
// survive (DOMAIN.md §4). It returns the note saying what is still there.
func (s *Server) Reopen() (string, error) {
	for _, c := range s.conns {
		c.Close()
	}
	if err := s.connectAll(); err != nil {
		return "", err
	}
	recs, _ := s.conns[0].Records()
	n, _ := s.conns[0].Executions()
	return "Every ledger connection is closed and opened again: " + strconv.Itoa(len(recs)) + " committed record(s) and " + strconv.Itoa(n) + " execution(s) are still there.", nil
}

// DedupeBy sets the key the server deduplicates by, per
// server.policy.dedupeBy: "rpc-id" keys by the JSON-RPC id text rpcID,
// "none" by nothing, anything else keeps the business key.
func DedupeBy(in Intent, policy, rpcID string) Intent {
	switch policy {
	case "rpc-id":
		in.Key = "rpc:" + rpcID
	case "none":
		in.Key = ""
	}
	return in
}

// BusinessKey is the idempotencyKey a call's arguments carry, "" if none.
func BusinessKey(arguments json.RawMessage) string {
	var a struct {
		Key string `json:"idempotencyKey"`
	}
	_ = json.Unmarshal(arguments, &a)
	return a.Key
}

// ReplyKind is what a ledger call came to.
type ReplyKind uint8

const (
	// Rejected: refused before any effect (bad arguments, or a key reused
	// with other arguments).
	Rejected ReplyKind = iota
	// Broke: the database failed.
	Broke
	// Replayed: the committed result is returned, no new execution.
	Replayed
	// Executed: the side effect ran.
	Executed
)

// Reply is the server's answer to one ledger call: the ledger event's
// kind, key, fingerprint and note, and either a result (Result, the object
// the caller gets; the response carries ToolResult(Result)) or a JSON-RPC
// error (Code, Message, Data).
type Reply struct {
	Kind             ReplyKind
	Key, Fingerprint string
	Note             string
	Result           json.RawMessage
	Code             int
	Message          string
	Data             json.RawMessage
}

// Invalid is the reply to a call Prepare refused: -32602, before any
// effect.
func Invalid(err error) Reply {
	msg := strings.TrimPrefix(err.Error(), "ledger: ")
	return Reply{Kind: Rejected, Code: CodeInvalidParams, Message: msg, Note: "Rejected before any effect: " + msg + "."}
}

// Reply turns the decision (out, err) on in, taken on replica (from 0) for
// the request whose id text is rpcID with arguments args, into the reply,
// and records the result the caller gets (shared per key when defensive
// copies are off).
func (s *Server) Reply(rpcID string, args json.RawMessage, replica int, in Intent, out Outcome, err error) Reply {
	where := ""
	if s.replicas > 1 {
		where = " on replica " + strconv.Itoa(replica+1)
	}
	r := Reply{Key: BusinessKey(args), Fingerprint: in.Fingerprint}
	switch {
	case errors.Is(err, ErrKeyConflict):
		r.Kind, r.Code = Rejected, CodeInvalidParams
		r.Note = fmt.Sprintf("Key %q was committed with other arguments: rejected, no new execution (one key must never alias two intents)%s.", in.Key, where)
		r.Message = fmt.Sprintf("idempotency key %q was already used with different arguments", in.Key)
		r.Data, _ = json.Marshal(map[string]any{"idempotencyKey": in.Key, "httpStatus": StatusKeyConflict})
		return r
	case err != nil:
		r.Kind, r.Code, r.Message = Broke, CodeInternal, err.Error()
		r.Note = fmt.Sprintf("The ledger failed%s: %v.", where, err)
		return r
	}
	r.Result = out.Result
	if s.shareResults && in.Key != "" {
		// Broken: every caller gets the one shared object for the key.
		if shared, ok := s.cache[in.Key]; ok {
			r.Result = shared
		} else {
			s.cache[in.Key] = r.Result
		}
	}
	if out.Replayed {
		r.Kind = Replayed
		r.Note = fmt.Sprintf("Key %q is committed: the stored result is returned (original rpcId), no new execution%s.", in.Key, where)
	} else {
		r.Kind = Executed
		r.Note = "Execution " + strconv.Itoa(out.Execution) + " runs the side effect (" + ReceiptFor(in.Tool, int64(out.Execution)) + ")" + where
		if in.Key != "" {
			r.Note += fmt.Sprintf(" and commits the result under key %q in the same transaction.", in.Key)
		} else {
			r.Note += ": no key, so nothing can deduplicate a retry."
		}
	}
	s.results[rpcID] = r.Result
	s.keyOf[rpcID] = in.Key
	return r
}

// Mutate is the caller editing the result object request rpcID got back:
// set's members replace the object's (a result that is not an object is
// replaced whole). ok is false when the request got no ledger result.
// With defensive copies off the edit reaches the server's shared object,
// and every later replay of its key returns the corrupted value.
func (s *Server) Mutate(rpcID string, set json.RawMessage) (mutated json.RawMessage, note string, ok bool) {
	got, ok := s.results[rpcID]
	if !ok {
		return nil, "", false
	}
	var obj, fields map[string]json.RawMessage
	if json.Unmarshal(got, &obj) != nil || obj == nil {
		obj = map[string]json.RawMessage{}
	}
	_ = json.Unmarshal(set, &fields)
	for k, v := range fields {
		obj[k] = v
	}
	mutated, _ = json.Marshal(obj) // map keys marshal sorted
	note = "The caller edits the result object it got back. The ledger returned a defensive copy decoded from the stored JSON, so the stored result is unchanged."
	if dk := s.keyOf[rpcID]; s.shareResults && dk != "" {
		s.cache[dk] = mutated // the one shared object
		note = "The caller edits the result object it got back, and policy defensiveCopy false handed it the server's own stored object: every later replay returns the corrupted value."
	}
	s.results[rpcID] = mutated
	return mutated, note, true
}

// ReplicaRecord is a committed record and the replica (from 1) whose
// database holds it.
type ReplicaRecord struct {
	Record
	Replica int
}

// Summary reads every store: executions over all replicas, the records
// (store by store, ordered by key) and the execution log.
func (s *Server) Summary() (executions int, records []ReplicaRecord, log []json.RawMessage) {
	for i, st := range s.stores {
		// Connection i uses store i (round robin over replicas, and there
		// are at least as many connections as stores): read through it
		// rather than open SQLite once more.
		var c Conn
		if i < len(s.conns) && s.conns[i] != nil {
			c = s.conns[i]
		} else if fresh, err := st.Connect(); err == nil {
			c = fresh
			defer fresh.Close()
		} else {
			continue
		}
		n, _ := c.Executions()
		executions += n
		recs, _ := c.Records()
		for _, r := range recs {
			records = append(records, ReplicaRecord{Record: r, Replica: i + 1})
		}
		l, _ := c.Log()
		log = append(log, l...)
	}
	return executions, records, log
}
