// mcplab share buttons of a page without the simulator (the index; scenario
// pages, the playground and the import page have theirs in the wasm).
// "Copy link" copies the page's address. "Copy embed" copies an iframe
// snippet of the page with ?embed=1: the page carries the snippet
// (templates.NewEmbed, in data-embed, with the address left as {src}) and
// this puts the address in, escaped as NewEmbed escapes it. Where the
// clipboard is refused it shows the text to copy by hand. Without
// JavaScript the buttons stay disabled. Once they work it sets
// <html data-ready="1">, the signal the wasm sets on every other page
// (app.js), so tooling waits for the index the same way.
(() => {
  "use strict";
  const status = document.getElementById("page-share-status");
  const say = (text) => { if (status) status.textContent = text; };
  const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&#34;").replace(/'/g, "&#39;");
  const copy = (text) => {
    const manual = () => say("Copy this by hand: " + text);
    if (!navigator.clipboard) return manual();
    navigator.clipboard.writeText(text).then(() => say("Copied."), manual);
  };
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.addEventListener("click", () => {
      const page = new URL(location.href);
      page.hash = "";
      if (button.dataset.copy === "link") return copy(page.href);
      page.searchParams.set("embed", "1");
      copy(button.dataset.embed.replace("{src}", escape(page.href)));
    });
    button.disabled = false;
  }
  document.documentElement.dataset.ready = "1";
})();
