package scenario

import (
	"math"
	"sort"
	"strings"
)

// handlers reads server.handlers and server.resources (SCENARIO.md,
// "Handlers: the server decides when work ends"), each entry in sorted
// key order so that the first error is the same however the members are
// ordered. An empty object is the same as an absent one, so both decode
// to a nil map and the normalized form round-trips.
func (d *decoder) handlers(o *object, s *Scenario) {
	if raw, ok := o.get("handlers"); ok && d.err == nil {
		if hs := d.obj("server.handlers", raw); hs != nil {
			for _, name := range d.keys(hs, "server.handlers") {
				raw, _ := hs.get(name)
				if h, ok := d.handler(hs.sub(name), raw); ok {
					if s.Server.Handlers == nil {
						s.Server.Handlers = map[string]Handler{}
					}
					s.Server.Handlers[name] = h
				}
			}
		}
	}
	if raw, ok := o.get("resources"); ok && d.err == nil {
		if rs := d.obj("server.resources", raw); rs != nil {
			for _, name := range d.keys(rs, "server.resources") {
				if v, ok := d.integer(rs, name, 1, MaxResourceCapacity); ok {
					if s.Server.Resources == nil {
						s.Server.Resources = map[string]int{}
					}
					s.Server.Resources[name] = int(v)
				}
			}
		}
	}
}

// keys returns the member names of o, sorted, after checking that there
// are at most MaxHandlers and each is 1..256 characters.
func (d *decoder) keys(o *object, path string) []string {
	names := make([]string, 0, len(o.members))
	for _, m := range o.members {
		names = append(names, m.name)
	}
	sort.Strings(names)
	if len(names) > MaxHandlers {
		d.fail(errAt(path, ErrLimit, "%d entries, the limit is %d", len(names), MaxHandlers))
		return nil
	}
	for _, n := range names {
		if n == "" {
			d.fail(errAt(path, ErrValue, "a %s name must not be empty", strings.TrimSuffix(path[strings.LastIndex(path, ".")+1:], "s")))
			return nil
		}
		if len(n) > 256 {
			d.fail(errAt(o.sub(n), ErrValue, "a name is 1..256 characters"))
			return nil
		}
	}
	return names
}

// handler reads one handler at path.
func (d *decoder) handler(path string, raw []byte) (Handler, bool) {
	o := d.obj(path, raw)
	if o == nil {
		return Handler{}, false
	}
	var h Handler
	w, ok := d.integer(o, "workMs", 1, MaxDurationMs)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("workMs"), ErrMissing, "a handler says how long it works"))
	}
	h.WorkMs = w
	if v, ok := d.integer(o, "progressEveryMs", 1, MaxDurationMs); ok {
		h.ProgressEveryMs = v
		if n := (h.WorkMs - 1) / v; d.err == nil && n > MaxProduceCount {
			d.fail(errAt(o.sub("progressEveryMs"), ErrLimit, "must be >= %d: a call sends at most %d progress updates", (h.WorkMs-1)/(MaxProduceCount+1)+1, MaxProduceCount))
		}
	}
	h.CheckpointEveryMs, _ = d.integer(o, "checkpointEveryMs", 0, MaxDurationMs)
	if o.has("result") {
		h.Result = d.object(o, "result", "")
	}
	if raw, ok := o.get("error"); ok && d.err == nil {
		if o.has("result") {
			d.fail(errAt(o.sub("error"), ErrValue, "a handler completes with a result or fails with an error, not both"))
		}
		if e := d.obj(o.sub("error"), raw); e != nil {
			he := &HandlerError{}
			c, ok := d.integer(e, "code", math.MinInt32, math.MaxInt32)
			if d.err == nil && !ok {
				d.fail(errAt(e.sub("code"), ErrMissing, ""))
			}
			he.Code = c
			he.Message, _ = d.str(e, "message", MaxTextLen)
			d.unknown(e)
			h.Error = he
		}
	}
	if v, ok := d.str(o, "holds", 256); ok {
		if v == "" {
			d.fail(errAt(o.sub("holds"), ErrValue, "must name a resource"))
		}
		h.Holds = v
	}
	d.unknown(o)
	return h, d.err == nil
}
