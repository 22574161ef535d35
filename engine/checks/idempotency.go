// Rules of DOMAIN.md §4 (idempotency: a new JSON-RPC id is not
// deduplication) and §5 (retry classes).

package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// oneExecutionPerKey: a side effect runs at most once per idempotency key
// (DOMAIN.md §4, §12 statement 7), whatever the JSON-RPC ids, races or
// replicas.
//
// Rule: oneExecutionPerKey.
func oneExecutionPerKey(v *view) (trace.Check, bool) {
	effects := map[string][]int{}
	var keys []string
	for i, e := range v.ev {
		if e.Actor == trace.ActorLedger && e.Type == trace.TypeEffect && e.Key != "" {
			if _, ok := effects[e.Key]; !ok {
				keys = append(keys, e.Key)
			}
			effects[e.Key] = append(effects[e.Key], i)
		}
	}
	if len(keys) == 0 {
		return trace.Check{}, false
	}
	var bad []int
	var which []string
	for _, k := range keys {
		if len(effects[k]) > 1 {
			bad = append(bad, effects[k]...)
			which = append(which, fmt.Sprintf("%q ran %d times", k, len(effects[k])))
		}
	}
	if len(bad) > 0 {
		return fail(OneExecutionPerKey, "A keyed side effect ran more than once: "+strings.Join(which, "; ")+".", bad...), true
	}
	return pass(OneExecutionPerKey, "Each of "+strconv.Itoa(len(keys))+" idempotency key(s) executed exactly once."), true
}

// keyReuseRejected: a key reused with different arguments is rejected, never
// answered with the other intent's result (DOMAIN.md §4).
//
// Rule: keyReuseRejected.
func keyReuseRejected(v *view) (trace.Check, bool) {
	first := map[string]string{} // key → fingerprint of its first execution
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorLedger || e.Key == "" || e.Fingerprint == "" {
			continue
		}
		fp, seen := first[e.Key]
		if !seen {
			if e.Type == trace.TypeEffect {
				first[e.Key] = e.Fingerprint
			}
			continue
		}
		if fp == e.Fingerprint {
			continue
		}
		if e.Type == trace.TypeReject {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	return verdict(KeyReuseRejected, bad, good, "A key was reused with different arguments and not rejected ("+seqList(bad)+"): one key aliased two intents.", "Every reuse of a key with different arguments was rejected.")
}

// defensiveCopy: every replay returns exactly the result first committed
// for its key, even after a caller mutated what it got back (DOMAIN.md §4).
//
// Rule: defensiveCopy.
func defensiveCopy(v *view) (trace.Check, bool) {
	committed := map[string]string{}
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorLedger || e.Key == "" {
			continue
		}
		switch e.Type {
		case trace.TypeEffect:
			if _, ok := committed[e.Key]; !ok && len(e.Message) > 0 {
				committed[e.Key] = string(e.Message)
			}
		case trace.TypeReplay:
			if want, ok := committed[e.Key]; ok {
				if string(e.Message) == want {
					good = append(good, i)
				} else {
					bad = append(bad, i)
				}
			}
		}
	}
	return verdict(DefensiveCopy, bad, good, "A replay returned a result that differs from the committed one ("+seqList(bad)+"): a caller's mutation corrupted the stored result.", strconv.Itoa(len(good))+" replay(s) returned exactly the committed result.")
}

// noUnsafeRetry: an unsafe mutation (a side effect without an idempotency
// key) is never retried automatically; a new JSON-RPC id is not
// deduplication (DOMAIN.md §4–5, §12 statement 6). The retry itself is the
// fault, so it fails however many effects ran; its detail says what the
// ledger shows (unsafeRetryCost), never that an effect ran again when it
// did not.
//
// Rule: noUnsafeRetry.
func noUnsafeRetry(v *view) (trace.Check, bool) {
	var bad []string
	any := false
	for _, r := range v.tr.Requests {
		if r.RetryOf == nil {
			continue
		}
		any = true
		if r.RetryClass == trace.RetryUnsafe {
			bad = append(bad, "request "+r.ID.Raw()+" retried "+r.RetryOf.Raw())
		}
	}
	if !any {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(NoUnsafeRetry, "An unsafe mutation was retried with a new JSON-RPC id ("+strings.Join(bad, "; ")+"): the retry was sent without an idempotency key, so nothing stops its effect from running twice. "+unsafeRetryCost(v.tr.Ledger.Executions)), true
	}
	return pass(NoUnsafeRetry, "Every retry was of a safe read or carried its idempotency key."), true
}

// unsafeRetryCost says what an unsafe retry cost this time, from the
// ledger's count of side effects that ran: two or more ran the effect
// again (a double charge); one or none did not, this time, because no
// more than one attempt committed.
func unsafeRetryCost(executions int) string {
	switch executions {
	case 0:
		return "Here no attempt committed its side effect, so no double charge happened this time."
	case 1:
		return "Here only one attempt committed its side effect (1 execution), so no double charge happened this time."
	}
	return "Here the effect ran again: the ledger counts " + strconv.Itoa(executions) + " executions."
}
