package trace

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/mcplab/mcplab/engine/scenario"
)

// appendScenario appends s as a json.Encoder with HTML escaping off writes
// it, without the trailing newline: members in declaration order,
// omitempty as tagged, strings as appendString writes them, floats as
// encoding/json formats a float64, ids and raw JSON as they are. It writes
// the trace's copy of the scenario by hand because encoding/json's
// reflection was the costliest part of a lesson's run relative to native
// under WebAssembly (issue 11: 9% of a wasm run, 7% of a native one). It
// returns false for what it cannot vouch for (raw JSON that is not valid
// and compact, a float that is not finite), and newWriter then takes
// encoding/json, which writes the same bytes or the error
// (TestAppendScenarioMatchesEncodingJSON).
func appendScenario(dst []byte, s *scenario.Scenario) ([]byte, bool) {
	e := sjson{b: dst, ok: true}
	o := e.open()
	o.key("mcplab")
	e.int(int64(s.Mcplab))
	o.optStr("title", s.Title)
	o.optStr("notes", s.Notes)
	o.key("protocol")
	e.str(s.Protocol)
	o.key("transport")
	e.str(s.Transport)
	o.key("latencyMs")
	l := e.open()
	l.key("up")
	e.int(s.LatencyMs.Up)
	l.key("down")
	e.int(s.LatencyMs.Down)
	e.close()
	o.key("client")
	e.client(&s.Client)
	o.key("server")
	e.server(&s.Server)
	if p := s.Proxy; p != nil {
		o.key("proxy")
		po := e.open()
		po.key("buffering")
		e.bool(p.Buffering)
		po.key("flushBytes")
		e.int(int64(p.FlushBytes))
		po.key("idleCloseMs")
		e.int(p.IdleCloseMs)
		po.optBoolPtr("honorsNoBuffering", p.HonorsNoBuffering)
		e.close()
	}
	if b := s.Buffer; b != nil {
		o.key("buffer")
		bo := e.open()
		bo.key("capacity")
		e.int(int64(b.Capacity))
		bo.key("policy")
		e.str(b.Policy)
		e.close()
	}
	if c := s.Consumer; c != nil {
		o.key("consumer")
		co := e.open()
		co.key("drainEveryMs")
		e.int(c.DrainEveryMs)
		co.key("batch")
		e.int(int64(c.Batch))
		e.close()
	}
	if lg := s.Ledger; lg != nil {
		o.key("ledger")
		lo := e.open()
		lo.key("replicas")
		e.int(int64(lg.Replicas))
		lo.key("shared")
		e.bool(lg.Shared)
		e.close()
	}
	if h := s.Herd; h != nil {
		o.key("herd")
		e.herd(h)
	}
	o.key("steps")
	if s.Steps == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.b = append(e.b, '[')
		for i := range s.Steps {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.step(&s.Steps[i])
		}
		e.b = append(e.b, ']')
	}
	e.close()
	return e.b, e.ok
}

// sjson is appendScenario's output; ok turns false at the first part it
// cannot write as encoding/json would.
type sjson struct {
	b  []byte
	ok bool
}

// members writes one object's members, a comma before every one after
// the first.
type members struct {
	e *sjson
	n int
}

func (e *sjson) open() members {
	e.b = append(e.b, '{')
	return members{e: e}
}

func (e *sjson) close() { e.b = append(e.b, '}') }

// key appends the member name and its colon.
func (m *members) key(name string) {
	if m.n > 0 {
		m.e.b = append(m.e.b, ',')
	}
	m.n++
	m.e.b = append(m.e.b, '"')
	m.e.b = append(m.e.b, name...)
	m.e.b = append(m.e.b, '"', ':')
}

func (m *members) optStr(name, s string) {
	if s != "" {
		m.key(name)
		m.e.str(s)
	}
}

func (m *members) optInt(name string, n int64) {
	if n != 0 {
		m.key(name)
		m.e.int(n)
	}
}

func (m *members) optBool(name string, v bool) {
	if v {
		m.key(name)
		m.e.bool(true)
	}
}

func (m *members) optBoolPtr(name string, v *bool) {
	if v != nil {
		m.key(name)
		m.e.bool(*v)
	}
}

func (m *members) optIntPtr(name string, n *int64) {
	if n != nil {
		m.key(name)
		m.e.int(*n)
	}
}

func (m *members) optFloat(name string, f *float64) {
	if f != nil {
		m.key(name)
		m.e.float(*f)
	}
}

func (m *members) optID(name string, id *scenario.ID) {
	if id != nil {
		m.key(name)
		m.e.id(*id)
	}
}

func (m *members) optRaw(name string, raw json.RawMessage) {
	if len(raw) > 0 {
		m.key(name)
		m.e.raw(raw)
	}
}

func (e *sjson) str(s string) { e.b = appendString(e.b, s) }

func (e *sjson) int(n int64) { e.b = strconv.AppendInt(e.b, n, 10) }

func (e *sjson) bool(v bool) { e.b = strconv.AppendBool(e.b, v) }

// float appends f as encoding/json writes a float64: 'f' format, or 'e'
// below 1e-6 or from 1e21 on with a two-digit exponent's leading zero cut;
// a NaN or an infinity is encoding/json's error, so not ok.
func (e *sjson) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.ok = false
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, 64)
	if n := len(e.b); format == 'e' && n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
		e.b[n-2] = e.b[n-1]
		e.b = e.b[:n-1]
	}
}

