// A TypeScript SDK client (@modelcontextprotocol/sdk, pinned by
// package-lock.json) run by `mcplab probe-client` (site/probeclient_test.go)
// as the conformance suite runs clients:
//   node client.mjs MODE [URL]
// MCPLAB_TRANSPORT says stdio (launch MCPLAB_SERVER_COMMAND, a JSON array)
// or streamable-http (the URL, probe-client's last argument);
// MCPLAB_SITUATION names the situation. MODE is how the host configures
// its calls (the SDK's RequestOptions):
//   plain    no options (the SDK's default 60 s timeout)
//   timeout  timeout 300 ms, progress does not reset it
//   reset    timeout 300 ms, resetTimeoutOnProgress
//   max      timeout 600 ms, resetTimeoutOnProgress, maxTotalTimeout 700 ms
//   abort    an AbortSignal that fires at 300 ms
//   retry    timeout 300 ms, and the host calls the tool once more when
//            the first call fails (a host's own retry, under a new id)
// After each call the client keeps its session 800 ms (as a host does),
// lists the tools again, and closes. In the situations about its listen
// stream (listen-*) it keeps its session 4 s and lists nothing again, so
// whatever it refetches after a reconnect is the SDK's own doing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

const mode = process.argv[2] ?? "plain";
const situation = process.env.MCPLAB_SITUATION ?? "slow-progress";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function transport() {
  if (process.env.MCPLAB_TRANSPORT === "streamable-http") {
    return new StreamableHTTPClientTransport(new URL(process.argv[process.argv.length - 1]));
  }
  const argv = JSON.parse(process.env.MCPLAB_SERVER_COMMAND);
  return new StdioClientTransport({ command: argv[0], args: argv.slice(1), stderr: "inherit" });
}

function options() {
  const o = { onprogress: () => {} };
  switch (mode) {
    case "timeout":
    case "retry":
      return { ...o, timeout: 300 };
    case "reset":
      return { ...o, timeout: 300, resetTimeoutOnProgress: true };
    case "max":
      return { ...o, timeout: 600, resetTimeoutOnProgress: true, maxTotalTimeout: 700 };
    case "abort": {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 300);
      return { ...o, signal: ac.signal };
    }
  }
  return o;
}

const client = new Client({ name: "mcplab-ts-client", version: "1.0.0" });
client.onerror = (e) => console.error("client error:", e.message);
await client.connect(transport());
const { tools } = await client.listTools();
const tool = tools[0].name;
const started = Date.now();
try {
  const res = await client.request({ method: "tools/call", params: { name: tool, arguments: {} } }, CallToolResultSchema, options());
  console.log(`${situation} ${mode}: result after ${Date.now() - started} ms`, JSON.stringify(res.content));
} catch (e) {
  console.log(`${situation} ${mode}: gave up after ${Date.now() - started} ms: ${e.message}`);
  if (mode === "retry") {
    // A host retries after it has shown the failure, not in the same
    // instant: the SDK's cancellation (a POST of its own) reaches the
    // server before the retry, as it would in a real host.
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      await client.request({ method: "tools/call", params: { name: tool, arguments: {} } }, CallToolResultSchema, options());
      console.log(`${situation} ${mode}: the retry got a result`);
    } catch (e2) {
      console.log(`${situation} ${mode}: the retry gave up too: ${e2.message}`);
    }
  }
}
const listening = situation.startsWith("listen-");
await sleep(listening ? 4000 : situation === "late-response" || mode === "max" ? 1200 : 800);
if (!listening) {
  try {
    await client.listTools();
  } catch (e) {
    console.log(`${situation} ${mode}: tools/list failed: ${e.message}`);
  }
}
await client.close();
