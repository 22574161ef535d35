// A logging wrapper around a stdio MCP server, as people put between a
// client and a server to see the traffic (site/tslogs_test.go):
//   node tee.mjs LOGFILE COMMAND ARGS...
// runs COMMAND, passes its standard input and output through, and appends
// "TIME [STDIN] line", "TIME [STDOUT] line" and "TIME [STDERR] line" to
// LOGFILE in the order the lines pass (TIME in ISO 8601 with milliseconds,
// as logging wrappers write it), after an "[INFO]" line of its own.
import { appendFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [logPath, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: process.env });
const log = (tag, line) => appendFileSync(logPath, `${new Date().toISOString()} [${tag}] ${line}\n`);
log("INFO", `tee: starting ${command} ${args.join(" ")}`);
const tee = (tag, from, to) =>
  createInterface({ input: from, crlfDelay: Infinity }).on("line", (line) => {
    log(tag, line);
    to?.write(line + "\n");
  });
tee("STDIN", process.stdin, child.stdin);
tee("STDOUT", child.stdout, process.stdout);
tee("STDERR", child.stderr, null);
process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code) => process.exit(code ?? 0));
