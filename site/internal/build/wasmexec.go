package build

import (
	"strconv"
	"strings"
)

// wasmExecPrologue opens the site's wasm_exec.js (wasmExecJS): a block in
// which TextEncoder and TextDecoder are subclasses with a fast path for
// short ASCII text, so that the toolchain's file, which follows unchanged
// inside the block, builds its encoder and decoder from them.
//
// Why: every string that crosses between Go and JavaScript goes through
// them (a property name of each js.Value Get, Set or Call, every string
// argument and result), and in Chromium a TextDecoder.decode or
// TextEncoder.encode call costs 1-5 µs whatever its length (measured on
// this machine: an 8-byte decode 3-4.6 µs, against 0.2 µs under Node). A
// lesson page's change makes a few hundred such crossings on each side,
// which was 2-4 ms of its 16 ms budget. Text of at most
// wasmExecFastChars characters that is all ASCII is converted with a
// loop; anything else (longer, any byte from 0x80, where UTF-8 and the
// BOM rules apply, or a decoder of another encoding) goes to the
// browser's own codec, so the result is
// always what the browser's would be.
//
// The block shadows the two names for that file only: the page's other
// scripts see the browser's own classes. It also leaves them in
// globalThis.mcplabFastText, for the engine worker, which makes them its
// own before it loads SQLite's module (worker.js): the ledger's statements
// pass their parameters and results through the same codecs.
var wasmExecPrologue = strings.ReplaceAll(`"use strict";
// mcplab: the Go toolchain's wasm_exec.js, unchanged, inside a block that
// gives it TextEncoder and TextDecoder with a fast path for short ASCII
// text (site/internal/build/wasmexec.go says why); the page's other scripts see the
// browser's own.
{
const TextDecoder = class extends globalThis.TextDecoder {
	decode(input, options) {
		if (options === undefined && ArrayBuffer.isView(input) && input.byteLength <= FAST && this.encoding === "utf-8") {
			const b = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
			for (let i = 0; i < b.length; i++) {
				if (b[i] >= 0x80) return super.decode(input);
			}
			return String.fromCharCode.apply(null, b);
		}
		return super.decode(input, options);
	}
};
const TextEncoder = class extends globalThis.TextEncoder {
	encode(input) {
		const s = input === undefined ? "" : String(input);
		if (s.length <= FAST) {
			const b = new Uint8Array(s.length);
			for (let i = 0; i < s.length; i++) {
				const c = s.charCodeAt(i);
				if (c >= 0x80) return super.encode(s);
				b[i] = c;
			}
			return b;
		}
		return super.encode(s);
	}
};
// The engine worker gives them to SQLite's module too (worker.js).
globalThis.mcplabFastText = { TextDecoder, TextEncoder };
`, "FAST", strconv.Itoa(wasmExecFastChars))

// wasmExecFastChars is the longest text (256 characters) the prologue's
// loop converts; longer text goes to the browser's codec, which is faster
// per byte.
const wasmExecFastChars = 256

// wasmExecEpilogue closes the prologue's block.
const wasmExecEpilogue = "\n}\n"

// wasmExecJS is the site's wasm_exec.js: the toolchain's (which must match
// the Go that compiled the wasm) inside wasmExecPrologue's block.
func wasmExecJS(toolchain []byte) []byte {
	out := make([]byte, 0, len(wasmExecPrologue)+len(toolchain)+len(wasmExecEpilogue))
	out = append(out, wasmExecPrologue...)
	out = append(out, toolchain...)
	return append(out, wasmExecEpilogue...)
}
