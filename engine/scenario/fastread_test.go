package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// decodeBoth decodes data with the fast paths and through encoding/json
// only, and fails unless both give the same scenario or the same error.
func decodeBoth(t *testing.T, data []byte) {
	t.Helper()
	fast, ferr := Decode(data)
	fastPaths = false
	slow, serr := Decode(data)
	fastPaths = true
	if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
		t.Fatalf("Decode(%.200s): error %v; through encoding/json %v", data, ferr, serr)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("Decode(%.200s) =\n%+v\nthrough encoding/json\n%+v", data, fast, slow)
	}
}

// Decode's fast paths (fastObject, fastArray, plainString, plain ids) read
// every built-in scenario and the hostile seeds exactly as encoding/json
// does: same scenario, same error, same location.
func TestDecodeFastMatchesSlow(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "examples", "*.json"))
	if len(files) == 0 {
		t.Fatal("no built-in scenarios found")
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		decodeBoth(t, b)
	}
	for _, s := range append(fuzzSeeds,
		`{"mcplab":1,"steps":[ { "at" : 0 , "do" : "call" , "id" : "a<b" , "name" : "t\u00e9" } ]}`,
		`{"mcplab":1,"title":"caf\u00e9 \"q\"","steps":[{"at":0,"do":"call","id":"x","n\u0061me":"y"}]}`,
		`{"mcplab":1,"steps":[{"at":0,"do":"call","id":"`+string(make([]byte, 300))+`"}]}`,
		`{"mcplab":1,"steps":{}}`, `{"mcplab":1,"steps":[[]]}`, `{"mcplab":1,"steps":[]}`,
	) {
		decodeBoth(t, []byte(s))
	}
}

// FuzzDecodeFastMatchesSlow: for any input, the fast paths change nothing
// (go test -fuzz=FuzzDecodeFastMatchesSlow ./engine/scenario).
func FuzzDecodeFastMatchesSlow(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { decodeBoth(t, data) })
}
