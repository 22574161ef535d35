// mcplab boot: runs in <head> before the first paint, on every page.
// ?embed=1 -> <html data-embed="1"> (minimal chrome for an iframe);
// ?theme=light|dark -> <html data-theme> (else prefers-color-scheme).
// app.css reads both; app.js posts the iframe's height to its parent.
(() => {
  "use strict";
  const q = new URLSearchParams(location.search);
  const root = document.documentElement;
  if (q.get("embed") === "1") root.dataset.embed = "1";
  const theme = q.get("theme");
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
})();
