// A TypeScript SDK (@modelcontextprotocol/sdk, pinned by package-lock.json)
// MCP server for the real-peer log tests (site/tslogs_test.go), over stdio,
// or Streamable HTTP with "--http" (it prints "listening PORT" on stdout).
//
// With PEER_SERVER_LOG=path it writes its own log of every message it read
// and wrote, as the lab's JSON Lines after the header line
// {"observer":"server",...}: what a server-side debug log records.
//
// Tools:
//   work   {"steps": N, "intervalMs": MS}: sends progress each step when the
//          request carries a progress token and honours cancellation (it
//          stops at the next step once extra.signal is aborted; the SDK then
//          sends no response for the cancelled request).
//   quick  answers at once.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const http = process.argv.includes("--http");
const logPath = process.env.PEER_SERVER_LOG;
if (logPath) appendFileSync(logPath, JSON.stringify({ observer: "server", transport: http ? "streamable-http" : "stdio" }) + "\n");
const log = (from, message) => {
  if (logPath) appendFileSync(logPath, JSON.stringify({ t: new Date().toISOString(), from, message }) + "\n");
};

// logged wraps a server transport so that every message read and written is logged.
function logged(inner) {
  const w = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (m, o) => { log("server", m); return inner.send(m, o); },
    get sessionId() { return inner.sessionId; },
    setProtocolVersion: (v) => inner.setProtocolVersion?.(v),
  };
  inner.onmessage = (m, x) => { log("client", m); w.onmessage?.(m, x); };
  inner.onclose = () => w.onclose?.();
  inner.onerror = (e) => w.onerror?.(e);
  return w;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function newServer() {
  const server = new Server({ name: "peer-ts", version: "0.0.1" }, { capabilities: { tools: {} } });
  const args = { type: "object", properties: { steps: { type: "integer" }, intervalMs: { type: "integer" } } };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "work", description: "progress every intervalMs; honours cancellation", inputSchema: args },
      { name: "quick", description: "answers at once", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name } = req.params;
    if (name === "quick") return { content: [{ type: "text", text: "quick" }] };
    const steps = req.params.arguments?.steps ?? 4;
    const intervalMs = req.params.arguments?.intervalMs ?? 100;
    const token = req.params._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(intervalMs);
      if (extra.signal.aborted) throw new Error("cancelled");
      if (token !== undefined) {
        await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: steps } });
      }
    }
    return { content: [{ type: "text", text: `work done after ${steps} steps` }] };
  });
  return server;
}

if (!http) {
  await newServer().connect(logged(new StdioServerTransport()));
} else {
  const transports = {};
  const httpServer = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const sid = req.headers["mcp-session-id"];
    let t = sid && transports[sid];
    if (!t) {
      t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => `session-${Object.keys(transports).length + 1}`,
        onsessioninitialized: (id) => { transports[id] = t; },
      });
      await newServer().connect(logged(t));
    }
    await t.handleRequest(req, res, body);
  });
  httpServer.listen(0, "127.0.0.1", () => console.log(`listening ${httpServer.address().port}`));
}
