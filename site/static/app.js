// mcplab page loader. On a scenario page (one with #lab) it starts the
// simulator: the Go engine and templates compiled to WebAssembly
// (wasm/main.go), which wires the controls, re-runs the scenario on every
// change and sets <html data-ready="1"> after its first render. This file
// only loads it and reports a failure; it holds no logic of its own.
(() => {
  "use strict";
  const lab = document.getElementById("lab");
  if (!lab) return;
  const status = document.getElementById("lab-status");
  const say = (text, state) => {
    if (!status) return;
    status.textContent = text;
    status.dataset.state = state;
  };
  const fail = (err) => {
    const why = (err && err.message) || String(err);
    say("The simulator could not start (" + why + "). The run shown is the prerendered one; reload to try again.", "error");
    document.documentElement.dataset.ready = "error";
    console.error("mcplab: the simulator could not start:", err);
  };
  if (typeof WebAssembly !== "object" || typeof Go !== "function") {
    fail(new Error("this browser cannot run WebAssembly, or wasm_exec.js did not load"));
    return;
  }
  say("Loading the simulator…", "loading");
  // Relative to this script (the site root), so the site works under any
  // subpath; #lab names the binary (ledger.wasm for pages with a ledger).
  const script = document.currentScript;
  const wasmURL = new URL(lab.dataset.wasm || "main.wasm", script ? script.src : document.baseURI);
  const go = new Go();
  fetch(wasmURL)
    .then((resp) => {
      if (!resp.ok) throw new Error("fetching " + wasmURL.pathname + ": HTTP " + resp.status);
      return WebAssembly.instantiateStreaming
        ? WebAssembly.instantiateStreaming(resp, go.importObject)
        : resp.arrayBuffer().then((b) => WebAssembly.instantiate(b, go.importObject));
    })
    .then(({ instance }) => go.run(instance))
    .then(() => fail(new Error("the simulator stopped")))
    .catch(fail);
})();
