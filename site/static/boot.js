// mcplab boot: runs in <head> before the first paint, on every page.
// ?embed=1 -> <html data-embed="1"> (minimal chrome for an iframe);
// ?theme=light|dark -> <html data-theme> (else prefers-color-scheme).
// app.css reads both; app.js posts the iframe's height to its parent.
// A page that runs the simulator names its wasm (<html data-wasm-src>,
// relative to the page): its download starts here, while the browser
// still reads the page, and app.js (deferred: it runs once the page is
// read, 150-250 ms later on a scenario page) compiles that response
// (mcplabWasmFetch: {url, response}, the absolute URL and fetch's
// promise) instead of asking again. The playground runs a scenario with
// a ledger on ledger.wasm (?ledger=1), as app.js decides too.
(() => {
  "use strict";
  const q = new URLSearchParams(location.search);
  const root = document.documentElement;
  if (q.get("embed") === "1") root.dataset.embed = "1";
  const theme = q.get("theme");
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  let src = root.dataset.wasmSrc;
  if (src && q.get("ledger") === "1") src = src.replace(/(^|\/)playground\.wasm$/, "$1ledger.wasm");
  if (src && typeof fetch === "function") {
    const url = new URL(src, location.href).href;
    const response = fetch(url);
    response.catch(() => {}); // app.js reports a failure, once it runs
    globalThis.mcplabWasmFetch = { url, response };
  }
})();
