package build

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The build cache keeps what is slow to make and a pure function of its
// inputs, so a build with nothing changed takes seconds (`make serve`
// with nothing changed: under 10 s):
//
//	DIR/compress/<sha256 of the file>.<coding><quality>  a .br or .gz copy, by content
//	DIR/wasm/<key>.wasm   a js/wasm binary, by wasmKey (every package's build ID, flags, toolchain)
//	DIR/trim/<key>/       the trimmed templ copy (package trim)
//
// DIR is Options.CacheDir (the verbs' -cache), by default
// DefaultCacheDir (~/.cache/mcplab on Linux), outside dist/ so a clean
// build directory keeps it. Entries are
// written to a temporary name and renamed, so concurrent builds (several
// worktrees) share the cache safely; an entry's modification time is set
// when it is used, and prune removes entries unused for
// cacheMaxAge, then the least recently used ones past cacheMaxBytes.
const (
	cacheMaxAge   = 30 * 24 * time.Hour
	cacheMaxBytes = 1 << 30 // 1 GiB: about 60 builds' worth of changed wasm binaries and their copies
	// cacheTmpAge is when a temporary file a killed build left is removed.
	cacheTmpAge = time.Hour
)

// buildCache is the cache in dir; the zero value (dir "") caches nothing.
type buildCache struct{ dir string }

// DefaultCacheDir is os.UserCacheDir()/mcplab, or "" (no cache) when the
// user has no cache directory.
func DefaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "mcplab")
}

// openCache returns the cache in dir, creating it; a cache that cannot be
// created is reported on stderr and disabled (the build still works, slowly).
func openCache(dir string, stderr io.Writer) *buildCache {
	if dir == "" {
		return &buildCache{}
	}
	for _, sub := range []string{"compress", "wasm", "trim"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			fmt.Fprintf(stderr, "build: warning: no build cache (%v); everything is rebuilt\n", err)
			return &buildCache{}
		}
	}
	return &buildCache{dir: dir}
}

// path is the cache file of entry name in sub ("" when the cache is off).
func (c *buildCache) path(sub, name string) string {
	if c.dir == "" {
		return ""
	}
	return filepath.Join(c.dir, sub, name)
}

// get returns the content of entry name in sub and marks it used, or
// ok=false when it is absent (or the cache is off).
func (c *buildCache) get(sub, name string) (data []byte, ok bool) {
	p := c.path(sub, name)
	if p == "" {
		return nil, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(p, now, now)
	return b, true
}

// put stores data as entry name in sub, through a temporary file renamed
// into place. A cache that cannot be written only costs time, so errors are
// ignored.
func (c *buildCache) put(sub, name string, data []byte) {
	p := c.path(sub, name)
	if p == "" {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), name+".tmp-")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), p) != nil {
		os.Remove(f.Name())
	}
}

// contentKey is the hex SHA-256 of data.
func contentKey(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// has reports whether entry name in sub exists (false when the cache is off).
func (c *buildCache) has(sub, name string) bool {
	p := c.path(sub, name)
	if p == "" {
		return false
	}
	_, err := os.Stat(p)
	return err == nil
}

// compressedName is the cache entry of the content with key (contentKey)
// compressed by coding at quality (and, for brotli, brotliWindow).
func compressedName(key, coding string, quality int) string {
	if coding == "br" {
		return fmt.Sprintf("%s.%s%dw%d", key, coding, quality, brotliWindow)
	}
	return fmt.Sprintf("%s.%s%d", key, coding, quality)
}

// compressedCopy returns data (whose contentKey is key) compressed by coding
// ("br" or "gz") at quality, from the cache when the same bytes were
// compressed the same way before, and reports whether they were.
func (c *buildCache) compressedCopy(data []byte, key, coding string, quality int) (out []byte, hit bool, err error) {
	name := compressedName(key, coding, quality)
	if b, ok := c.get("compress", name); ok {
		return b, true, nil
	}
	switch coding {
	case "br":
		out, err = brotliBytes(data, quality)
	case "gz":
		out, err = gzipBytes(data)
	default:
		err = fmt.Errorf("unknown coding %q", coding)
	}
	if err != nil {
		return nil, false, err
	}
	c.put("compress", name, out)
	return out, false, nil
}

// prune removes temporary files older than cacheTmpAge, entries unused for
// cacheMaxAge, then the least recently used entries until the cache holds
// at most maxBytes (the build passes cacheMaxBytes). It returns the bytes
// the cache holds afterwards.
func (c *buildCache) prune(now time.Time, maxBytes int64) (int64, error) {
	if c.dir == "" {
		return 0, nil
	}
	type entry struct {
		path string
		used time.Time
		size int64
	}
	var entries []entry
	for _, sub := range []string{"compress", "wasm", "trim"} {
		des, err := os.ReadDir(filepath.Join(c.dir, sub))
		if err != nil {
			return 0, err
		}
		for _, de := range des {
			p := filepath.Join(c.dir, sub, de.Name())
			info, err := de.Info()
			if err != nil {
				continue // removed by a concurrent build
			}
			age := now.Sub(info.ModTime())
			if strings.Contains(de.Name(), ".tmp-") {
				if age > cacheTmpAge {
					os.RemoveAll(p)
				}
				continue
			}
			if age > cacheMaxAge {
				os.RemoveAll(p)
				continue
			}
			size := info.Size()
			if de.IsDir() {
				size = dirSize(p)
			}
			entries = append(entries, entry{p, info.ModTime(), size})
		}
	}
	// Newest first; keep while the total fits.
	slices.SortFunc(entries, func(a, b entry) int { return b.used.Compare(a.used) })
	var total int64
	for _, e := range entries {
		if total+e.size > maxBytes {
			os.RemoveAll(e.path)
			continue
		}
		total += e.size
	}
	return total, nil
}

// dirSize is the total size of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// writeIfChanged writes data to dst unless dst already holds exactly data,
// so an unchanged file keeps its modification time (and so its
// Last-Modified and the browser's cached copy). It reports whether it
// wrote. Before writing it calls each of before (which may remove what the
// new content makes stale). The new content goes to a temporary file (a
// hidden name in the same directory, which package serve never sends) renamed
// over dst, so a server reading the directory sees the old bytes or the
// new, never part of them.
func writeIfChanged(dst string, data []byte, before ...func() error) (bool, error) {
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
		return false, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	for _, f := range before {
		if err := f(); err != nil {
			return false, err
		}
	}
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(dst)+".tmp-")
	if err != nil {
		return false, err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(0o644)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), dst)
	}
	if werr != nil {
		os.Remove(f.Name())
		return false, werr
	}
	return true, nil
}

// progress prints the build's phases to stderr, one line each, safe for
// concurrent use.
type progress struct {
	mu sync.Mutex
	w  io.Writer
}

// linef prints "build: <phase> <message>".
func (p *progress) linef(phase, format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "build: %-9s %s\n", phase, fmt.Sprintf(format, args...))
}

// donef prints a phase's line with the time since start.
func (p *progress) donef(phase string, start time.Time, format string, args ...any) {
	p.linef(phase, "%s (%s)", fmt.Sprintf(format, args...), seconds(time.Since(start)))
}

// seconds formats d as seconds with one decimal: "12.3s".
func seconds(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }
