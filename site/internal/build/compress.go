package build

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// The qualities of the .br copies. Measured with Go 1.26 and
// andybalholm/brotli v1.3.0, CPU seconds of one core (size):
//
//	                      raw      gzip -9         br q9          br q10          br q11
//	main.wasm         7.83 MB  1.98 MB 1.0 s  1.61 MB  ~3 s   1.436 MB 13.7 s  1.409 MB 25.1 s
//	ledger.wasm      19.53 MB  5.14 MB 2.5 s  4.11 MB 7.4 s                   (with ncruces's SQLite, before the browser's own)
//	86 HTML pages     6.87 MB                 0.99 MB 0.7 s   0.920 MB  5.8 s  0.899 MB 14.4 s
//
// Only q10 and q11 use brotli's slow optimal parser, which is where the gain
// is. brotliQuality (q11) is for what a budgeted page downloads:
// main.wasm, playground.wasm and import.wasm (1.5 MB a page without SQLite,
// ARCHITECTURE.md; the wasm is almost all of it), the scripts and the
// stylesheet. The pages' HTML gets brotliPageQuality (q10): 2% larger
// (about 240 bytes a page) for 40% of the time, 8.6 s of CPU saved on a
// cold build. Files over brotliSlowLimit get brotliLargeQuality: q11
// would take a minute for 0.3 MB. That was ledger.wasm while it linked
// SQLite; since the browser's SQLite is its own file
// (site/static/sqlite3.wasm, 0.88 MB), ledger.wasm is 8.5 MB and gets q11
// like the others (1.41 MB).
const (
	brotliQuality      = 11
	brotliPageQuality  = 10
	brotliLargeQuality = 9
	brotliSlowLimit    = 12 << 20
)

// brotliQualityFor is the brotli quality of the .br copy of site file rel,
// size bytes long (see brotliQuality).
func brotliQualityFor(rel string, size int) int {
	switch {
	case size > brotliSlowLimit:
		return brotliLargeQuality
	case path.Ext(rel) == ".html":
		return brotliPageQuality
	}
	return brotliQuality
}

// compressCost estimates the CPU time of one compression, in nanoseconds,
// from the measurements above (seconds of CPU per MB): the compressor runs
// the most expensive job first.
func compressCost(coding string, quality, size int) float64 {
	perByte := 0.12 // gzip -9
	if coding == "br" {
		switch {
		case quality >= 11:
			perByte = 3.2
		case quality == 10:
			perByte = 1.8
		default:
			perByte = 0.4
		}
	}
	return perByte * float64(size)
}

// brotliWindow is the brotli window (log2 of its bytes): 24, 16 MiB, the
// largest RFC 7932 allows and every browser decodes. The wasm binaries are
// 7-9 MB, and brotli's default of 22 (4 MiB) cannot reach back across
// them: 24 takes 1.3 KB more off playground.wasm, whose page is at its
// transfer budget (TestEditorLoadsOnlyOnThePlayground).
const brotliWindow = 24

// brotliBytes compresses b with brotli at quality q and brotliWindow
// (deterministic: brotli has no header fields that vary).
func brotliBytes(b []byte, q int) ([]byte, error) {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: q, LGWin: brotliWindow})
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// gzipBytes compresses b at the best compression, with no name or time in
// the header, so the output is byte-stable.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// compressor writes NAME.br and NAME.gz beside every file added to it, from
// the cache where it can. Each copy is a job; a pool of workers runs the
// most expensive pending job first (longest first keeps the last wasm's
// quality-11 brotli, the slowest single job, from starting last), so the
// copies end about when their total CPU time over the cores says. The pool
// starts with one worker, so the pages and the wasm links keep a core while
// the build writes them; grow adds the others once they are written. The
// first error wins; the remaining jobs still run.
type compressor struct {
	out   string
	cache *buildCache
	log   *progress

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []compressJob
	closed  bool // no more jobs: idle workers return
	workers int
	wg      sync.WaitGroup

	first       error
	files, hits int
	busy        time.Duration // wall time of the misses, summed over the workers
}

