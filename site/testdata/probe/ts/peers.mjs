// A TypeScript SDK client (@modelcontextprotocol/sdk, pinned by
// package-lock.json) driving peer-server.mjs through the situations of
// the import formats, for the real-peer log tests (site/tslogs_test.go):
//   node peers.mjs OUTDIR CASE...
// Each case runs in OUTDIR/CASE and leaves the logs people have:
//   claude.log    the client's view, written as Claude Desktop writes its
//                 mcp-server-NAME.log (a TypeScript SDK client logging each
//                 message its transport sends and receives, and the SDK's
//                 errors at [error]), newest variant with "{ metadata: undefined }";
//   tee.log       a stdio tee between client and server ("TIME [STDIN] {json}");
//   server.jsonl  the server's own log (JSON Lines, header observer server);
//   client.har    (http cases) a HAR 1.2 file of the client's fetches.
// Cases:
//   clean        tools/list and a call that answers at once;
//   user-cancel  the user aborts a call at its first progress (reason
//                "AbortError: This operation was aborted");
//   race         the server writes its result before it reads the
//                cancellation: the client aborts while the response is in
//                its pipe (held at the transport until the cancellation is
//                sent), then drops it ("Received a response for an unknown
//                message ID");
//   idle-timeout the call's 120 ms timeout fires: the SDK cancels with
//                "McpError: MCP error -32001: Request timed out";
//   max-timeout  maxTotalTimeout 150 ms with progress every 60 ms: the SDK
//                gives up only at a progress past the maximum, tells the
//                server nothing, and drops what follows;
//   sessions     the server restarts: two sessions, each initialize id 0
//                and tools/call id 1, in one log;
//   http-cancel  Streamable HTTP: the user aborts a call at its first
//                progress; the SDK POSTs notifications/cancelled.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

const here = new URL(".", import.meta.url).pathname;
const [outdir, ...cases] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// claudeLog appends one Claude Desktop log line.
const claudeLog = (path, level, text) =>
  appendFileSync(path, `${new Date().toISOString()} [peer-ts] [${level}] ${text} { metadata: undefined }\n`);

// logged wraps a client transport as Claude Desktop does: each message sent
// and received is logged; hold(message, deliver) may delay a delivery.
function logged(inner, path, hold) {
  const w = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (m, o) => { claudeLog(path, "info", `Message from client: ${JSON.stringify(m)}`); return inner.send(m, o); },
    get sessionId() { return inner.sessionId; },
    setProtocolVersion: (v) => inner.setProtocolVersion?.(v),
    get protocolVersion() { return inner.protocolVersion; },
  };
  inner.onmessage = (m, x) => {
    const deliver = () => { claudeLog(path, "info", `Message from server: ${JSON.stringify(m)}`); w.onmessage?.(m, x); };
    if (!hold || !hold(m, deliver)) deliver();
  };
  inner.onclose = () => w.onclose?.();
  inner.onerror = (e) => w.onerror?.(e);
  return w;
}

// connect starts a client on transport, logging to dir/claude.log; errors
// the SDK reports go to the log at [error] and to onError.
async function connect(dir, transport, hold, onError) {
  const path = join(dir, "claude.log");
  claudeLog(path, "info", "Initializing server...");
  const client = new Client({ name: "claude-ai", version: "0.1.0" });
  client.onerror = (e) => { claudeLog(path, "error", e.message); onError?.(e); };
  await client.connect(logged(transport, path, hold));
  claudeLog(path, "info", "Server started and connected successfully");
  return client;
}

function stdio(dir) {
  return new StdioClientTransport({
    command: process.execPath,
    args: [join(here, "tee.mjs"), join(dir, "tee.log"), process.execPath, join(here, "peer-server.mjs")],
    env: { PEER_SERVER_LOG: join(dir, "server.jsonl") },
    stderr: "ignore",
  });
}

const call = (client, name, args, opts = {}) =>
  client.request({ method: "tools/call", params: { name, arguments: args } }, CallToolResultSchema, opts);

// unknownError waits (at most 3 s) for the SDK's error naming id.
function waiter() {
  let want, done;
  const p = new Promise((r) => (done = r));
  return {
    onError: (e) => { if (want && want(e.message)) done(); },
    until: (f) => { want = f; return Promise.race([p, sleep(3000)]); },
  };
}

