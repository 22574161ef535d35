// mcplab engine worker: runs the page's simulator (the same compiled
// main.wasm, playground.wasm, ledger.wasm or import.wasm the page loaded, handed over as a
// WebAssembly.Module, so nothing is downloaded twice) off the main thread.
// app.js's bridge (mcplabEngine) sends it one request at a time:
//
//   {module, sqlite}
//                  once, first: instantiate it and start the Go program,
//                  which sets self.mcplabServe (wasm/api.go); with sqlite
//                  (ledger.wasm) also load the browser's SQLite
//                  (sqlite.js and sqlite3.wasm, SQLite's own WebAssembly
//                  build, as self.mcplabSQLite: wasm/ledgerdb.go), at the
//                  same time; then answer {ready: true};
//   {id, req}      a request: answered {id, reply: mcplabServe(req)}.
//
// A run that takes longer than its budget is not interrupted here: the page
// terminates this worker and starts another. It holds no simulation logic.
"use strict";
importScripts("wasm_exec.js");

let serve = null;
self.onmessage = (e) => {
  const msg = e.data;
  if (msg.module) {
    const go = new Go();
    const sqlite = msg.sqlite
      ? new Promise((resolve) => {
          importScripts("sqlite.js");
          resolve(self.mcplabSQLiteInit(new URL("sqlite3.wasm", self.location).href));
        }).then(
          (api) => { self.mcplabSQLite = api; },
          (err) => { throw new Error("SQLite did not load: " + String((err && err.message) || err)); },
        )
      : Promise.resolve();
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
  if (!serve) {
    self.postMessage({ id: msg.id, reply: { error: "the simulator is not ready" } });
    return;
  }
  let reply;
  try {
    reply = serve(msg.req);
  } catch (err) {
    reply = { error: "internal error: " + String((err && err.message) || err) };
  }
  self.postMessage({ id: msg.id, reply });
};
