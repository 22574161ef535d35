// mcplab page loader. On a page with a simulator ([data-wasm]: a scenario
// page, the playground, the import page) it starts the Go engine and
// templates compiled to WebAssembly (wasm/main.go), which wires the page and
// sets <html data-ready="1"> after its first render. In an iframe
// (?embed=1) it tells the parent when the lab is ready and how tall it is.
// It also gives the wasm mcplabMorph, which patches a re-rendered block of
// the page in place. It holds no simulation logic of its own.
(() => {
  "use strict";
  const root = document.documentElement;

  // Embedded: post {type: "mcplab:ready"} once, and {type:
  // "mcplab:height", height} whenever the page's height changes. Only the
  // height leaves the frame; the host page's snippet sizes the iframe.
  // Messages go to the parent's origin when the frame can know it
  // (location.ancestorOrigins, else the referrer, which the embed snippets'
  // referrerpolicy="strict-origin" provides, else a same-origin parent),
  // and to "*" only when it cannot: then only a height is told to a parent
  // the frame cannot name.
  if (root.dataset.embed && window.parent !== window) {
    const parentOrigin = (() => {
      const a = location.ancestorOrigins;
      if (a && a.length > 0 && a[0] !== "null") return a[0];
      try {
        const r = new URL(document.referrer).origin;
        // The frame's own origin may be a navigation inside the frame.
        if (r !== "null" && r !== location.origin) return r;
      } catch (e) { /* no referrer */ }
      try { return window.parent.location.origin; } catch (e) { return "*"; }
    })();
    const post = (msg) => window.parent.postMessage(msg, parentOrigin);
    // The observer reports sizes the frame's layout already computed, so
    // nothing here makes the browser lay out again after a re-render.
    let last = 0;
    new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].borderBoxSize;
      const h = Math.ceil(box && box[0] ? box[0].blockSize : root.getBoundingClientRect().height);
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

  // mcplabMorph(el, html) makes element el match html (one element) in
  // place, for the wasm's re-render (wasm/output.go): nodes and attributes
  // that did not change are kept, so the browser restyles and lays out only
  // what changed, and focus, scroll positions and open <details> survive.
  // Children are matched by position; a node of another kind is replaced.
  globalThis.mcplabMorph = (el, html) => {
    const t = document.createElement("template");
    t.innerHTML = html;
    const next = t.content.firstElementChild;
    if (next) morph(el, next);
  };
  const morph = (a, b) => {
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) {
      a.replaceWith(b);
      return;
    }
    if (a.nodeType !== 1) {
      if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
      return;
    }
    if (a.isEqualNode(b)) return;
    for (const { name, value } of b.attributes) {
      if (a.getAttribute(name) !== value) a.setAttribute(name, value);
    }
    for (let i = a.attributes.length - 1; i >= 0; i--) {
      const { name } = a.attributes[i];
      if (!b.hasAttribute(name) && !(name === "open" && a.nodeName === "DETAILS")) a.removeAttribute(name);
    }
    let x = a.firstChild;
    for (let y = b.firstChild; y; ) {
      const ny = y.nextSibling;
      if (x) {
        const nx = x.nextSibling;
        morph(x, y);
        x = nx;
      } else a.appendChild(y);
      y = ny;
    }
    while (x) {
      const nx = x.nextSibling;
      x.remove();
      x = nx;
    }
  };

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
