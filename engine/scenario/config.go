package scenario

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
)

func (d *decoder) scenario(root *object) *Scenario {
	s := &Scenario{Mcplab: Version, Protocol: Protocol20260728, Transport: TransportStdio}
	v, ok := d.integer(root, "mcplab", math.MinInt64, math.MaxInt64)
	if d.err == nil && !ok {
		d.fail(errAt("mcplab", ErrMissing, "a scenario starts with \"mcplab\": %d", Version))
	}
	if d.err == nil && v != Version {
		d.fail(errAt("mcplab", ErrVersion, "this lab reads version %d, not %d", Version, v))
	}
	s.Title, _ = d.str(root, "title", MaxTextLen)
	s.Notes, _ = d.str(root, "notes", 4*MaxTextLen)
	s.Protocol = d.oneOf(root, "protocol", Protocol20260728, Protocol20260728, Protocol20251125)
	s.Transport = d.oneOf(root, "transport", TransportStdio, TransportStdio, TransportHTTP)
	if raw, ok := root.get("latencyMs"); ok {
		if o := d.obj("latencyMs", raw); o != nil {
			s.LatencyMs.Up, _ = d.integer(o, "up", 0, MaxDurationMs)
			s.LatencyMs.Down, _ = d.integer(o, "down", 0, MaxDurationMs)
			d.unknown(o)
		}
	}
	d.client(root, s)
	d.server(root, s)
	d.herd(root, s)
	d.flow(root, s)
	d.ledger(root, s)
	d.steps(root, s)
	d.explore(root, s)
	d.unknown(root)
	if d.err != nil {
		return nil
	}
	return s
}

func (d *decoder) client(root *object, s *Scenario) {
	s.Client.ID = "client-0"
	if s.Transport == TransportHTTP && s.Protocol == Protocol20251125 {
		s.Client.Policy.HTTPCancel = HTTPCancelPostNotification
	} else {
		s.Client.Policy.HTTPCancel = HTTPCancelCloseStream
	}
	raw, ok := root.get("client")
	if !ok {
		return
	}
	o := d.obj("client", raw)
	if o == nil {
		return
	}
	if id, ok := d.str(o, "id", 256); ok {
		if id == "" {
			d.fail(errAt("client.id", ErrValue, "must not be empty"))
		}
		s.Client.ID = id
	}
	s.Client.IdleTimeoutMs, s.Client.MaxTimeoutMs = d.timeouts(o, 0, 0)
	if raw, ok := o.get("policy"); ok {
		if p := d.obj("client.policy", raw); p != nil {
			s.Client.Policy.HTTPCancel = d.oneOf(p, "httpCancel", s.Client.Policy.HTTPCancel, HTTPCancelCloseStream, HTTPCancelPostNotification)
			s.Client.Policy.ProgressResetsMax, _ = d.boolean(p, "progressResetsMax")
			s.Client.Policy.AcceptNonIncreasingProgress, _ = d.boolean(p, "acceptNonIncreasingProgress")
			s.Client.Policy.SendLastEventID, _ = d.boolean(p, "sendLastEventId")
			s.Client.Policy.TreatTaskAckAsFinal, _ = d.boolean(p, "treatTaskAckAsFinal")
			s.Client.Policy.LateResponseIsError, _ = d.boolean(p, "lateResponseIsError")
			s.Client.Policy.LateProgressIsError, _ = d.boolean(p, "lateProgressIsError")
			s.Client.Policy.IgnoreProgress, _ = d.boolean(p, "ignoreProgress")
			s.Client.Policy.ForgetResumeToken, _ = d.boolean(p, "forgetResumeToken")
			s.Client.Policy.Timeouts = d.oneOf(p, "timeouts", "", "", TimeoutsRequired, TimeoutsNone)
			d.decisions(p, &s.Client.Policy)
			if v, ok := d.boolean(p, "reinitializeOnNotFound"); ok && !v {
				s.Client.Policy.ReinitializeOnNotFound = &v
			}
			d.unknown(p)
		}
	}
	d.unknown(o)
}

