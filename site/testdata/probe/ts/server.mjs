// A TypeScript SDK (@modelcontextprotocol/sdk, pinned by package-lock.json)
// MCP server over stdio for the probe tests (site/probe_test.go).
//
// Tools, each taking {"steps": N, "intervalMs": MS} (defaults 4 and 100):
//   slow  reports progress through extra.sendNotification every intervalMs
//         and stops as soon as the request is cancelled (extra.signal):
//         it honours cancellation.
//   leaky reports progress through server.notification(..., {relatedRequestId})
//         and ignores the cancellation: its progress keeps flowing after the
//         server accepted the cancellation.
//   quick answers at once.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "probe-ts", version: "0.0.1" }, { capabilities: { tools: {} } });
const args = { type: "object", properties: { steps: { type: "integer" }, intervalMs: { type: "integer" } } };

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "slow", description: "progress every intervalMs; honours cancellation", inputSchema: args },
    { name: "leaky", description: "progress via server.notification; ignores cancellation", inputSchema: args },
    { name: "quick", description: "answers at once", inputSchema: { type: "object" } },
  ],
}));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
  const { name } = req.params;
  const steps = req.params.arguments?.steps ?? 4;
  const intervalMs = req.params.arguments?.intervalMs ?? 100;
  const token = req.params._meta?.progressToken;
  if (name === "quick") return { content: [{ type: "text", text: "quick" }] };
  for (let i = 1; i <= steps; i++) {
    await sleep(intervalMs);
    if (name === "slow" && extra.signal.aborted) throw new Error("cancelled");
    if (token === undefined) continue;
    const note = { method: "notifications/progress", params: { progressToken: token, progress: i, total: steps } };
    if (name === "leaky") await server.notification(note, { relatedRequestId: extra.requestId });
    else await extra.sendNotification(note);
  }
  return { content: [{ type: "text", text: `${name} done after ${steps} steps` }] };
});

await server.connect(new StdioServerTransport());
