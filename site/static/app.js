// mcplab page loader. On a page with a simulator ([data-wasm]: a scenario
// page, the playground, the import page) it starts the Go engine and
// templates compiled to WebAssembly (wasm/main.go), which wires the page and
// sets <html data-ready="1"> after its first render. In an iframe
// (?embed=1) it tells the parent when the lab is ready and how tall it is.
// It holds no simulation logic of its own.
(() => {
  "use strict";
  const root = document.documentElement;

  // Embedded: post {type: "mcplab:ready"} once, and {type:
  // "mcplab:height", height} whenever the page's height changes. Only the
  // height leaves the frame; the host page's snippet sizes the iframe.
  if (root.dataset.embed && window.parent !== window) {
    const post = (msg) => window.parent.postMessage(msg, "*");
    let last = 0;
    new ResizeObserver(() => {
      const h = Math.ceil(root.getBoundingClientRect().height);
      if (h !== last) post({ type: "mcplab:height", height: (last = h) });
    }).observe(root);
    const ready = () => {
      if (root.dataset.ready !== "1") return false;
      post({ type: "mcplab:ready" });
      return true;
    };
    if (!ready()) {
      const mo = new MutationObserver(() => ready() && mo.disconnect());
      mo.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
    }
  }

  const lab = document.querySelector("[data-wasm]");
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
    root.dataset.ready = "error";
    console.error("mcplab: the simulator could not start:", err);
  };
  if (typeof WebAssembly !== "object" || typeof Go !== "function") {
    fail(new Error("this browser cannot run WebAssembly, or wasm_exec.js did not load"));
    return;
  }
  say("Loading the simulator…", "loading");
  // Relative to this script (the site root), so the site works under any
  // subpath. [data-wasm] names the binary; the playground asks for the
  // SQLite build (ledger.wasm) with ?ledger=1 when a scenario has a ledger.
  const script = document.currentScript;
  let file = lab.dataset.wasm || "main.wasm";
  if (lab.id === "playground" && new URLSearchParams(location.search).get("ledger") === "1") file = "ledger.wasm";
  const wasmURL = new URL(file, script ? script.src : document.baseURI);
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