// compressJob is one copy to make: out/rel compressed by coding at quality.
type compressJob struct {
	rel, key, coding string
	quality          int
	data             []byte
	cost             float64 // compressCost
}

// newCompressor returns a compressor writing into out, with one worker.
func newCompressor(out string, cache *buildCache, log *progress) *compressor {
	c := &compressor{out: out, cache: cache, log: log}
	c.cond = sync.NewCond(&c.mu)
	c.grow(1)
	return c
}

// grow makes the pool n workers (it never shrinks).
func (c *compressor) grow(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for ; c.workers < n; c.workers++ {
		c.wg.Go(c.work)
	}
}

// growToCPUs makes the pool one worker per CPU the process may use.
func (c *compressor) growToCPUs() { c.grow(runtime.GOMAXPROCS(0)) }

// add queues the .gz and .br copies of data, the content of out/rel.
func (c *compressor) add(rel string, data []byte) {
	key := contentKey(data)
	q := brotliQualityFor(rel, len(data))
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, j := range []compressJob{
		{rel: rel, key: key, coding: "gz", quality: gzip.BestCompression, data: data},
		{rel: rel, key: key, coding: "br", quality: q, data: data},
	} {
		j.cost = compressCost(j.coding, j.quality, len(data))
		c.queue = append(c.queue, j)
	}
	c.cond.Broadcast()
}

// next takes the most expensive pending job, waiting for one; ok is false
// once the compressor is closed and nothing is pending.
func (c *compressor) next() (j compressJob, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.queue) == 0 && !c.closed {
		c.cond.Wait()
	}
	if len(c.queue) == 0 {
		return j, false
	}
	i := 0
	for k := range c.queue {
		if c.queue[k].cost > c.queue[i].cost {
			i = k
		}
	}
	j = c.queue[i]
	c.queue = slices.Delete(c.queue, i, i+1)
	return j, true
}

// work runs jobs until the compressor is closed and drained.
func (c *compressor) work() {
	for {
		j, ok := c.next()
		if !ok {
			return
		}
		err := c.one(j)
		if err != nil {
			c.mu.Lock()
			if c.first == nil {
				c.first = fmt.Errorf("build: compress %s: %w", j.rel, err)
			}
			c.mu.Unlock()
		}
	}
}

// bigFile is the size past which a compression that misses the cache says
// so as it starts: those take seconds (brotliQuality).
const bigFile = 1 << 20

// one makes job j's copy and writes it beside its file (atomically, so a
// server reading the directory never sees half of it).
func (c *compressor) one(j compressJob) error {
	start := time.Now()
	name := compressedName(j.key, j.coding, j.quality)
	if len(j.data) > bigFile && !c.cache.has("compress", name) {
		what := "gzip -9"
		if j.coding == "br" {
			what = fmt.Sprintf("brotli at quality %d", j.quality)
		}
		c.log.linef("compress", "%s (%.1f MB): %s…", j.rel, float64(len(j.data))/1e6, what)
	}
	b, hit, err := c.cache.compressedCopy(j.data, j.key, j.coding, j.quality)
	if err != nil {
		return err
	}
	dst := filepath.Join(c.out, filepath.FromSlash(j.rel)) + "." + j.coding
	if _, err := writeIfChanged(dst, b); err != nil {
		return err
	}
	c.mu.Lock()
	c.files++
	if hit {
		c.hits++
	} else {
		c.busy += time.Since(start)
	}
	c.mu.Unlock()
	return nil
}

// wait closes the compressor (no more add), lets every worker finish the
// pending jobs, and returns the first error. It is safe to call twice.
func (c *compressor) wait() error {
	c.growToCPUs()
	c.mu.Lock()
	c.closed = true
	c.cond.Broadcast()
	c.mu.Unlock()
	c.wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first
}

// removeStale removes the .br and .gz copies beside dst, so that a server
// never sends the compressed bytes of a file's old content once the file
// has new content (the new copies follow when the compressor reaches them).
func removeStale(dst string) error {
	for _, ext := range []string{".br", ".gz"} {
		if err := os.Remove(dst + ext); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}