// timeouts reads idleTimeoutMs and maxTimeoutMs from o over the defaults and
// enforces DOMAIN.md §2: idle > 0, max > 0, and max >= idle when both are set.
func (d *decoder) timeouts(o *object, idle, max int64) (int64, int64) {
	if v, ok := d.integer(o, "idleTimeoutMs", 1, MaxDurationMs); ok {
		idle = v
	}
	if v, ok := d.integer(o, "maxTimeoutMs", 1, MaxDurationMs); ok {
		max = v
	}
	if d.err == nil && idle > 0 && max > 0 && max < idle {
		d.fail(errAt(o.sub("maxTimeoutMs"), ErrValue, "must be >= idleTimeoutMs (%d)", idle))
	}
	return idle, max
}

func (d *decoder) server(root *object, s *Scenario) {
	raw, ok := root.get("server")
	if !ok {
		return
	}
	o := d.obj("server", raw)
	if o == nil {
		return
	}
	if raw, ok := o.get("policy"); ok {
		if p := d.obj("server.policy", raw); p != nil {
			s.Server.Policy.RespondAfterCancel, _ = d.boolean(p, "respondAfterCancel")
			s.Server.Policy.IgnoreDisconnect, _ = d.boolean(p, "ignoreDisconnect")
			s.Server.Policy.ReplayAllStreams, _ = d.boolean(p, "replayAllStreams")
			s.Server.Policy.HandlerIgnoresCancel, _ = d.boolean(p, "handlerIgnoresCancel")
			s.Server.Policy.HoldNotifications, _ = d.boolean(p, "holdNotifications")
			s.Server.Policy.RouteByIDOnly, _ = d.boolean(p, "routeByIdOnly")
			if v, ok := d.boolean(p, "releaseOnCancel"); ok && !v {
				s.Server.Policy.ReleaseOnCancel = &v
			}
			s.Server.Policy.ReplayNothing, _ = d.boolean(p, "replayNothing")
			s.Server.Policy.AsyncInitialized, _ = d.boolean(p, "asyncInitialized")
			if v := d.oneOf(p, "dedupeBy", "idempotency-key", "idempotency-key", "rpc-id", "none"); v != "idempotency-key" {
				s.Server.Policy.DedupeBy = v
			}
			for _, sw := range []struct {
				name string
				dst  **bool
			}{{"atomicLedger", &s.Server.Policy.AtomicLedger}, {"defensiveCopy", &s.Server.Policy.DefensiveCopy}, {"fingerprint", &s.Server.Policy.Fingerprint}} {
				if v, ok := d.boolean(p, sw.name); ok && !v {
					*sw.dst = &v
				}
			}
			d.unknown(p)
		}
	}
	if v, ok := d.boolean(o, "sseHeaders"); ok && !v {
		s.Server.SSEHeaders = &v
	}
	if v, ok := d.integer(o, "pollIntervalMs", 1, MaxDurationMs); ok {
		s.Server.PollIntervalMs = v
	}
	if v, ok := d.integer(o, "keepaliveEveryMs", MinKeepaliveMs, MaxDurationMs); ok {
		if s.Transport != TransportHTTP {
			d.fail(errAt("server.keepaliveEveryMs", ErrValue, "keep-alive comments exist only on streamable-http"))
		}
		s.Server.KeepaliveEveryMs = v
	}
	d.handlers(o, s)
	d.unknown(o)
}

