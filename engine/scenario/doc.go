// Package scenario defines the mcplab scenario format, version 1: the
// system's configuration plus a script of timed steps. It
// decodes untrusted JSON strictly, with errors that name the place
// (steps[3].at: must be >= 0), and fills defaults so that the engine and the
// trace see one normalized form.
//
// The format is a public contract: lessons, share URLs and outside tests
// depend on these names. Fields may be added; none is renamed or changes
// meaning. A field added after the first release is omitted from the
// normalized form while it is absent (a switch also while it holds its
// default), so an old scenario keeps producing a byte-identical trace as the
// engine grows.
//
// [Schema] is the format's JSON Schema, served by the site as
// /scenario.schema.json: every member there has a description with its unit
// (times are virtual milliseconds), default and range, and the members below
// are marked "mcplab addition to format version 1". [Verbs] lists each
// verb's fields; [Decode] reads a scenario.
//
// # Beyond version 1
//
// Format version 1 is the contract; this package reads a superset of
// it. The additions are all optional: a scenario that leaves them out is a
// plain version 1 scenario and runs as version 1 describes.
//
// Scenario members:
//   - server.pollIntervalMs: the tasks/get polling interval, in virtual ms,
//     that the server asks for in the tasks it creates and the client
//     follows; 1..[MaxDurationMs], absent means 500. Omitted from the
//     normalized form when absent (kept when given, even as 500).
//   - proxy.honorsNoBuffering: whether a buffering proxy honours the
//     server's "X-Accel-Buffering: no" and forwards each event at once;
//     default true, stored only when false.
//   - herd.compare: when true the same herd also runs under every strategy,
//     into the trace's herdCompare; default false, omitted when false.
//   - client.policy.forgetResumeToken and server.policy.replayAllStreams
//     (2025-11-25 resumption; modelcontextprotocol/typescript-sdk#2499, modelcontextprotocol/servers#4087): booleans,
//     default false, omitted when false; no effect under 2026-07-28.
//   - server.policy.replayNothing (modelcontextprotocol/typescript-sdk#943)
//     and server.policy.asyncInitialized (tachyonmcp/tachyon#11): booleans,
//     default false, omitted when false; no effect under 2026-07-28.
//   - client.policy.reinitializeOnNotFound (anthropics/claude-code#83404):
//     default true, stored only when false; with end-session.
//   - client.policy.timeouts: "required", "none" or "" (the default,
//     omitted): the client's timeout policy for tools/call. "required":
//     every call must carry an idle or a maximum timeout; "none" (the
//     broken client of anthropics/claude-code#69593): the engine drops
//     every idle and maximum timeout the scenario gives. Rule
//     request-has-timeout (package checks) passes every call that carries
//     a timeout, and fails a call with neither when the policy is stated
//     or a timeout is stated anywhere else (client.idleTimeoutMs or
//     maxTimeoutMs, or a call step's own: a client that knows timeouts
//     and left this call without one). Design decision: a
//     scenario that states no timeout at all and no policy, like most
//     built-in lessons, leaves timeouts out because its lesson is
//     elsewhere, not because its client has none, so the rule is not
//     listed there. A race step's connections are independent clients
//     (Scenario.Raced) and are not judged.
//   - explore {vary: [{path, from, to, byMs?}], maxRuns?}: the race
//     explorer's window (SCENARIO.md, Explore; package engine/explore reads
//     it). Each vary entry names an integer member by the path errors use
//     ("steps[2].at"; a member the document lacks is added, one it has must
//     be an integer, each path once) and its values from, from+byMs, ... to,
//     both ends included: from and to are 0..[MaxDurationMs] with from <=
//     to, byMs 1..[MaxDurationMs] (default 1). At most [MaxExploreDims] (4)
//     members vary; maxRuns is 1..1000000 ([MaxExploreRuns]), default
//     100000 ([DefaultExploreRuns]). Running ignores it and the normalized
//     form leaves it out (Scenario.Explore has no JSON name), so a scenario
//     gives the same trace with or without it; its share link differs, as
//     the link carries the document.
//   - server.handlers (SCENARIO.md, "Handlers: the server decides when
//     work ends"): an object keyed by tool name, "*" for any tool not
//     named, at most [MaxHandlers] (100) entries, each name 1..256
//     characters. Each [Handler] is the work a tools/call starts when its
//     request reaches the server (after latencyMs.up and any proxy), or,
//     when it holds a resource, when it gets it (waiting is not work):
//     workMs (required, 1..[MaxDurationMs]; 0 or less is the error
//     "server.handlers.crunch.workMs: must be >= 1"), progressEveryMs
//     (1..[MaxDurationMs], at most [MaxProduceCount] (1000) updates a
//     call: progress k at k x progressEveryMs ms of work for every k with
//     k x progressEveryMs < workMs, total n, only when the call carries a
//     progress token), checkpointEveryMs (0..[MaxDurationMs], default 0:
//     the handler notices a cancellation the moment it arrives; else at
//     every that many ms of work and always at the end, before the side
//     effect commits), result (an object, default {"content": []}) or
//     error {code (32-bit, required), message (<= [MaxTextLen])}, not
//     both, and holds (a resource name, 1..256 characters). A task call
//     (call.task) is the worker's, not a handler's. Omitted when absent.
//     Scripted complete, progress and fail steps still act on such a
//     call, for exact timing.
//   - server.resources: {"name": capacity}, capacity
//     1..[MaxResourceCapacity] (1000), at most [MaxHandlers] names; a
//     resource a handler holds and this leaves out has capacity 1.
//     Omitted when absent.
//   - server.policy.handlerIgnoresCancel, holdNotifications and
//     routeByIdOnly (booleans, default false, omitted when false) and
//     releaseOnCancel (default true, stored only when false): the server
//     switches of the third round, each documented on [ServerPolicy].
//   - client.policy.retry {on, max, delayMs, sameKey} (SCENARIO.md, "The
//     client decides when it gives up, retries and resumes";
//     [RetryPolicy]): on lists "timeout", "error", "disconnect" (default
//     all three, each at most once), max 1..[MaxRetries] (default 1),
//     delayMs 0..[MaxDurationMs] (default 100), sameKey (default true).
//     A call that ended for the client for a listed reason is re-sent
//     under the string id "<id>-r<n>" ([RetryID]). A step may name such an
//     id (n <= max) at or after the original call's time although no step
//     creates it: the decoder accepts it because the policy may; whether
//     the retry happens is the run's decision.
//   - client.policy.cancelOnAbandon and resumeDroppedCalls (nil = true,
//     stored only when false), awaitResponseAfterCancel,
//     cancelAfterFirstEvent, omitLastEventId and skipRefetch (default
//     false, omitted when false): the client's switches of the same
//     section, each reproducing the report its field's doc cites.
//   - herd.outageMs: 0..[MaxDurationMs], default 0 (omitted): the server
//     refuses every reconnect attempted before it.
//
// Steps:
//   - end-session {}: a server verb (2025-11-25 on streamable-http only,
//     else an error at steps[i].do) that retires the session; see
//     SCENARIO.md "Sessions (2025-11-25)" and package session.
//   - produce {id, everyMs, count, fromValue?, total?}: a server verb that
//     sends count progress values fromValue, fromValue+1, ... (fromValue
//     defaults to 0) for request id, one every everyMs virtual ms starting at
//     the step's at, each by the rules of a progress step. everyMs is
//     1..[MaxDurationMs], count 1..1000, and the last value must come by
//     [MaxDurationMs].
//   - send.from: who puts the raw message on the wire, "client" (default)
//     or "server". Unlike the other additions it is always written in the
//     normalized form ("from": "client"), as it has been since the first
//     release.
//   - call.annotations: a JSON object, the tool's annotations as the server
//     advertises them (readOnlyHint, idempotentHint, ...). They reach the
//     trace as requests[].hints: untrusted hints shown beside the retry
//     class, never used to decide it. Omitted when absent.
//   - race: connection i (from 0) of a race sends the request id [RaceID]
//     derives from call.id: the id itself, then id+i for an integer id or
//     "<id>-<i+1>" for a string id; every one must be unused.
//
// Details version 1 leaves open, as this package reads them (not
// additions): consumer is a top-level member, not a member of buffer;
// buffer.capacity defaults to 3 and buffer.policy to "evict-progress";
// listen.filter, notify.params and mutate-result.set default to {}; the
// result of complete and finish-task defaults to {"content": []}; fail's
// message is optional; drop.affected [] means the same as absent.
//
// Rules beyond version 1's rules for bad input, each a located error:
//   - proxy, buffer, consumer, server.keepaliveEveryMs and the disconnect
//     verb exist only on streamable-http;
//   - consumer needs buffer; race, reopen-ledger and mutate-result need
//     ledger (mutate-result edits a result the ledger returned);
//   - a member name appears once per object, at any depth, payloads
//     included ([ErrDuplicate]): encoding/json would silently keep the
//     last, and a reader of the document may see the first;
//   - herd.capMs must be >= herd.baseMs;
//   - a request id is used once across call, retry, listen and race, and a
//     task id once across calls;
//   - a step must not come before the step that creates the request or task
//     it names;
//   - notify.listen must name a listen stream, and notify.method must start
//     with "notifications/";
//   - buffer.capacity is 0 (unbounded, a broken setting) or >= 2.
//     (Version 1 calls capacity < 2 an error where its policy table allows
//     0; this package follows the table.)
//
// # Whole numbers
//
// Every integer field (times, counts, sizes, codes) takes a whole number
// however JSON writes it: 1000, 1e3 and 1000.0 are the same 1000
// ([WholeNumber], JSON Schema's "integer"); a number with a fraction
// (1.5, 1e-3) is an [ErrType] "must be an integer", and a whole number
// past a field's range, even past int64, names the bound it passed. The
// canonical form keeps the number as written (it sorts keys, it does not
// rewrite numbers), so 1e3 and 1000 are two share links for one run.
//
// # Limits
//
// Version 1 says "a size past the limits (steps, clients, virtual
// duration)" is an error and gives no numbers. Past any of these, [Decode]
// returns an [*Error] naming the field (wrapping [ErrLimit], or [ErrValue]
// below a minimum) before anything runs:
//   - [MaxBytes]: the scenario document is at most 1048576 bytes, and so is
//     the JSON a share link inflates to; a link's compressed data is at most
//     [ShareLimit], 262144 bytes (349525 base64url characters).
//   - [MaxDepth]: no JSON value nests deeper than 64 arrays and objects,
//     counting the document itself (call arguments get about 60 levels).
//     It is checked in one pass before anything is read, so the 9,990
//     levels encoding/json would accept cost microseconds to refuse.
//   - [MaxPayloadBytes]: each payload a step carries (arguments,
//     annotations, result, message, filter, params, set) is at most 65536
//     bytes, compacted.
//   - [MaxSteps]: at most 2000 steps.
//   - [MaxDurationMs]: every time (a step's at, timeouts, latencies,
//     intervals, a produce step's last value) is at most 86400000 virtual ms,
//     one virtual day.
//   - [MinKeepaliveMs]: server.keepaliveEveryMs is at least 50 ms.
//   - [MaxHerdDraws]: herd.clients x herd.maxAttempts is at most 1000000.
//   - [MaxHerdBuckets]: (herd.maxAttempts+1) x herd.capMs / herd.bucketMs is
//     at most 2000 histogram buckets.
//   - herd.clients is at most 100000, herd.maxAttempts at most 20,
//     herd.baseMs, herd.capMs and herd.bucketMs at most 60000,
//     herd.serverCapacityPerSecond at most 10000000.
//   - [MaxTextLen]: title, reasons and progress or fail messages are at most
//     4096 characters; notes at most 16384.
//   - Request ids, progress tokens, client.id, method, name, call.task and
//     taskId are at most 256 characters.
//   - drop.affected holds at most 1000 entries ([MaxAffected]),
//     produce.count at most 1000 ([MaxProduceCount]);
//     race.connections is 2..16; ledger.replicas 1..8; buffer.capacity at
//     most 100000; consumer.batch at most 100000; proxy.flushBytes at most
//     1073741824; fail.code is a 32-bit integer.
//
// The engine adds three run-time bounds on a valid scenario: a run that
// schedules more than engine.MaxActions (200,000) actions, emits more than
// engine.MaxEvents (100,000) events, or whose events carry, or whose
// trace JSON holds, more than engine.MaxTraceBytes (33,554,432) bytes
// stops with an *engine.BoundError ("the scenario is valid, but its run
// went past the engine's bound of 100,000 events (MaxEvents), ..."),
// never a partial trace.
//
// # Locations
//
// Every [*Error] from [Decode] carries its place in the input as fields
// (Offset, End, Line, Column), not only in its text: the value its path
// names or, for a missing member, the nearest ancestor the text has
// ([Locate]); a duplicate member's second name; the bracket that nests too
// deep; the byte where the syntax breaks. [Locate] finds any path in a
// document, and [Edit], [SetPath] and [DeletePath] edit a document by path,
// keeping every other byte.
package scenario