const run = {
  async clean(dir) {
    const c = await connect(dir, stdio(dir));
    await c.listTools();
    await call(c, "quick", {});
    await c.close();
  },
  async "user-cancel"(dir) {
    const c = await connect(dir, stdio(dir));
    const ac = new AbortController();
    await call(c, "work", { steps: 5, intervalMs: 60 }, { signal: ac.signal, onprogress: () => ac.abort() }).catch(() => {});
    await sleep(200); // the server's next step sees the cancellation and stops
    await c.close();
  },
  async race(dir) {
    const ac = new AbortController();
    let callId;
    const hold = (m, deliver) => {
      if (m.id === undefined || m.id !== callId) return false;
      ac.abort(); // the cancellation leaves while the result is in the pipe
      deliver();
      return true;
    };
    const w = waiter();
    const c = await connect(dir, stdio(dir), hold, w.onError);
    callId = 1;
    const dropped = w.until((msg) => msg.includes("unknown message ID"));
    await call(c, "work", { steps: 1, intervalMs: 30 }, { signal: ac.signal }).catch(() => {});
    await dropped;
    await sleep(50); // the server reads the cancellation (for a finished request: nothing to do)
    await c.close();
  },
  async "idle-timeout"(dir) {
    const c = await connect(dir, stdio(dir));
    await call(c, "work", { steps: 3, intervalMs: 100 }, { timeout: 120 }).catch(() => {});
    await sleep(250);
    await c.close();
  },
  async "max-timeout"(dir) {
    const w = waiter();
    const c = await connect(dir, stdio(dir), null, w.onError);
    const dropped = w.until((msg) => msg.includes("unknown message ID"));
    await call(c, "work", { steps: 6, intervalMs: 60 }, { timeout: 1000, resetTimeoutOnProgress: true, maxTotalTimeout: 150, onprogress: () => {} }).catch(() => {});
    await dropped;
    await c.close();
  },
  async sessions(dir) {
    for (let i = 0; i < 2; i++) {
      const c = await connect(dir, stdio(dir));
      await call(c, "quick", {});
      await c.close();
    }
  },
  async "http-cancel"(dir) {
    const srv = spawn(process.execPath, [join(here, "peer-server.mjs"), "--http"], {
      env: { ...process.env, PEER_SERVER_LOG: join(dir, "server.jsonl") }, stdio: ["ignore", "pipe", "inherit"],
    });
    const port = await new Promise((r) => createInterface({ input: srv.stdout }).on("line", (l) => l.startsWith("listening ") && r(l.split(" ")[1])));
    const har = { log: { version: "1.2", creator: { name: "peers.mjs", version: "1" }, entries: [] } };
    const pending = [];
    const c = await connect(dir, new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { fetch: harFetch(har, pending) }));
    const ac = new AbortController();
    await call(c, "work", { steps: 5, intervalMs: 60 }, { signal: ac.signal, onprogress: () => ac.abort() }).catch(() => {});
    await sleep(200);
    await c.close();
    await Promise.allSettled(pending);
    srv.kill();
    har.log.entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
    writeFileSync(join(dir, "client.har"), JSON.stringify(har, null, 1));
  },
};

// harFetch records each fetch as a HAR 1.2 entry; a response body is read
// to its end (or its abort) through a tee, so the entry's time spans the
// whole stream.
function harFetch(har, pending) {
  return async (url, init = {}) => {
    const started = new Date();
    const headers = new Headers(init.headers);
    const entry = {
      startedDateTime: started.toISOString(), time: 0,
      request: { method: init.method ?? "GET", url: String(url), httpVersion: "HTTP/1.1",
        headers: [...headers].map(([name, value]) => ({ name, value })), queryString: [], cookies: [], headersSize: -1, bodySize: -1 },
      response: { status: 0, statusText: "", httpVersion: "HTTP/1.1", headers: [], cookies: [], content: { size: 0, mimeType: "", text: "" }, redirectURL: "", headersSize: -1, bodySize: -1 },
      cache: {}, timings: { send: 0, wait: 0, receive: 0 },
    };
    if (typeof init.body === "string") entry.request.postData = { mimeType: headers.get("content-type") ?? "", text: init.body };
    har.log.entries.push(entry);
    let res;
    try {
      res = await fetch(url, init);
    } catch (e) {
      entry.time = Date.now() - started.getTime();
      throw e;
    }
    entry.response.status = res.status;
    entry.response.statusText = res.statusText;
    entry.response.headers = [...res.headers].map(([name, value]) => ({ name, value }));
    entry.response.content.mimeType = res.headers.get("content-type") ?? "";
    if (!res.body) {
      entry.time = Date.now() - started.getTime();
      return res;
    }
    const [mine, theirs] = res.body.tee();
    pending.push((async () => {
      const dec = new TextDecoder();
      const reader = mine.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          entry.response.content.text += dec.decode(value, { stream: true });
        }
      } catch {
        entry.response._error = "net::ERR_ABORTED";
      }
      entry.response.content.size = entry.response.content.text.length;
      entry.time = Date.now() - started.getTime();
    })());
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

for (const name of cases) {
  const dir = join(outdir, name);
  mkdirSync(dir, { recursive: true });
  if (!run[name]) throw new Error(`unknown case ${name}`);
  await run[name](dir);
}
process.exit(0);
