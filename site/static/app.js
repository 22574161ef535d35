// mcplab page loader. On a page with a simulator ([data-wasm]: a scenario
// page, the playground, the import page) it compiles the Go engine and
// templates built for WebAssembly (wasm/) once, runs it on the page, where
// it wires the controls and patches the DOM (wasm/page and its page
// controllers), and hands the same compiled module to a Web Worker
// (worker.js), where every run and render happens (wasm/bridge/bridge.go), so the
// page never freezes. The wasm sets <html data-ready="1"> after its first
// render. In an iframe (?embed=1) it tells the parent when the lab is ready
// and how tall it is. It also gives the wasm mcplabMorph, which patches a
// re-rendered block of the page in place, and mcplabEngine, the bridge to
// the worker. It holds no simulation logic of its own.
(() => {
  "use strict";
  const root = document.documentElement;

  // The time cursor: the range input under the timeline steps
  // through the run in thousandths of its end time; at time t, what had
  // not happened yet fades (arrows sent, marks after t), messages sent but
  // not yet arrived show dashed, and the output says how many messages had
  // been sent and had arrived, how many a buffering proxy held, and each
  // request's state and next deadline (requestsAt); Play walks the run.
  // It reads only the data- attributes the
  // templates write (data-sent-at, data-at, data-end-ms); at the right end
  // the full timeline shows. Re-rendered timelines get the cursor again.
  const cursorApply = () => {
    const input = document.getElementById("time-cursor");
    if (!input) return;
    const out = document.getElementById("time-cursor-out");
    const frac = Number(input.value) / Number(input.max || 1000);
    const atEnd = frac >= 1;
    for (const svg of document.querySelectorAll("svg.timeline")) {
      const end = Number(svg.dataset.endMs) || 0, dom = Number(svg.dataset.domainMs) || 1;
      const left = Number(svg.dataset.plotLeft) || 0, right = Number(svg.dataset.plotRight) || 0;
      const t = Math.round(frac * end);
      let sent = 0, arrived = 0, total = 0;
      const future = new Set();
      for (const a of svg.querySelectorAll('[data-type="wire"]')) {
        const s = Number(a.dataset.sentAt), d = Number(a.dataset.at);
        total++;
        if (s <= t) sent++;
        if (s <= t && d <= t) arrived++;
        a.classList.toggle("future", !atEnd && s > t);
        a.classList.toggle("in-flight", !atEnd && s <= t && d > t);
        if (!atEnd && s > t) future.add(a.dataset.wire);
      }
      for (const l of svg.querySelectorAll(".arrow-label[data-wire]")) l.classList.toggle("future", future.has(l.dataset.wire));
      for (const m of svg.querySelectorAll('.marks [data-at], .violation-flag[data-at]')) m.classList.toggle("future", !atEnd && Number(m.dataset.at) > t);
      svg.classList.toggle("cursor-on", !atEnd);
      const line = svg.querySelector(".cursor-line");
      if (line) {
        const x = String(Math.round((left + (t * (right - left)) / dom) * 10) / 10);
        line.setAttribute("x1", x);
        line.setAttribute("x2", x);
      }
      if (svg.id === "timeline" && out) {
        const text = (atEnd ? "the whole run: " + total + " messages" : "at " + t + " ms: " + sent + " of " + total + " messages sent, " + arrived + " arrived") + bufferAt(svg, t, atEnd);
        if (out.textContent !== text) out.textContent = text; // a change only: the observer below sees text changes
        requestsAt(svg, atEnd ? Infinity : t);
      }
    }
  };

  // bufferAt says how many messages a buffering proxy holds at time t:
  // the hold marks at or before t since the last flush, which forwards
  // all it held; nothing where the run has no hold mark, or at the end.
  const bufferAt = (svg, t, atEnd) => {
    const marks = [...svg.querySelectorAll('.marks [data-glyph="hold"], .marks [data-glyph="flush"]')];
    if (atEnd || marks.length === 0) return "";
    let depth = 0;
    for (const m of marks.sort((a, b) => Number(a.dataset.seq) - Number(b.dataset.seq))) {
      if (Number(m.dataset.at) <= t) depth = m.dataset.glyph === "hold" ? depth + 1 : 0;
    }
    return "; the proxy holds " + depth + (depth === 1 ? " message" : " messages");
  };

  // requestsAt lists, under the cursor, each request's state at time t as
  // each side saw it, and its next deadline. The engine decided the
  // states (trace requests[].clientStates, serverStates); the timeline
  // carries them as [[at, words]...] (data-client-states,
  // data-server-states) and this only finds the one holding t: before a
  // request's first state it is "not sent yet". A pending request's next
  // deadlines are the expiry of the idle window holding t and the
  // maximum deadline (data-expiry, data-max-at), in ms from t.
  const stateAt = (json, t, before) => {
    let s = before;
    for (const [at, words] of JSON.parse(json || "[]")) if (at <= t) s = words;
    return s;
  };
  const requestsAt = (svg, t) => {
    const list = document.getElementById("time-cursor-requests");
    if (!list) return;
    const items = [];
    for (const req of svg.querySelectorAll(".request-states [data-request-id]")) {
      const id = req.dataset.requestId;
      const client = stateAt(req.dataset.clientStates, t, "not sent yet"), server = stateAt(req.dataset.serverStates, t, "");
      let next = "";
      const d = svg.querySelector('.deadline[data-deadline-id="' + CSS.escape(id) + '"]');
      if (d && client === "pending" && t !== Infinity) {
        const parts = [];
        for (const w of d.querySelectorAll(".idle-window")) {
          if (Number(w.dataset.from) <= t && t < Number(w.dataset.until)) parts.push("idle in " + (Number(w.dataset.expiry) - t) + " ms");
        }
        const max = d.querySelector(".max[data-max-at]");
        if (max && Number(max.dataset.maxAt) > t) parts.push("max in " + (Number(max.dataset.maxAt) - t) + " ms");
        if (parts.length) next = "; next deadline: " + parts.join(", ");
      }
      items.push("request " + id + ": client " + client + (server ? ", server " + server : "") + next);
    }
    const text = items.join("\n");
    if (list.dataset.text === text) return; // a change only, as above
    list.dataset.text = text;
    list.replaceChildren(...items.map((s) => Object.assign(document.createElement("li"), { textContent: s })));
  };

  // Play advances the cursor through the run in playMs, one frame at a
  // time (requestAnimationFrame), and stops at the end; with reduced
  // motion it steps a tenth of the run every stepMs instead. Moving the
  // range by hand, or the button again, pauses it.
  const playMs = 8000, stepMs = 700;
  let playing = 0;
  const setPlaying = (on) => {
    playing = on ? playing + 1 : 0;
    const b = document.getElementById("time-cursor-play");
    if (b) { b.textContent = on ? "Pause" : "Play"; b.setAttribute("aria-pressed", on ? "true" : "false"); }
  };
  const play = () => {
    const input = document.getElementById("time-cursor");
    if (!input) return;
    const max = Number(input.max || 1000);
    if (Number(input.value) >= max) input.value = "0";
    setPlaying(true);
    const run = playing, reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
    let prev = performance.now();
    const tick = (now) => {
      if (playing !== run || !input.isConnected) return;
      const step = reduced ? max / 10 : ((now - prev) * max) / playMs;
      prev = now;
      input.value = String(Math.min(max, Number(input.value) + Math.max(step, Number(input.step) || 1)));
      cursorApply();
      if (Number(input.value) >= max) return setPlaying(false);
      if (reduced) setTimeout(() => tick(performance.now()), stepMs);
      else requestAnimationFrame(tick);
    };
    if (reduced) tick(prev); else requestAnimationFrame(tick);
  };
  document.addEventListener("click", (ev) => {
    if (!ev.target || ev.target.id !== "time-cursor-play") return;
    if (playing) setPlaying(false); else play();
  });
  document.addEventListener("input", (ev) => {
    if (ev.target && ev.target.id === "time-cursor") { setPlaying(false); cursorApply(); }
  });
  let cursorQueued = false;
  new MutationObserver(() => {
    const input = document.getElementById("time-cursor");
    if (cursorQueued || !input || Number(input.value) >= Number(input.max || 1000)) return;
    cursorQueued = true;
    requestAnimationFrame(() => { cursorQueued = false; cursorApply(); });
  }).observe(root, { childList: true, subtree: true });

  // Embedded: a link that leaves the page (the review page, mcplab's own
  // pages, a cited issue) opens a new tab, target="_blank" rel="noopener",
  // as "Open in mcplab ↗" does, never inside the lesson's frame; a link
  // within the page (#event-…) stays. Links the wasm writes or re-points
  // later (the review link once edited) are marked as they are clicked.
  if (root.dataset.embed) {
    const outward = (a) => {
      const u = new URL(a.getAttribute("href"), location.href);
      if (u.origin === location.origin && u.pathname === location.pathname && u.search === location.search) return;
      a.target = "_blank";
      a.rel = "noopener";
    };
    document.querySelectorAll("a[href]").forEach(outward);
    document.addEventListener("click", (e) => {
      const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (a) outward(a);
    }, true);
  }

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

  // mcplabMorph(el, html) makes element el match html (one element, a
  // string, or an object whose html is one: a part of the worker's reply,
  // which so reaches the DOM without a copy through Go) in place, for the wasm's re-render (wasm/output.go): nodes and attributes
  // that did not change are kept, so the browser restyles and lays out only
  // what changed, and focus, scroll positions and open <details> survive.
  // Children are matched by position; a node of another kind is replaced.
  //
  // A small block is patched at once. A large one (more than parseChars
  // of HTML: the import page's window of 250 events is about 530 KB,
  // 7,400 elements) never holds the main thread for long (50 ms): it
  // is parsed parseChars at a time, one step per task, in an inert
  // document (no script runs, nothing loads), and then patched a slice at
  // a time, one slice per animation frame: at most sliceMs of script and
  // sliceNodes nodes changed or added, so each frame restyles, lays out
  // and repaints only the part the slice changed. A new subtree (a table
  // the page did not show yet) is added one element at a time, each as an
  // empty copy whose children follow, never whole: inserted whole, the
  // import page's 7,000 new elements were laid out in one frame of over
  // 100 ms of CPU. The block shows the old picture until the
  // parse ends and then changes over a few frames. A
  // later call for an element drops the work pending inside it (the new
  // patch compares against whatever is on screen, so a half-patched block
  // is finished by it). mcplabMorph.busy is true while work is left.
  const parseChars = 32768;
  const sliceMs = 5;
  const sliceNodes = 250;
  let parsing = []; // {el, html, at, doc}: large blocks being parsed
  let patching = []; // {el, pairs}: large blocks being patched, pairs [[live, next], ...] to do (last first)
  let stepping = false;
  // The worker draws a check line's rule link from the site root
  // ("/rules/ID/"), not knowing where the page sits; the prerendered page
  // has it relative to the page (<html data-root>, "../../rules/ID/"):
  // rooted makes the worker's HTML the page's, so a redraw changes no link
  // and the site works under any path.
  const siteRoot = document.documentElement.dataset.root;
  const rooted = (html) => (siteRoot === undefined || siteRoot === "/" ? html : html.replaceAll('href="/rules/', 'href="' + siteRoot + "rules/"));
  globalThis.mcplabMorph = (el, html) => {
    if (typeof html === "object") html = html.html; // a reply's part: {html, ...}
    html = rooted(html);
    const inside = (p) => p.el !== el && !el.contains(p.el);
    parsing = parsing.filter(inside);
    patching = patching.filter(inside);
    // A block still being patched around el (an older, larger patch of an
    // ancestor) leaves el alone from now on: el gets newer HTML here, and
    // the older patch, reaching el later, put the older picture back (the
    // import page's timeline kept its example after a paste).
    for (const job of parsing.concat(patching)) if (job.el.contains(el)) (job.skip ||= []).push(el);
    if (html.length > parseChars) {
      const doc = document.implementation.createHTMLDocument("");
      doc.open();
      parsing.push({ el, html, at: 0, doc });
      schedule();
      return;
    }
    const t = document.createElement("template");
    t.innerHTML = html;
    const next = t.content.firstElementChild;
    if (next) morph(el, next);
  };
  Object.defineProperty(globalThis.mcplabMorph, "busy", { get: () => parsing.length > 0 || patching.length > 0 });
  // mcplabMorph.whole(html, views) is a block of a run drawn whole
  // (wasm/output.go's showAll): html with views (strings, in order) in its
  // slots (wasm/api.go's viewSlot), as [now, later]. A block of at most
  // parseChars is [block, null]; a larger one is [its outer element
  // emptied (start and end tag), block], so the output is set at once
  // without it and mcplabMorph(el, later) fills it in steps: set whole,
  // a 100,000-client herd's 363 KB were one task of 180 ms of CPU.
  globalThis.mcplabMorph.whole = (html, views) => {
    const pieces = html.split("<!--mcplab-view-->");
    let block = rooted(pieces[0]);
    for (let i = 1; i < pieces.length; i++) block += (views[i - 1] ?? "") + rooted(pieces[i]);
    if (block.length <= parseChars) return [block, null];
    const tag = /^<([a-zA-Z][^\s/>]*)[^>]*>/.exec(block);
    return tag ? [tag[0] + "</" + tag[1] + ">", block] : [block, null];
  };
  // mcplabLines(text) is how many lines text holds as the engine counts
  // them (transcript's scanLines: a trailing newline does not start a
  // line), counted without making them: for a 20,000-line transcript
  // split made 20,000 strings on the page's thread (wasm/import.go's
  // setText).
  globalThis.mcplabLines = (text) => {
    let n = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
    return n;
  };
  // schedule runs step soon: a parse in the next task, a patch slice at
  // the start of the next frame (where its changes are drawn), or in a
  // task while the page is hidden (no frames come then).
  const schedule = () => {
    if (stepping || (parsing.length === 0 && patching.length === 0)) return;
    stepping = true;
    if (parsing.length > 0 || document.hidden) setTimeout(step, 0);
    else requestAnimationFrame(step);
  };
  const step = () => {
    stepping = false;
    const start = performance.now();
    const p = parsing[0];
    if (p) {
      p.doc.write(p.html.slice(p.at, p.at + parseChars));
      p.at += parseChars;
      if (p.at >= p.html.length) {
        parsing.shift();
        p.doc.close();
        const next = p.doc.body && p.doc.body.firstElementChild;
        if (next && p.el.isConnected) patching.push({ el: p.el, pairs: [[p.el, document.adoptNode(next)]], skip: p.skip });
      }
    } else {
      let nodes = 0;
      while (patching.length > 0 && nodes < sliceNodes && performance.now() - start < sliceMs) {
        const job = patching[0];
        const pair = job.el.isConnected ? job.pairs.pop() : null;
        if (!pair) {
          patching.shift();
          continue;
        }
        if (job.skip && job.skip.some((n) => n.contains(pair[0]))) continue; // drawn since, newer
        nodes += morphOne(pair[0], pair[1], job.pairs, true);
      }
    }
    schedule();
  };
  // morph patches a into b at once, depth first.
  const morph = (a, b) => {
    const pairs = [[a, b]];
    for (let pair = pairs.pop(); pair; pair = pairs.pop()) morphOne(pair[0], pair[1], pairs);
  };
  // morphOne makes node a match node b, but for the children both have,
  // whose pairs it pushes on pairs (the first child last, so it is popped
  // first), and returns how many nodes it changed or added. fine (the
  // sliced patch) adds a new element with children as an empty copy
  // (shallow) and pushes the pair of the copy and the element, so its
  // children come in later steps.
  const shallow = (b, fine, pairs) => {
    if (!fine || b.nodeType !== 1 || !b.firstChild) return b;
    const c = b.cloneNode(false);
    pairs.push([c, b]);
    return c;
  };
  const morphOne = (a, b, pairs, fine) => {
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) {
      a.replaceWith(shallow(b, fine, pairs));
      return 1;
    }
    if (a.nodeType !== 1) {
      if (a.nodeValue === b.nodeValue) return 0;
      a.nodeValue = b.nodeValue;
      return 1;
    }
    if (a.isEqualNode(b)) return 0;
    for (const { name, value } of b.attributes) {
      if (a.getAttribute(name) !== value) a.setAttribute(name, value);
    }
    for (let i = a.attributes.length - 1; i >= 0; i--) {
      const { name } = a.attributes[i];
      if (!b.hasAttribute(name) && !(name === "open" && a.nodeName === "DETAILS")) a.removeAttribute(name);
    }
    const kids = [], added = [];
    let x = a.firstChild;
    for (let y = b.firstChild; y; ) {
      const ny = y.nextSibling;
      if (x) {
        kids.push([x, y]);
        x = x.nextSibling;
      } else added.push(y);
      y = ny;
    }
    while (x) {
      const nx = x.nextSibling;
      x.remove();
      x = nx;
    }
    // The new children's own pairs go first: they are popped after the
    // kept children's, which stand before them.
    const news = [];
    for (let i = added.length - 1; i >= 0; i--) news.push(shallow(added[i], fine, pairs));
    for (let i = news.length - 1; i >= 0; i--) a.appendChild(news[i]);
    for (let i = kids.length - 1; i >= 0; i--) pairs.push(kids[i]);
    return 1 + added.length;
  };

  // mcplabEngine is the bridge to the engine worker (worker.js), used by
  // the wasm on the page (wasm/page/ask.go):
  //
  //   mcplabEngine.request(req, done)  queue req (a plain object, see
  //       wasm/protocol's request types) for the worker; done(reply) is called once
  //       with the worker's reply, or {stopped: true, budgetMs} when the
  //       run took longer than budgetMs and was stopped, or {error}
  //       ({error, worker: true} when the worker itself failed, e.g. its
  //       SQLite did not load: no fault of the scenario); and
  //       twice when the first reply says more: true (a scenario page's
  //       run, shown in two steps: the picture, then the tables, which
  //       the worker makes once the page has drawn the picture), the
  //       request running until the second. One request runs at a time;
  //       while it runs, a newer request replaces the one waiting (its
  //       done is never called): the newest input wins and the page never
  //       queues stale work.
  //   mcplabEngine.budgetMs  how long one run may take (ms, default
  //       20,000: the heaviest herd takes a few seconds); a run past it
  //       is stopped by terminating the worker, and a fresh one is
  //       started from the same module.
  //   mcplabEngine.busy      true while a request runs or waits.
  //   mcplabEngine.restarts  how many workers were stopped so far.
  //   mcplabEngine.warmed    null until the worker has warmed a scenario
  //       page's run up (worker.js), then {runs, ms}: how many runs it
  //       repeated and the milliseconds they took.
  const utf8 = new TextDecoder();
  const engine = (globalThis.mcplabEngine = {
    budgetMs: 20000,
    restarts: 0,
    warmed: null,
    get busy() {
      return !!(this.running || this.waiting);
    },
    failures: 0, // workers in a row that failed before they were ready
    workerURL: null,
    module: null,
    sqlite: false, // the worker loads the browser's SQLite (ledger.wasm)
    worker: null,
    ready: false,
    running: null, // {id, done, timer}
    waiting: null, // {req, done}
    seq: 0,
    // preload starts the worker before the module is compiled, so that
    // it has loaded its scripts (and ledger.wasm's worker SQLite) while
    // the page downloads and compiles the simulator; start hands it the
    // module. (Started only once the module was compiled, it made
    // scenario A's cold navigation to ready 0.1-0.2 s later: median of 7
    // loads 1.13-1.22 s, against 1.00 s.)
    preload(sqlite) {
      this.sqlite = sqlite;
      if (!this.worker) this.spawn();
    },
    // warm (may be null) is the request the page is about to make: the
    // worker runs it at once and keeps its answer for it (worker.js).
    start(module, warm) {
      this.module = module;
      if (this.worker && !this.ready) this.worker.postMessage({ module, warm });
      else this.spawn(warm);
    },
    spawn(warm) {
      this.ready = false;
      const w = new Worker(this.workerURL);
      this.worker = w;
      w.onmessage = (e) => this.answer(w, e.data);
      w.onerror = (e) => {
        e.preventDefault();
        this.answer(w, { fatal: e.message || "the engine worker failed" });
      };
      w.postMessage({ module: this.module, sqlite: this.sqlite, warm: warm || null });
    },
    // clone is another bridge over the same module with a worker of its
    // own, started now: the explorer page spreads its runs over several
    // (wasm/page/explorepage).
    clone() {
      const e = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
      Object.assign(e, { restarts: 0, warmed: null, failures: 0, worker: null, ready: false, running: null, waiting: null, seq: 0 });
      if (this.module) e.spawn();
      return e;
    },
    request(req, done) {
      if (!this.module || (!this.worker && this.failures >= 3)) {
        done({ error: "the simulator worker could not start", worker: true });
        return;
      }
      this.waiting = { req, done };
      this.pump();
    },
    pump() {
      if (this.running || !this.waiting || !this.ready) return;
      const { req, done } = this.waiting;
      this.waiting = null;
      const id = ++this.seq;
      const timer = setTimeout(() => this.stop(id), this.budgetMs);
      this.running = { id, done, timer };
      this.worker.postMessage({ id, req });
    },
    // stop terminates the worker running request id (past its budget)
    // and starts another; the request's done hears {stopped: true}.
    stop(id) {
      const r = this.running;
      if (!r || r.id !== id) return;
      this.worker.terminate();
      this.restarts++;
      this.running = null;
      this.spawn();
      this.finish(r.done, { stopped: true, budgetMs: this.budgetMs });
    },
    answer(w, msg) {
      if (w !== this.worker) return; // a stopped worker's last words
      if (msg.warmed) {
        this.warmed = msg.warmed;
        return;
      }
      if (msg.ready) {
        this.ready = true;
        this.failures = 0;
        this.pump();
        return;
      }
      if (msg.fatal) {
        // The worker cannot serve: fail what runs, and start another.
        const r = this.running;
        this.running = null;
        w.terminate();
        this.restarts++;
        if (r) clearTimeout(r.timer);
        const err = { error: "the simulator worker stopped: " + msg.fatal, worker: true };
        if (!this.ready && ++this.failures >= 3) {
          // It cannot start at all: answer what waits, start no more.
          const q = this.waiting;
          this.waiting = null;
          this.worker = null;
          if (r) this.finish(r.done, err);
          if (q) this.finish(q.done, err);
          return;
        }
        this.spawn();
        if (r) this.finish(r.done, err);
        return;
      }
      const r = this.running;
      if (!r || r.id !== msg.id) return;
      const reply = this.unwire(msg.reply);
      if (msg.reply && msg.reply.more) {
        // The first of two steps: the request runs on. The worker makes
        // the second once this one is drawn (worker.js's later): told
        // after the next frame, in a task.
        try {
          r.done(reply);
        } catch (err) {
          console.error("mcplab:", err);
        }
        requestAnimationFrame(() => setTimeout(() => {
          if (this.worker === w && this.running === r) w.postMessage({ more: msg.id });
        }, 0));
        return;
      }
      clearTimeout(r.timer);
      this.running = null;
      this.finish(r.done, reply);
    },
    // unwire reads a reply as the simulator puts it on the wire
    // (wasm/bridge/bridge.go's toWire: {bytes, more, error}, the reply as JSON in
    // UTF-8). worker.js reads it there, off this thread, and posts the
    // object; a reply that still comes as bytes is read here.
    unwire(reply) {
      if (!reply || !(reply.bytes instanceof Uint8Array)) return reply;
      try {
        return JSON.parse(utf8.decode(reply.bytes));
      } catch (err) {
        return { error: "internal error: the simulator's reply is not JSON: " + err.message, worker: true };
      }
    },
    finish(done, reply) {
      try {
        done(reply);
      } finally {
        this.pump();
      }
    },
  });

  // A scenario page reads a #s= (or #example=) link when it starts
  // (wasm/page/labshare.go). A link pasted into the address bar of the page,
  // already open, changes only the fragment, which starts nothing: the page
  // then loads again, to open the link as a fresh load does. The page's
  // own rewrites of the bar (history.replaceState) fire no hashchange.
  if (document.getElementById("lab") && !document.getElementById("playground") && !document.getElementById("import") && !document.getElementById("review-live")) {
    addEventListener("hashchange", () => {
      if (location.hash.startsWith("#s=") || location.hash.startsWith("#example=")) location.reload();
    });
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
  const base = script ? script.src : document.baseURI;
  let file = lab.dataset.wasm || "main.wasm";
  if (lab.id === "playground" && new URLSearchParams(location.search).get("ledger") === "1") file = "ledger.wasm";
  const wasmURL = new URL(file, base);
  engine.workerURL = new URL("worker.js", base);
  // The explorer's workers load SQLite for a scenario with a ledger
  // (?ledger=1; wasm/cmd/explore), its page never does.
  const exploreLedger = lab.id === "explore" && new URLSearchParams(location.search).get("ledger") === "1";
  engine.preload(file === "ledger.wasm" || exploreLedger);
  const go = new Go();
  // sqliteFailure says why the browser's SQLite (sqlite3.wasm at url) did
  // not load, in words rather than Emscripten's ("Aborted(both async and
  // sync fetching of the wasm failed). Build with -sASSERTIONS ..."): the
  // HTTP status when fetching it failed, else SQLite's own reason.
  const sqliteFailure = (url, err) => {
    const why = String((err && err.message) || err).replace(/^Aborted\((.*)\)\.?(\s*Build with -sASSERTIONS.*)?$/s, "$1");
    return fetch(url, { method: "HEAD", cache: "no-store" }).then(
      (r) => { throw new Error(r.ok ? "SQLite (" + url.pathname + ") did not start: " + why : "fetching " + url.pathname + ": HTTP " + r.status); },
      () => { throw new Error("fetching " + url.pathname + " failed (no answer)"); },
    );
  };
  // ledger.wasm runs its idempotency ledger on the browser's SQLite
  // (sqlite.js, SQLite's own WebAssembly build: wasm/jsledger/jsledger.go), which the
  // worker loads for its runs (worker.js) and the page loads too, at the
  // same time as the simulator, for the synchronous mcplab.run. The page's
  // Go does not wait for it (its controls and first request need none);
  // it sets data-ready once it has loaded (mcplabSQLiteLoading: wasm's
  // markReady), and a failure stops the page like any other.
  const sqlite = file !== "ledger.wasm"
    ? Promise.resolve()
    : new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = new URL("sqlite.js", base).href;
        s.onload = resolve;
        s.onerror = () => reject(new Error("fetching sqlite.js failed"));
        document.head.appendChild(s);
      })
        .then(() => {
          const url = new URL("sqlite3.wasm", base);
          return self.mcplabSQLiteInit(url.href).catch((err) => sqliteFailure(url, err));
        })
        .then((api) => { self.mcplabSQLite = api; });
  if (file === "ledger.wasm") {
    globalThis.mcplabSQLiteLoading = sqlite;
    sqlite.catch(fail);
  }
  // warmRequest is the request a scenario page's first run will make
  // (wasm/page/lab.go: its own scenario, from script#scenario-json, whose
  // prerendered output it adopts), which the worker runs as soon as it
  // starts, while the page's Go starts, and keeps for that first request
  // (worker.js); none elsewhere.
  const warmRequest = () => {
    const json = lab.id === "lab" && document.getElementById("scenario-json");
    return json ? { page: "lab", text: json.textContent, adopt: true } : null;
  };
  // boot.js started the download while the page was read, when the page
  // names its wasm (mcplabWasmFetch); else it starts now.
  const early = globalThis.mcplabWasmFetch;
  (early && early.url === wasmURL.href ? early.response : fetch(wasmURL))
    .then((resp) => {
      if (!resp.ok) throw new Error("fetching " + wasmURL.pathname + ": HTTP " + resp.status);
      return WebAssembly.compileStreaming ? WebAssembly.compileStreaming(resp) : resp.arrayBuffer().then((b) => WebAssembly.compile(b));
    })
    .then((module) => {
      // One download, one compile: the worker gets the module itself (and
      // ledger.wasm's worker has been loading SQLite meanwhile: preload).
      engine.start(module, warmRequest());
      return WebAssembly.instantiate(module, go.importObject);
    })
    .then((instance) => go.run(instance))
    .then(() => fail(new Error("the simulator stopped")))
    .catch(fail);
})();