// id appends id's JSON (ID.MarshalJSON: null for the zero ID), which the
// scenario package only ever makes valid and compact.
func (e *sjson) id(id scenario.ID) {
	if id.IsZero() {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, id.Raw()...)
}

// raw appends raw JSON that is valid and compact (no whitespace between
// tokens), which encoding/json would copy as it is; anything else is
// not ok.
func (e *sjson) raw(raw json.RawMessage) {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			e.ok = false
			return
		}
	}
	if !json.Valid(raw) {
		e.ok = false
		return
	}
	e.b = append(e.b, raw...)
}

func (e *sjson) client(c *scenario.Client) {
	o := e.open()
	o.key("id")
	e.str(c.ID)
	o.optInt("idleTimeoutMs", c.IdleTimeoutMs)
	o.optInt("maxTimeoutMs", c.MaxTimeoutMs)
	o.key("policy")
	p := &c.Policy
	po := e.open()
	po.key("httpCancel")
	e.str(p.HTTPCancel)
	po.key("progressResetsMax")
	e.bool(p.ProgressResetsMax)
	po.key("acceptNonIncreasingProgress")
	e.bool(p.AcceptNonIncreasingProgress)
	po.optBool("sendLastEventId", p.SendLastEventID)
	po.optBool("treatTaskAckAsFinal", p.TreatTaskAckAsFinal)
	po.optBool("lateResponseIsError", p.LateResponseIsError)
	po.optBool("lateProgressIsError", p.LateProgressIsError)
	po.optBool("ignoreProgress", p.IgnoreProgress)
	po.optBool("forgetResumeToken", p.ForgetResumeToken)
	po.optStr("timeouts", p.Timeouts)
	e.close()
	e.close()
}

func (e *sjson) server(s *scenario.Server) {
	o := e.open()
	o.key("policy")
	p := &s.Policy
	po := e.open()
	po.key("respondAfterCancel")
	e.bool(p.RespondAfterCancel)
	po.optStr("dedupeBy", p.DedupeBy)
	po.optBoolPtr("atomicLedger", p.AtomicLedger)
	po.optBoolPtr("defensiveCopy", p.DefensiveCopy)
	po.optBoolPtr("fingerprint", p.Fingerprint)
	po.optBool("ignoreDisconnect", p.IgnoreDisconnect)
	po.optBool("replayAllStreams", p.ReplayAllStreams)
	e.close()
	o.optBoolPtr("sseHeaders", s.SSEHeaders)
	o.optInt("pollIntervalMs", s.PollIntervalMs)
	o.optInt("keepaliveEveryMs", s.KeepaliveEveryMs)
	e.close()
}

func (e *sjson) herd(h *scenario.Herd) {
	o := e.open()
	o.key("clients")
	e.int(int64(h.Clients))
	o.key("strategy")
	e.str(h.Strategy)
	o.key("baseMs")
	e.int(h.BaseMs)
	o.key("capMs")
	e.int(h.CapMs)
	o.key("serverCapacityPerSecond")
	e.int(int64(h.ServerCapacityPerSecond))
	o.key("maxAttempts")
	e.int(int64(h.MaxAttempts))
	o.key("bucketMs")
	e.int(h.BucketMs)
	o.optBool("compare", h.Compare)
	e.close()
}

func (e *sjson) step(st *scenario.Step) {
	o := e.open()
	o.key("at")
	e.int(st.At)
	o.key("do")
	e.str(st.Do)
	o.optID("id", st.ID)
	o.optStr("method", st.Method)
	o.optStr("name", st.Name)
	o.optRaw("arguments", st.Arguments)
	o.optID("progressToken", st.ProgressToken)
	o.optIntPtr("idleTimeoutMs", st.IdleTimeoutMs)
	o.optIntPtr("maxTimeoutMs", st.MaxTimeoutMs)
	o.optBoolPtr("sideEffect", st.SideEffect)
	if st.Reason != nil {
		o.key("reason")
		e.str(*st.Reason)
	}
	o.optID("of", st.Of)
	o.optStr("from", st.From)
	o.optFloat("progress", st.Progress)
	o.optFloat("total", st.Total)
	o.optRaw("message", st.Message)
	o.optRaw("result", st.Result)
	o.optIntPtr("code", st.Code)
	o.optRaw("filter", st.Filter)
	o.optID("listen", st.Listen)
	o.optRaw("params", st.Params)
	if len(st.Affected) > 0 {
		o.key("affected")
		e.b = append(e.b, '[')
		for i, a := range st.Affected {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.str(a)
		}
		e.b = append(e.b, ']')
	}
	o.optStr("task", st.Task)
	o.optStr("taskId", st.TaskID)
	o.optInt("everyMs", st.EveryMs)
	o.optInt("count", int64(st.Count))
	o.optFloat("fromValue", st.FromValue)
	o.optRaw("annotations", st.Annotations)
	o.optInt("connections", int64(st.Connections))
	if st.Call != nil {
		o.key("call")
		e.step(st.Call)
	}
	o.optRaw("set", st.Set)
	e.close()
}
