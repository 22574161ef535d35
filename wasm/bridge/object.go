//go:build js && wasm

package bridge

import (
	"syscall/js"

	"github.com/mcplab/mcplab/wasm/protocol"
)

// Object is a JavaScript object read as a protocol.Object: a request in
// the worker, a reply on the page.
type Object struct{ js.Value }

var _ protocol.Object = Object{}

// Str implements protocol.Object. It asks the type first: syscall/js
// copies a string into Go only when asked for it.
func (o Object) Str(key string) (string, bool) {
	if v := o.Get(key); v.Type() == js.TypeString {
		return v.String(), true
	}
	return "", false
}

// Num implements protocol.Object.
func (o Object) Num(key string) (float64, bool) {
	if v := o.Get(key); v.Type() == js.TypeNumber {
		return v.Float(), true
	}
	return 0, false
}

// Truthy implements protocol.Object.
func (o Object) Truthy(key string) bool { return o.Get(key).Truthy() }

// Obj implements protocol.Object.
func (o Object) Obj(key string) (protocol.Object, bool) {
	v := o.Get(key)
	if v.Type() != js.TypeObject || js.Global().Get("Array").Call("isArray", v).Bool() {
		return nil, false
	}
	return Object{v}, true
}

// Strings implements protocol.Object.
func (o Object) Strings(key string) []string {
	v := o.Get(key)
	if v.Type() != js.TypeObject || !js.Global().Get("Array").Call("isArray", v).Bool() {
		return nil
	}
	out := make([]string, 0, v.Length())
	for i := 0; i < v.Length(); i++ {
		if e := v.Index(i); e.Type() == js.TypeString {
			out = append(out, e.String())
		}
	}
	return out
}
