package build

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// Rule (the build): a compressed copy is made once per content
// and coding; the next build with the same bytes reads it from the cache,
// and it still decompresses to those bytes.
func TestCompressedCopyIsCachedByContent(t *testing.T) {
	c := openCache(t.TempDir(), io.Discard)
	data := []byte(strings.Repeat("<p>the same page</p>\n", 200))
	key := contentKey(data)
	first, hit, err := c.compressedCopy(data, key, "br", brotliQuality)
	if err != nil || hit {
		t.Fatalf("first compressedCopy: hit %v, %v; want a miss", hit, err)
	}
	second, hit, err := c.compressedCopy(data, key, "br", brotliQuality)
	if err != nil || !hit || !bytes.Equal(first, second) {
		t.Fatalf("second compressedCopy: hit %v, same bytes %v, %v; want a hit with the same bytes", hit, bytes.Equal(first, second), err)
	}
	plain, err := io.ReadAll(brotli.NewReader(bytes.NewReader(second)))
	if err != nil || !bytes.Equal(plain, data) {
		t.Errorf("the cached copy decompresses to %d bytes (%v), want the %d original bytes", len(plain), err, len(data))
	}
	// Another quality or content is another entry.
	if _, hit, _ := c.compressedCopy(data, key, "br", brotliLargeQuality); hit {
		t.Errorf("a copy at quality %d was served for quality %d", brotliQuality, brotliLargeQuality)
	}
	other := append([]byte("x"), data...)
	if _, hit, _ := c.compressedCopy(other, contentKey(other), "br", brotliQuality); hit {
		t.Errorf("a copy of other bytes was served")
	}
	// Off, nothing is cached.
	off := openCache("", io.Discard)
	off.compressedCopy(data, key, "gz", 9)
	if _, hit, _ := off.compressedCopy(data, key, "gz", 9); hit {
		t.Errorf("a cache that is off served a hit")
	}
}

// Rule: a file whose bytes did not change is not rewritten, so
// it keeps its modification time (and the browser's cached copy); a changed
// one is.
func TestWriteIfChanged(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "a", "index.html")
	if w, err := writeIfChanged(dst, []byte("one")); err != nil || !w {
		t.Fatalf("first write: wrote %v, %v", w, err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(dst, old, old)
	if w, err := writeIfChanged(dst, []byte("one")); err != nil || w {
		t.Errorf("same bytes: wrote %v, %v; want no write", w, err)
	}
	if st, _ := os.Stat(dst); !st.ModTime().Equal(old) {
		t.Errorf("same bytes changed the modification time to %v", st.ModTime())
	}
	if w, err := writeIfChanged(dst, []byte("two")); err != nil || !w {
		t.Errorf("new bytes: wrote %v, %v; want a write", w, err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "two" {
		t.Errorf("file holds %q, want %q", b, "two")
	}
}

// Rule (the cache's documented bounds): prune removes entries
// unused for cacheMaxAge and temporary files older than cacheTmpAge, then
// the least recently used entries past the size bound, and keeps the rest.
func TestPruneBoundsTheCache(t *testing.T) {
	dir := t.TempDir()
	c := openCache(dir, io.Discard)
	now := time.Now()
	entry := func(sub, name string, size int, used time.Time) string {
		p := filepath.Join(dir, sub, name)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, used, used)
		return p
	}
	stale := entry("compress", "stale.br11", 10, now.Add(-cacheMaxAge-time.Hour))
	tmp := entry("wasm", "k.wasm.tmp-1", 10, now.Add(-cacheTmpAge-time.Minute))
	freshTmp := entry("wasm", "k2.wasm.tmp-1", 10, now)
	oldest := entry("wasm", "old.wasm", 600, now.Add(-3*time.Hour))
	older := entry("compress", "older.gz9", 300, now.Add(-2*time.Hour))
	newest := entry("compress", "new.br11", 300, now.Add(-time.Hour))
	total, err := c.prune(now, 700)
	if err != nil {
		t.Fatal(err)
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for p, want := range map[string]bool{stale: false, tmp: false, freshTmp: true, oldest: false, older: true, newest: true} {
		if exists(p) != want {
			t.Errorf("%s: exists %v after prune, want %v", filepath.Base(p), exists(p), want)
		}
	}
	if total != 600 {
		t.Errorf("prune reports %d bytes kept, want 600", total)
	}
}
