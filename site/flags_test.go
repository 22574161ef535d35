package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRunFlagsAfterFile: `site run FILE -side server` works like `site run
// -side server FILE` (a newcomer typed it that way and got "3 arguments").
func TestRunFlagsAfterFile(t *testing.T) {
	log := filepath.Join(t.TempDir(), "server.log")
	data := "read: {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"work\"}}\n" +
		"read: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}\n" +
		"write: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n"
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", log, "-side", "server"}, {"run", "-side", "server", log}} {
		var out, errOut bytes.Buffer
		if err := run(args, &out, &errOut); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut.String())
		}
		var tr struct {
			Source struct {
				Side string `json:"side"`
			} `json:"source"`
		}
		if err := json.Unmarshal(out.Bytes(), &tr); err != nil || tr.Source.Side != "server" {
			t.Fatalf("%v: side %q (%v), want server", args, tr.Source.Side, err)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"run", log, "extra"}, &out, &errOut); err == nil {
		t.Fatal("two files must be a usage error")
	}
}
