package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestMcplabLinesAsTheEngineCounts (a 20,000-line file with a trailing
// newline was "a transcript of 20001 lines"): app.js's mcplabLines counts
// lines as the engine does (a trailing newline does not start a line),
// run under node.
func TestMcplabLinesAsTheEngineCounts(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is missing")
	}
	src, err := os.ReadFile(filepath.Join("static", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	def := regexp.MustCompile(`(?s)globalThis\.mcplabLines = \(text\) => \{.*?\n  \};`).Find(src)
	if def == nil {
		t.Fatal("app.js has no globalThis.mcplabLines = (text) => {...};")
	}
	script := string(def) + `
const cases = [["a", 1], ["a\n", 1], ["a\nb", 2], ["a\nb\n", 2], ["a\r\nb\r\n", 2], ["a\n\n", 2], ["x\n".repeat(20000), 20000]];
for (const [text, want] of cases) {
  const got = globalThis.mcplabLines(text);
  if (got !== want) { console.log(JSON.stringify(text.slice(0, 10)) + ": " + got + ", want " + want); process.exitCode = 1; }
}`
	if out, err := exec.Command(node, "-e", script).CombinedOutput(); err != nil {
		t.Errorf("mcplabLines: %v\n%s", err, out)
	}
}

// TestCursorStateAtReadsTheEngineStates: under the time cursor, a request's
// state is the engine's (requests[].clientStates, serverStates, drawn as
// data-client-states): app.js's stateAt finds the interval holding t, a
// state starting at t included, and before the first one says the word it
// is given ("not sent yet"); it decides nothing of its own. Run under node.
func TestCursorStateAtReadsTheEngineStates(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is missing")
	}
	src, err := os.ReadFile(filepath.Join("static", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	def := regexp.MustCompile(`(?s)const stateAt = \(json, t, before\) => \{.*?\n  \};`).Find(src)
	if def == nil {
		t.Fatal("app.js has no const stateAt = (json, t, before) => {...};")
	}
	script := string(def) + `
const a = '[[0,"pending"],[300,"cancelled"]]';
const cases = [[a, -1, "not sent yet"], [a, 0, "pending"], [a, 299, "pending"], [a, 300, "cancelled"], [a, Infinity, "cancelled"],
  ['[[10,"working"],[310,"cancelled"]]', 5, ""], ['[]', 100, ""], [undefined, 100, ""]];
for (const [json, t, want] of cases) {
  const got = stateAt(json, t, want === "not sent yet" ? "not sent yet" : "");
  if (got !== want) { console.log(json + " at " + t + ": " + JSON.stringify(got) + ", want " + JSON.stringify(want)); process.exitCode = 1; }
}`
	if out, err := exec.Command(node, "-e", script).CombinedOutput(); err != nil {
		t.Errorf("stateAt: %v\n%s", err, out)
	}
}
