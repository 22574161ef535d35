// A stdio MCP server written by hand (no SDK) with one switchable fault,
// for the probe tests of site/probe_test.go. Usage:
//
//   node fault.mjs MODE [STEP_MS]
//
// Its one tool "t" sends 3 progress notifications STEP_MS apart (default
// 60) under the request's token, then a result; it stops when cancelled.
// MODE:
//   ok        no fault
//   noise     writes "DEBUG handling call" on stdout before each result
//   banner    writes "Server starting on stdio..." on stdout before anything
//   badtoken  sends its progress under the token "WRONG", which no request carried
//   strid     answers a tool call with its id as a string ("3" for 3)
//   oldproto  answers initialize with 2025-06-18, an earlier MCP revision
//   badproto  answers initialize with 1999-01-01, no MCP revision
//   nocontent answers a tool call with a result without content, which
//             CallToolResult requires
//   needargs  lists "t" with required arguments city (a string) and days
//             (an integer, default 3) in its inputSchema
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "ok";
const step = Number(process.argv[3] ?? 60);
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const cancelled = new Set();

if (mode === "banner") process.stdout.write("Server starting on stdio...\n");

async function work(id, token) {
  for (let i = 1; i <= 3; i++) {
    await new Promise((r) => setTimeout(r, step));
    if (cancelled.has(id)) return;
    if (token !== undefined) {
      send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: mode === "badtoken" ? "WRONG" : token, progress: i, total: 3 } });
    }
  }
  if (mode === "noise") process.stdout.write("DEBUG handling call\n");
  send({ jsonrpc: "2.0", id: mode === "strid" ? String(id) : id, result: mode === "nocontent" ? {} : { content: [{ type: "text", text: "ok" }] } });
}

for await (const line of createInterface({ input: process.stdin })) {
  let m;
  try { m = JSON.parse(line); } catch { continue; }
  switch (m.method) {
    case "initialize":
      send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: { oldproto: "2025-06-18", badproto: "1999-01-01" }[mode] ?? m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "fault-" + mode, version: "0" } } });
      break;
    case "tools/list":
      send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "t", inputSchema: mode === "needargs"
        ? { type: "object", properties: { city: { type: "string" }, days: { type: "integer", default: 3 } }, required: ["days", "city"] }
        : { type: "object" } }] } });
      break;
    case "ping":
      send({ jsonrpc: "2.0", id: m.id, result: {} });
      break;
    case "tools/call":
      work(m.id, m.params?._meta?.progressToken);
      break;
    case "notifications/cancelled":
      if (m.params && m.params.requestId !== undefined) cancelled.add(m.params.requestId);
      break;
    default: // a 2025-11-25 server knows no server/discover (nor any other method)
      if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
  }
}
