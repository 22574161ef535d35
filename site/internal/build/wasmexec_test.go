package build

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWasmExecCodecsMatchTheBrowsers proves wasmExecPrologue's fast text
// codecs give what the platform's own TextDecoder and TextEncoder give
// (site/internal/build/wasmexec.go): short ASCII by the loop, anything else (non-ASCII,
// a BOM, invalid UTF-8, lone surrogates, text longer than
// wasmExecFastChars) by the platform's codec; that the Go toolchain's
// wasm_exec.js inside the block still defines globalThis.Go; and that
// outside the block the global classes are the platform's. Run under
// Node, whose codecs follow the same WHATWG Encoding standard as the
// browser's.
func TestWasmExecCodecsMatchTheBrowsers(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is required (apt-get install -y nodejs):", err)
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	toolchain, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	const check = `
const Native = { D: globalThis.TextDecoder, E: globalThis.TextEncoder };
const same = (what, got, want) => {
  const g = JSON.stringify(Array.from(got)), w = JSON.stringify(Array.from(want));
  if (g !== w) fails.push(what + ": got " + g.slice(0, 80) + ", want " + w.slice(0, 80));
};
const ascii = (n) => "x".repeat(n);
const texts = ["", "a", "ping", ascii(FAST), ascii(FAST + 1), "é", "caf\u00e9", "\u2192 next", "\u{1F600}", "\ud800", "a\udc00b", "\0nul", "\ufeffbom", ascii(FAST - 1) + "\u00e9"];
for (const s of texts) {
  same("encode " + JSON.stringify(s).slice(0, 30), new TextEncoder().encode(s), new Native.E().encode(s));
}
same("encode undefined", new TextEncoder().encode(undefined), new Native.E().encode(undefined));
same("encode 42", new TextEncoder().encode(42), new Native.E().encode(42));
const mem = new Uint8Array(4096);
const inputs = [[], [97], [0xef, 0xbb, 0xbf, 97], [0xff, 97], [0xc3, 0xa9], [0xe2, 0x86], [0]];
for (const s of texts) inputs.push(Array.from(new Native.E().encode(s)));
for (const bytes of inputs) {
  mem.set(bytes, 7);
  const views = [new DataView(mem.buffer, 7, bytes.length), new Uint8Array(mem.buffer, 7, bytes.length), new Uint8Array(bytes).buffer];
  for (const v of views) {
    const what = "decode " + v.constructor.name + " " + JSON.stringify(bytes).slice(0, 30);
    if (new TextDecoder("utf-8").decode(v) !== new Native.D("utf-8").decode(v)) fails.push(what);
    if (new TextDecoder("utf-16le").decode(v) !== new Native.D("utf-16le").decode(v)) fails.push("utf-16le " + what);
    if (new TextDecoder().decode(v, { stream: true }) !== new Native.D().decode(v, { stream: true })) fails.push("stream " + what);
  }
}
if (typeof globalThis.Go !== "function") fails.push("wasm_exec.js inside the block did not define globalThis.Go");
if (TextDecoder === Native.D || TextEncoder === Native.E) fails.push("the block does not shadow the codecs");
if (globalThis.mcplabFastText.TextDecoder !== TextDecoder || globalThis.mcplabFastText.TextEncoder !== TextEncoder) fails.push("mcplabFastText does not hold the fast codecs");
`
	script := strings.TrimSuffix(string(wasmExecJS(toolchain)), wasmExecEpilogue)
	script = strings.Replace(script, `"use strict";`, `"use strict";`+"\n"+`const Outside = { D: globalThis.TextDecoder, E: globalThis.TextEncoder }; const fails = [];`, 1)
	script += strings.ReplaceAll(check, "FAST", "256") + wasmExecEpilogue + `
if (globalThis.TextDecoder !== Outside.D || globalThis.TextEncoder !== Outside.E) fails.push("the globals changed");
if (fails.length) { console.log(fails.join("\n")); process.exit(1); }
console.log("ok");
`
	if wasmExecFastChars != 256 {
		t.Fatalf("the check assumes wasmExecFastChars = 256, it is %d", wasmExecFastChars)
	}
	f := filepath.Join(t.TempDir(), "codecs.js")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, f).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("the fast codecs differ from the platform's (%v):\n%s", err, out)
	}
}
