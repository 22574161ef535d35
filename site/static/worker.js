// mcplab engine worker: runs the page's simulator (the same compiled
// main.wasm, playground.wasm, ledger.wasm or import.wasm the page loaded, handed over as a
// WebAssembly.Module, so nothing is downloaded twice) off the main thread.
// app.js's bridge (mcplabEngine) sends it one request at a time:
//
//   {sqlite}       (ledger.wasm) load the browser's SQLite (sqlite.js and
//                  sqlite3.wasm, SQLite's own WebAssembly build, as
//                  self.mcplabSQLite: wasm/jsledger/jsledger.go); the page sends
//                  it before its compile of the module is done;
//   {module}       once: instantiate it and start the Go program, which
//                  sets self.mcplabServe (wasm/bridge/bridge.go), and answer
//                  {ready: true} once SQLite too is loaded, if asked
//                  ({module, sqlite} in one message does both); with
//                  warm (a scenario page's first request, made early:
//                  first, below) it runs that at once;
//   {warmed}       it posts once it has warmed a scenario page's run up
//                  (below): {runs, ms};
//   {id, req}      a request: answered {id, reply: mcplabServe(req)},
//                  and when that reply says more: true (a scenario page's
//                  run: the picture first), by a second message
//                  {id, reply: mcplabServeMore()} (the tables) once the
//                  page has drawn the first (later, below). A reply is
//                  posted as the object whose JSON wasm/bridge/bridge.go's toWire
//                  encodes ({bytes, more, error}, read here by unwire), or
//                  {error} when this script itself cannot serve;
//   {more: id}     the page drew the first step of request id: make the
//                  second now.
//
// Between requests it collects the Go heap (mcplabCollect), so that a run
// seldom pays for a collection, and warms a scenario page's run
// up (below).
//
// A run that takes longer than its budget is not interrupted here: the page
// terminates this worker and starts another. It holds no simulation logic.
"use strict";
importScripts("wasm_exec.js");
// The fast text codecs of the site's wasm_exec.js (site/internal/build/wasmexec.go), for
// everything in this worker: SQLite's module converts each statement's
// parameters and results with them. They give what the browser's own
// give, sooner for short ASCII text.
if (self.mcplabFastText) {
  self.TextDecoder = self.mcplabFastText.TextDecoder;
  self.TextEncoder = self.mcplabFastText.TextEncoder;
}

let serve = null;
let sqlite = Promise.resolve(); // the browser's SQLite loading, when asked
self.onmessage = (e) => {
  const msg = e.data;
  if (msg.sqlite && !self.mcplabSQLiteInit) {
    const url = new URL("sqlite3.wasm", self.location);
    sqlite = new Promise((resolve) => {
      importScripts("sqlite.js");
      resolve(self.mcplabSQLiteInit(url.href));
    }).then(
      (api) => { self.mcplabSQLite = api; },
      (err) => {
        // In words, not Emscripten's "Aborted(...). Build with -sASSERTIONS
        // ...": the HTTP status when fetching sqlite3.wasm failed.
        const why = String((err && err.message) || err).replace(/^Aborted\((.*)\)\.?(\s*Build with -sASSERTIONS.*)?$/s, "$1");
        return fetch(url, { method: "HEAD", cache: "no-store" }).then(
          (r) => { throw new Error(r.ok ? "SQLite did not start: " + why : "fetching " + url.pathname + ": HTTP " + r.status); },
          () => { throw new Error("fetching " + url.pathname + " failed (no answer)"); },
        );
      },
    );
    // Its failure is reported when the module starts (below); until then
    // it is not an unhandled rejection.
    sqlite.catch(() => {});
  }
  if (msg.module) {
    const go = new Go();
    Promise.all([WebAssembly.instantiate(msg.module, go.importObject), sqlite])
      .then(([instance]) => {
        // run() returns once main reaches its select{}: mcplabServe is set.
        go.run(instance).then(() => self.postMessage({ fatal: "the simulator stopped" }));
        serve = self.mcplabServe;
        self.postMessage(serve ? { ready: true } : { fatal: "the simulator did not start" });
        if (serve && msg.warm) first.run(msg.warm);
      })
      .catch((err) => self.postMessage({ fatal: String((err && err.message) || err) }));
    return;
  }
  if (msg.more !== undefined) {
    later.run(msg.more); // the page drew the first step of request msg.more
    return;
  }
  if (!msg.req) return; // {sqlite} alone: the module follows
  if (!serve) {
    self.postMessage({ id: msg.id, reply: { error: "the simulator is not ready" } });
    return;
  }
  clearTimeout(warming.timer);
  later.run(); // (the page waits for a second step before it asks again)
  const post = (reply) => self.postMessage({ id: msg.id, reply: unwire(reply) });
  const reply = first.answer(msg.req, post) || answer(msg.req, post, msg.id);
  if (later.step) later.step.after = () => warming.after(msg.req, reply);
  else warming.after(msg.req, reply);
};

// later is a request's second step (its tables), held until the page has
// drawn the first ({more: id}, which app.js sends after the next frame)
// or holdMs have passed (a hidden page draws no frames). Made at once, it
// ran on the second of two cores while the page patched, laid out and
// painted the first, and the browser's own threads waited for a core: a
// ledger page's warm change to its frame took a median 20.9 ms, and 15.7
// ms held (five runs each, alternating, load average 2.3-3.7; the
// budget is 16 ms).
const holdMs = 100;
const later = {
  step: null, // {id, post, timer, after}: the step held, and what follows it
  hold(id, post) {
    this.step = { id, post, timer: setTimeout(() => this.run(), holdMs), after: null };
  },
  // run makes the step held now (for request id, when given).
  run(id) {
    const step = this.step;
    if (!step || (id !== undefined && id !== step.id)) return;
    this.step = null;
    clearTimeout(step.timer);
    step.post(safely(() => self.mcplabServeMore()));
    if (step.after) step.after();
  },
};

