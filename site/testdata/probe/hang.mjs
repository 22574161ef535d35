// A "server" that reads standard input and never answers anything, for the
// probe test that proves the probe ends within its limits (site/probe_test.go).
process.stdin.on("data", () => {});
setInterval(() => {}, 1 << 30);
