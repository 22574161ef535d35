// A "server" that reads standard input and never answers anything, for the
// probe test that proves the probe ends within its limits and kills the
// server's whole process group (site/probe_test.go). It starts a child
// process that also lives forever and writes that child's pid to the file
// named by its first argument.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
writeFileSync(process.argv[2], String(child.pid));
process.stdin.on("data", () => {});
setInterval(() => {}, 1 << 30);