// herd reads the herd experiment with its defaults (SCENARIO.md).
func (d *decoder) herd(root *object, s *Scenario) {
	raw, ok := root.get("herd")
	if !ok || d.err != nil {
		return
	}
	o := d.obj("herd", raw)
	if o == nil {
		return
	}
	dh := DefaultHerd()
	h := &dh
	if v, ok := d.integer(o, "clients", 1, 100_000); ok {
		h.Clients = int(v)
	}
	h.Strategy = d.oneOf(o, "strategy", h.Strategy, HerdStrategies...)
	if v, ok := d.integer(o, "baseMs", 1, 60_000); ok {
		h.BaseMs = v
	}
	if v, ok := d.integer(o, "capMs", 1, 60_000); ok {
		h.CapMs = v
	}
	if d.err == nil && h.CapMs < h.BaseMs {
		d.fail(errAt("herd.capMs", ErrValue, "must be >= baseMs (%d)", h.BaseMs))
	}
	if v, ok := d.integer(o, "serverCapacityPerSecond", 1, 10_000_000); ok {
		h.ServerCapacityPerSecond = int(v)
	}
	if v, ok := d.integer(o, "maxAttempts", 1, 20); ok {
		h.MaxAttempts = int(v)
	}
	if v, ok := d.integer(o, "bucketMs", 1, 60_000); ok {
		h.BucketMs = v
	}
	h.Compare, _ = d.boolean(o, "compare")
	if v, ok := d.integer(o, "outageMs", 0, MaxDurationMs); ok {
		h.OutageMs = v
	}
	// Bound the work and the drawing a link can ask for (SCENARIO.md, Bad
	// input): at most a million reconnect draws and MaxHerdBuckets buckets.
	if d.err == nil && int64(h.Clients)*int64(h.MaxAttempts) > MaxHerdDraws {
		d.fail(errAt("herd.maxAttempts", ErrLimit, "clients x maxAttempts must be <= %d (%d clients allow at most %d attempts)", MaxHerdDraws, h.Clients, MaxHerdDraws/int64(h.Clients)))
	}
	if horizon := int64(h.MaxAttempts+1) * h.CapMs; d.err == nil && horizon/h.BucketMs > MaxHerdBuckets {
		d.fail(errAt("herd.bucketMs", ErrLimit, "must be >= %d: this herd spans up to %d ms, drawn in at most %d buckets", (horizon+MaxHerdBuckets-1)/MaxHerdBuckets, horizon, MaxHerdBuckets))
	}
	d.unknown(o)
	s.Herd = h
}

// flow reads proxy, buffer and consumer (Streamable HTTP only).
func (d *decoder) flow(root *object, s *Scenario) {
	for _, name := range []string{"proxy", "buffer", "consumer"} {
		if root.has(name) && d.err == nil && s.Transport != TransportHTTP {
			d.fail(errAt(name, ErrValue, "exists only on streamable-http; this scenario's transport is %s", s.Transport))
		}
	}
	if raw, ok := root.get("proxy"); ok && d.err == nil {
		if o := d.obj("proxy", raw); o != nil {
			p := &Proxy{FlushBytes: 4096}
			p.Buffering, _ = d.boolean(o, "buffering")
			if v, ok := d.integer(o, "flushBytes", 1, 1<<30); ok {
				p.FlushBytes = int(v)
			}
			if v, ok := d.integer(o, "idleCloseMs", 0, MaxDurationMs); ok {
				p.IdleCloseMs = v
			}
			if v, ok := d.boolean(o, "honorsNoBuffering"); ok && !v {
				p.HonorsNoBuffering = &v
			}
			d.unknown(o)
			s.Proxy = p
		}
	}
	if raw, ok := root.get("buffer"); ok && d.err == nil {
		if o := d.obj("buffer", raw); o != nil {
			db := DefaultBuffer()
			b := &db
			if v, ok := d.integer(o, "capacity", 0, 100_000); ok {
				if v == 1 {
					d.fail(errAt("buffer.capacity", ErrValue, "must be >= 2 (or 0 for unbounded)"))
				}
				b.Capacity = int(v)
			}
			b.Policy = d.oneOf(o, "policy", b.Policy, "evict-progress", "drop-newest")
			d.unknown(o)
			s.Buffer = b
		}
	}
	if raw, ok := root.get("consumer"); ok && d.err == nil {
		if s.Buffer == nil {
			d.fail(errAt("consumer", ErrValue, "needs a buffer: the consumer drains the server's SSE buffer"))
			return
		}
		if o := d.obj("consumer", raw); o != nil {
			c := &Consumer{DrainEveryMs: 100, Batch: 1}
			if v, ok := d.integer(o, "drainEveryMs", 1, MaxDurationMs); ok {
				c.DrainEveryMs = v
			}
			if v, ok := d.integer(o, "batch", 1, 100_000); ok {
				c.Batch = int(v)
			}
			d.unknown(o)
			s.Consumer = c
		}
	}
	if s.Buffer != nil && s.Consumer == nil {
		s.Consumer = &Consumer{DrainEveryMs: 100, Batch: 1}
	}
}

