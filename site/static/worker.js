// mcplab engine worker: runs the page's simulator (the same compiled
// main.wasm, playground.wasm, ledger.wasm or import.wasm the page loaded, handed over as a
// WebAssembly.Module, so nothing is downloaded twice) off the main thread.
// app.js's bridge (mcplabEngine) sends it one request at a time:
//
//   {sqlite}       (ledger.wasm) load the browser's SQLite (sqlite.js and
//                  sqlite3.wasm, SQLite's own WebAssembly build, as
//                  self.mcplabSQLite: wasm/ledgerdb.go); the page sends
//                  it before its compile of the module is done;
//   {module}       once: instantiate it and start the Go program, which
//                  sets self.mcplabServe (wasm/api.go), and answer
//                  {ready: true} once SQLite too is loaded, if asked
//                  ({module, sqlite} in one message does both);
//   {id, req}      a request: answered {id, reply: mcplabServe(req)}.
//
// A run that takes longer than its budget is not interrupted here: the page
// terminates this worker and starts another. It holds no simulation logic.
"use strict";
importScripts("wasm_exec.js");

let serve = null;
let sqlite = Promise.resolve(); // the browser's SQLite loading, when asked
self.onmessage = (e) => {
  const msg = e.data;
  if (msg.sqlite && !self.mcplabSQLiteInit) {
    sqlite = new Promise((resolve) => {
      importScripts("sqlite.js");
      resolve(self.mcplabSQLiteInit(new URL("sqlite3.wasm", self.location).href));
    }).then(
      (api) => { self.mcplabSQLite = api; },
      (err) => { throw new Error("SQLite did not load: " + String((err && err.message) || err)); },
    );
  }
  if (msg.module) {
    const go = new Go();
    Promise.all([WebAssembly.instantiate(msg.module, go.importObject), sqlite])
      .then(([instance]) => {
        // run() returns once main reaches its select{}: mcplabServe is set.
        go.run(instance).then(() => self.postMessage({ fatal: "the simulator stopped" }));
        serve = self.mcplabServe;
        self.postMessage(serve ? { ready: true } : { fatal: "the simulator did not start" });
      })
      .catch((err) => self.postMessage({ fatal: String((err && err.message) || err) }));
    return;
  }
  if (!msg.req) return; // {sqlite} alone: the module follows
  if (!serve) {
    self.postMessage({ id: msg.id, reply: { error: "the simulator is not ready" } });
    return;
  }
  clearTimeout(warming.timer);
  let reply;
  try {
    reply = serve(msg.req);
  } catch (err) {
    reply = { error: "internal error: " + String((err && err.message) || err) };
  }
  self.postMessage({ id: msg.id, reply });
  warming.after(msg.req, reply);
};

// Warming up. V8 compiles WebAssembly with its baseline compiler first and
// optimizes a function only once it has run enough (dynamic tiering): a
// page's first few dozen runs of the simulator are 3-10x slower than the
// later ones (issue 11: a lesson page must answer a control change within
// a frame once warm). So while the worker is idle after answering a
// scenario page (not the playground, where each keystroke asks anyway), it
// repeats that request, discarding the answer, one run per task so a real
// request waits behind one run at most: up to warming.runs runs, warming.budgetMs of time in all, and
// never a run that took longer than warming.maxRunMs (a heavy scenario
// warms up by itself). The requests it repeats are pure (a run and its
// HTML); nothing else is repeated.
const warming = {
  runs: 50,
  budgetMs: 1000,
  maxRunMs: 150,
  done: 0,
  spentMs: 0,
  req: null,
  timer: 0,
  after(req, reply) {
    const page = req && req.page;
    if (page !== "lab" || !reply || reply.error) return;
    this.req = req;
    this.schedule();
  },
  schedule() {
    if (this.done < this.runs && this.spentMs < this.budgetMs) this.timer = setTimeout(() => this.step(), 0);
  },
  step() {
    const t0 = performance.now();
    try {
      serve(this.req);
    } catch {
      this.done = this.runs;
      return;
    }
    const ms = performance.now() - t0;
    this.spentMs += ms;
    this.done++;
    if (ms > this.maxRunMs) this.done = this.runs;
    this.schedule();
  },
};