// first is a scenario page's first run, made before the page asks for
// it: app.js sends the request the page is about to make with the module
// ({module, warm}), and the worker runs it as soon as it has started,
// while the page's own copy of the simulator starts (which takes a few
// hundred ms), and keeps the replies. The page's first request, if it is
// that one (same page, same scenario text, nothing else), is answered
// with them; any other request drops them. The engine is deterministic,
// so the kept replies are the ones a run now would give.
// unwire reads a reply as the simulator puts it on the wire (wasm/api.go's
// toWire: {bytes, more, error}, the reply as JSON in UTF-8) into the
// object the page uses, here: the page's thread then only copies its
// strings out of the message, where decoding and parsing the import
// page's window of 250 events (about 1.5 MB of JSON) took it 10-20 ms of
// its 50 ms a task. This script's own replies ({error}) are
// plain objects already.
const utf8 = new TextDecoder();
const unwire = (reply) => {
  if (!reply || !(reply.bytes instanceof Uint8Array)) return reply;
  try {
    const r = JSON.parse(utf8.decode(reply.bytes));
    if (reply.more) r.more = true;
    else delete r.more;
    return r;
  } catch (err) {
    return { error: "internal error: the simulator's reply is not JSON: " + String((err && err.message) || err), worker: true };
  }
};

const first = {
  key: "",
  replies: null,
  run(req) {
    const replies = [];
    answer(req, (reply) => replies.push(reply));
    if (replies.length > 0 && !replies[0].error) {
      this.key = keyOf(req);
      this.replies = replies;
    }
  },
  // answer posts the kept replies if req is the request they answer, and
  // returns the first of them (null otherwise, and from now on).
  answer(req, post) {
    const replies = this.replies;
    const hit = replies !== null && keyOf(req) === this.key;
    this.key = "";
    this.replies = null;
    if (!hit) return null;
    for (const reply of replies) post(reply);
    return replies[0];
  },
};

// keyOf is a request's fields in one string, whatever their order (the
// page's Go builds its requests from maps).
const keyOf = (req) => JSON.stringify(Object.keys(req).sort().map((k) => [k, req[k]]));

// answer serves req, posting each step's reply (post) as soon as it is
// made, and returns the first; with id (a page's request), a second step
// waits for the page (later). A throw (a bug in the glue) is an error
// reply.
const answer = (req, post, id) => {
  const first = safely(() => serve(req));
  post(first);
  if (first && first.more) {
    if (id !== undefined) later.hold(id, post);
    else post(safely(() => self.mcplabServeMore()));
  }
  return first;
};

// safely is fn's result, or an error reply when it throws.
const safely = (fn) => {
  try {
    return fn();
  } catch (err) {
    return { error: "internal error: " + String((err && err.message) || err) };
  }
};

// Warming up. V8 compiles WebAssembly with its baseline compiler first and
// optimizes a function only once it has run enough (dynamic tiering): a
// page's first few dozen runs of the simulator are 3-10x slower than the
// later ones (a lesson page must answer a control change within
// a frame once warm). So while the worker is idle after answering a
// scenario page (not the playground, where each keystroke asks anyway), it
// repeats that request, both its steps, discarding the answers, one run
// per task so a real request waits behind one run at most: up to
// warming.runs runs, warming.budgetMs of time in all, and none after a run
// that took longer than warming.maxRunMs (a heavy scenario warms up by
// itself), except the first warming.coldRuns, which still run baseline
// code and compile what they touch (the first run of a ledger page in
// the worker takes 0.4-1 s, its second and third can take over 150 ms on
// a busy machine). The requests it repeats are pure (a run and its HTML);
// nothing else is repeated.
//
// Once it has nothing to warm, it collects the heap (collect), one task
// after the last reply, unless a request came first.
const warming = {
  runs: 60,
  budgetMs: 1500,
  maxRunMs: 150,
  coldRuns: 3,
  told: false,
  done: 0,
  spentMs: 0,
  req: null,
  timer: 0,
  after(req, reply) {
    const page = req && req.page;
    // A page's first run of its own scenario renders nothing (adopt:
    // wasm/worker/lab.go): the warm-up renders, as every change will.
    if (page === "lab" && reply && !reply.error) this.req = { page, text: req.text };
    this.schedule();
  },
  schedule() {
    if (this.req && this.done < this.runs && this.spentMs < this.budgetMs) {
      this.timer = setTimeout(() => this.step(), 0);
      return;
    }
    if (this.req && !this.told) {
      // The page's bridge records it (mcplabEngine.warmed), for make
      // bench's "once warm".
      this.told = true;
      self.postMessage({ warmed: { runs: this.done, ms: Math.round(this.spentMs) } });
    }
    this.timer = setTimeout(collect, 0);
  },
  step() {
    const t0 = performance.now();
    let failed = false;
    answer(this.req, (reply) => { failed = failed || !reply || !!reply.error; });
    const ms = performance.now() - t0;
    this.spentMs += ms;
    this.done++;
    if (failed || (ms > this.maxRunMs && this.done > this.coldRuns)) this.done = this.runs;
    this.schedule();
  },
};

// collect runs a garbage collection of the Go heap (wasm/api.go's
// mcplabCollect): between requests, where it costs no one a frame.
const collect = () => {
  if (self.mcplabCollect) self.mcplabCollect();
};