// ledger reads the ledger configuration.
func (d *decoder) ledger(root *object, s *Scenario) {
	raw, ok := root.get("ledger")
	if !ok || d.err != nil {
		return
	}
	o := d.obj("ledger", raw)
	if o == nil {
		return
	}
	l := &Ledger{Replicas: 1, Shared: true}
	if v, ok := d.integer(o, "replicas", 1, 8); ok {
		l.Replicas = int(v)
	}
	if v, ok := d.boolean(o, "shared"); ok {
		l.Shared = v
	}
	d.unknown(o)
	s.Ledger = l
}

// decisions reads the client's decisions of client.policy (SCENARIO.md,
// "The client decides when it gives up, retries and resumes"): the retry
// policy and the switches, each stored only when it differs from the
// correct default.
func (d *decoder) decisions(p *object, cp *ClientPolicy) {
	for _, sw := range []struct {
		name string
		dst  **bool
	}{{"cancelOnAbandon", &cp.CancelOnAbandon}, {"resumeDroppedCalls", &cp.ResumeDroppedCalls}} {
		if v, ok := d.boolean(p, sw.name); ok && !v {
			*sw.dst = &v
		}
	}
	cp.AwaitResponseAfterCancel, _ = d.boolean(p, "awaitResponseAfterCancel")
	cp.CancelAfterFirstEvent, _ = d.boolean(p, "cancelAfterFirstEvent")
	cp.OmitLastEventID, _ = d.boolean(p, "omitLastEventId")
	cp.SkipRefetch, _ = d.boolean(p, "skipRefetch")
	cp.HeaderMismatch = d.oneOf(p, "headerMismatch", "", "", HeaderMismatchProtocolVersion, HeaderMismatchMethod, HeaderMismatchName)
	cp.ClaimProtocolVersion, _ = d.str(p, "claimProtocolVersion", MaxClaimedVersionLen)
	raw, ok := p.get("retry")
	if !ok || d.err != nil {
		return
	}
	o := d.obj("client.policy.retry", raw)
	if o == nil {
		return
	}
	r := &RetryPolicy{On: []string{RetryOnTimeout, RetryOnError, RetryOnDisconnect}, Max: 1, DelayMs: 100, SameKey: true}
	if raw, ok := o.get("on"); ok {
		r.On = d.retryOn(o.sub("on"), raw)
	}
	if v, ok := d.integer(o, "max", 1, MaxRetries); ok {
		r.Max = int(v)
	}
	if v, ok := d.integer(o, "delayMs", 0, MaxDurationMs); ok {
		r.DelayMs = v
	}
	if v, ok := d.boolean(o, "sameKey"); ok {
		r.SameKey = v
	}
	d.unknown(o)
	if d.err == nil {
		cp.Retry = r
	}
}

// retryOn reads client.policy.retry.on: an array of distinct RetryOn*
// values, in the order given.
func (d *decoder) retryOn(path string, raw json.RawMessage) []string {
	var items []json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &items) != nil {
		d.fail(errAt(path, ErrType, "must be an array of \"timeout\", \"error\", \"disconnect\""))
		return nil
	}
	allowed := []string{RetryOnTimeout, RetryOnError, RetryOnDisconnect}
	out := make([]string, 0, len(items))
	for i, item := range items {
		at := path + "[" + strconv.Itoa(i) + "]"
		var v string
		if json.Unmarshal(item, &v) != nil || !slices.Contains(allowed, v) {
			d.fail(errAt(at, ErrValue, "must be one of %s", quoteList(allowed)))
			return nil
		}
		if slices.Contains(out, v) {
			d.fail(errAt(at, ErrValue, "%q is listed twice", v))
			return nil
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		d.fail(errAt(path, ErrValue, "must list at least one of \"timeout\", \"error\", \"disconnect\""))
		return nil
	}
	return out
}
