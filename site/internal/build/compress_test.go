package build

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// Rule (the build; brotliQuality's table): quality 11 where a
// budgeted page downloads the file (the wasm binaries, the scripts), 10
// for the pages' HTML, 9 past brotliSlowLimit (ledger.wasm).
func TestBrotliQualityFor(t *testing.T) {
	for _, tc := range []struct {
		rel  string
		size int
		want int
	}{
		{"main.wasm", 7_831_811, 11},
		{"playground.wasm", 8_169_215, 11},
		{"editor.js", 360_550, 11},
		{"app.css", 40_000, 11},
		{"s/herd-reference-backoff/index.html", 266_452, 10},
		{"index.html", 50_873, 10},
		{"ledger.wasm", 19_532_104, 9},
		{"big.html", brotliSlowLimit + 1, 9},
	} {
		if got := brotliQualityFor(tc.rel, tc.size); got != tc.want {
			t.Errorf("brotliQualityFor(%q, %d) = %d, want %d", tc.rel, tc.size, got, tc.want)
		}
	}
}

// Rule (the build): the compressor runs the most expensive
// pending copy first, so the slowest job (a wasm at quality 11) never
// starts last behind the small ones.
func TestCompressorTakesTheLongestJobFirst(t *testing.T) {
	c := &compressor{}
	c.queue = []compressJob{
		{rel: "index.html", coding: "br", cost: compressCost("br", 10, 50_000)},
		{rel: "main.wasm", coding: "gz", cost: compressCost("gz", 9, 7_800_000)},
		{rel: "main.wasm", coding: "br", cost: compressCost("br", 11, 7_800_000)},
		{rel: "ledger.wasm", coding: "br", cost: compressCost("br", 9, 19_500_000)},
	}
	c.closed = true
	var got []string
	for {
		j, ok := c.next()
		if !ok {
			break
		}
		got = append(got, j.rel+"."+j.coding)
	}
	want := []string{"main.wasm.br", "ledger.wasm.br", "main.wasm.gz", "index.html.br"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("jobs ran in the order %q, want %q", got, want)
	}
}

// Rule (the build): every file added gets a .br and a .gz copy
// beside it that decompress to its bytes, whatever the number of workers.
func TestCompressorWritesBothCopies(t *testing.T) {
	out := t.TempDir()
	c := newCompressor(out, openCache(t.TempDir(), io.Discard), &progress{w: io.Discard})
	files := map[string][]byte{
		"index.html":   []byte(strings.Repeat("<p>a page</p>\n", 300)),
		"s/a/app.js":   []byte(strings.Repeat("let x = 1;\n", 500)),
		"schema.json":  []byte(`{"type":"object"}`),
		"s/b/x.svg":    []byte(strings.Repeat("<rect/>", 100)),
		"s/b/y/z.wasm": bytes.Repeat([]byte{0, 97, 115, 109}, 1000),
	}
	for rel, data := range files {
		if err := os.MkdirAll(filepath.Join(out, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		c.add(rel, data)
	}
	c.growToCPUs()
	if err := c.wait(); err != nil {
		t.Fatal(err)
	}
	for rel, data := range files {
		dst := filepath.Join(out, filepath.FromSlash(rel))
		br, err := os.ReadFile(dst + ".br")
		if err != nil {
			t.Fatalf("%s.br: %v", rel, err)
		}
		if plain, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br))); err != nil || !bytes.Equal(plain, data) {
			t.Errorf("%s.br decompresses to %d bytes (%v), want its %d bytes", rel, len(plain), err, len(data))
		}
		gz, err := os.ReadFile(dst + ".gz")
		if err != nil {
			t.Fatalf("%s.gz: %v", rel, err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatalf("%s.gz: %v", rel, err)
		}
		if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, data) {
			t.Errorf("%s.gz decompresses to %d bytes (%v), want its %d bytes", rel, len(plain), err, len(data))
		}
	}
	if c.files != 2*len(files) || c.hits != 0 {
		t.Errorf("counted %d copies, %d from the cache; want %d, 0", c.files, c.hits, 2*len(files))
	}
}

// Rule (make serve serves while the copies are made): when a
// file gets new content its old .br and .gz are removed before it is
// written, so a server never sends a stale compressed copy; an unchanged
// file keeps its copies.
func TestNewContentRemovesStaleCopies(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "main.wasm")
	stale := func() error { return removeStale(dst) }
	if _, err := writeIfChanged(dst, []byte("one"), stale); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".br", ".gz"} {
		if err := os.WriteFile(dst+ext, []byte("copy of one"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	if w, err := writeIfChanged(dst, []byte("one"), stale); err != nil || w {
		t.Fatalf("same bytes: wrote %v, %v", w, err)
	}
	if !exists(dst+".br") || !exists(dst+".gz") {
		t.Errorf("an unchanged file lost its compressed copies")
	}
	if w, err := writeIfChanged(dst, []byte("two"), stale); err != nil || !w {
		t.Fatalf("new bytes: wrote %v, %v", w, err)
	}
	if exists(dst+".br") || exists(dst+".gz") {
		t.Errorf("the copies of the old content survived the new content")
	}
	if b, _ := os.ReadFile(dst); string(b) != "two" {
		t.Errorf("file holds %q, want %q", b, "two")
	}
	// The write went through a temporary file: none is left.
	des, _ := os.ReadDir(filepath.Dir(dst))
	for _, de := range des {
		if strings.Contains(de.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", de.Name())
		}
	}
}
