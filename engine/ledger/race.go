package ledger

import (
	"errors"
	"fmt"
	"strconv"
)

// Decide is Apply's body inside a transaction the caller opened (Begin):
// the key check, then the replay or the effect. The caller commits or
// rolls back.
func Decide(c Conn, now int64, in Intent, checkFingerprint bool) (Outcome, error) {
	if in.Key != "" {
		rec, err := c.Lookup(in.Key)
		if err != nil {
			return Outcome{}, err
		}
		if rec != nil {
			return Replay(rec, in, checkFingerprint)
		}
	}
	return c.Execute(now, in, true)
}

// CheckThenAct is the known-broken variant of Apply: the key check runs in
// its own transaction and the effect in another, so two callers can both
// see the key missing and both run the effect.
func CheckThenAct(c Conn, now int64, in Intent, checkFingerprint bool) (Outcome, error) {
	if in.Key != "" {
		if err := c.Begin(); err != nil {
			return Outcome{}, err
		}
		rec, err := c.Lookup(in.Key)
		c.Commit()
		if err != nil {
			return Outcome{}, err
		}
		if rec != nil {
			return Replay(rec, in, checkFingerprint)
		}
	}
	return c.Execute(now, in, true)
}

// Phase is one step of a race's schedule.
type Phase uint8

// Phases of a race (DOMAIN.md §4), in the order they can occur.
const (
	// Lock: BEGIN IMMEDIATE took the write lock.
	Lock Phase = iota
	// Wait: BEGIN IMMEDIATE was refused (ErrBusy) while Holder held it.
	Wait
	// Check: a key check in its own transaction; Missing says what it saw.
	Check
	// Decided: the connection's call has its Outcome (or Err).
	Decided
	// EffectTwice: check-then-act ran the effect (execution Execution) and
	// only its record insert failed: the effect ran twice.
	EffectTwice
	// Failed: the connection could not take part (Err says why).
	Failed
)

// RaceStep is one entry of a race's schedule: what connection Conn (0-based,
// the index of its intent) did.
type RaceStep struct {
	Phase     Phase
	Conn      int
	Holder    int // Wait: the connection holding the lock (-1 if none yet)
	Missing   bool
	Outcome   Outcome
	Err       error
	Execution int
}

// Race runs the same call on len(ins) connections started behind one
// barrier (DOMAIN.md §4) and returns what happened, in order: the schedule
// of lock, wait, check and effect the runner turns into events.
//
// atomic true is the reference: each round every pending connection tries
// BEGIN IMMEDIATE in order; the first takes the lock, the others wait
// (SQLite's own ErrBusy decides), the holder decides and commits, and the
// losers go again. atomic false is check-then-act: every connection checks
// the key in its own transaction first, then each acts on what it saw.
//
// complete is false when a round ended with no connection holding the lock
// (a database error): the remaining calls have no decision.
func Race(conns []Conn, ins []Intent, now int64, atomic, checkFingerprint bool) (steps []RaceStep, complete bool) {
	if atomic {
		pending := make([]int, len(conns))
		for i := range pending {
			pending[i] = i
		}
		for len(pending) > 0 {
			winner := -1
			for _, i := range pending {
				err := conns[i].Begin()
				switch {
				case err == nil && winner < 0:
					winner = i
					steps = append(steps, RaceStep{Phase: Lock, Conn: i})
				case errors.Is(err, ErrBusy):
					steps = append(steps, RaceStep{Phase: Wait, Conn: i, Holder: winner})
				case err != nil:
					steps = append(steps, RaceStep{Phase: Failed, Conn: i, Err: err})
				}
			}
			if winner < 0 {
				return steps, false
			}
			out, err := Decide(conns[winner], now, ins[winner], checkFingerprint)
			if err == nil {
				err = conns[winner].Commit()
			} else {
				conns[winner].Rollback()
			}
			steps = append(steps, RaceStep{Phase: Decided, Conn: winner, Outcome: out, Err: err})
			rest := pending[:0]
			for _, i := range pending {
				if i != winner {
					rest = append(rest, i)
				}
			}
			pending = rest
		}
		return steps, true
	}
	missing := make([]bool, len(conns))
	for i, c := range conns {
		c.Begin()
		rec, _ := c.Lookup(ins[i].Key)
		c.Commit()
		missing[i] = rec == nil
		steps = append(steps, RaceStep{Phase: Check, Conn: i, Missing: missing[i]})
	}
	for i, c := range conns {
		if !missing[i] {
			rec, err := c.Lookup(ins[i].Key)
			var out Outcome
			if err == nil && rec == nil {
				err = errors.New("ledger: the record seen at the check is gone")
			}
			if err == nil {
				out, err = Replay(rec, ins[i], checkFingerprint)
			}
			steps = append(steps, RaceStep{Phase: Decided, Conn: i, Outcome: out, Err: err})
			continue
		}
		out, err := c.Execute(now, ins[i], true)
		if err != nil && out.Execution == 0 {
			n, _ := c.Executions()
			steps = append(steps, RaceStep{Phase: EffectTwice, Conn: i, Execution: n})
			continue
		}
		steps = append(steps, RaceStep{Phase: Decided, Conn: i, Outcome: out, Err: err})
	}
	return steps, true
}

// Note says what connection s.Conn did in step s of a race on intent in
// (DOMAIN.md §4), as the trace's ledger events read; "" for Decided, whose
// note is the reply's (Server.Reply).
func (s RaceStep) Note(in Intent) string {
	switch s.Phase {
	case Lock:
		return "Connection " + strconv.Itoa(s.Conn+1) + ": BEGIN IMMEDIATE takes the write lock."
	case Wait:
		return "Connection " + strconv.Itoa(s.Conn+1) + ": BEGIN IMMEDIATE is refused (SQLITE_BUSY) while connection " + strconv.Itoa(s.Holder+1) + " holds the lock; it waits."
	case Check:
		seen := "present."
		if s.Missing {
			seen = "missing, so it will run the effect."
		}
		return fmt.Sprintf("Connection %d checks key %q in its own transaction: %s", s.Conn+1, in.Key, seen)
	case EffectTwice:
		return "Connection " + strconv.Itoa(s.Conn+1) + " runs the effect anyway (execution " + strconv.Itoa(s.Execution) + ", " + ReceiptFor(in.Tool, int64(s.Execution)) + "); only its record insert then fails on the unique key. The effect ran twice."
	case Failed:
		return s.Err.Error()
	}
	return ""
}
