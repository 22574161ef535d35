package live

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// A streamed transcript (Recorder.Stream) is on disk from the start (its
// directory made) and, after every record, holds exactly the transcript
// so far: a process killed at any moment leaves every finished record.
// A header change (the session the server names) rewrites it whole.
func TestRecorderStream(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "not-yet")
	rec := NewRecorder(Header{Observer: trace.ObserverWire, Transport: scenario.TransportHTTP, Proxy: "mcplab proxy"})
	path, err := rec.Stream(dir, "proxy")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "proxy.jsonl"); path != want {
		t.Errorf("path %s, want %s", path, want)
	}
	same := func(step string) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if want := rec.Bytes(); !bytes.Equal(got, want) {
			t.Errorf("%s: the file holds\n%s\nwant\n%s", step, got, want)
		}
	}
	same("at start")
	m := Messages([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`))[0]
	w, _ := rec.Sent(trace.ActorClient, m, "")
	same("after a send")
	rec.Delivered(trace.ActorClient, m, w, "")
	same("after its delivery")
	rec.SetSession("s-1")
	same("after the session is named")
	rec.Event(trace.ActorClient, trace.TypeCloseStream, "1", 0, nil, "closed")
	same("after an event")
	if n := bytes.Count(rec.Bytes(), []byte("\n")); n != 4 {
		t.Errorf("%d lines, want the header and 3 records", n)
	}
	if err := rec.Finish(); err != nil {
		t.Fatal(err)
	}
	same("after Finish")
	if parts, _ := filepath.Glob(filepath.Join(dir, ".*.part")); len(parts) > 0 {
		t.Errorf("part files left: %v", parts)
	}
}

// A transcript never replaces another run's: with base.jsonl present,
// Stream and WriteFree take base-2.jsonl, base-3.jsonl… in order and
// the earlier files keep their bytes.
func TestRecorderNeverReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var paths []string
	for i, streamed := range []bool{false, true, false} {
		rec := NewRecorder(Header{Observer: trace.ObserverServer, Transport: scenario.TransportStdio})
		rec.Saw(trace.ActorClient, Messages([]byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"ping"}`))[0])
		var p string
		var err error
		if streamed {
			p, err = rec.Stream(dir, "mock")
			if err == nil {
				err = rec.Finish()
			}
		} else {
			p, err = rec.WriteFree(dir, "mock")
		}
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for i, want := range []string{"mock.jsonl", "mock-2.jsonl", "mock-3.jsonl"} {
		if filepath.Base(paths[i]) != want {
			t.Errorf("run %d wrote %s, want %s", i+1, paths[i], want)
			continue
		}
		b, _ := os.ReadFile(paths[i])
		if id := `"id":` + strconv.Itoa(i+1); !bytes.Contains(b, []byte(id)) {
			t.Errorf("%s lost run %d's record (%s):\n%s", want, i+1, id, b)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("part files left: %v", left)
	}
}
