package site

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/mcplab/mcplab/site/internal/build"
)

// cmdBuild is `mcplab build`: the whole site into -out (package build's
// Site, which says what it writes). A bad flag, an argument or a bad
// -base-url is a usageError (exit 2); a failing build is exit 1 with the
// build's error, which names the file or scenario at fault.
func cmdBuild(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "dist", "output `directory` (created; files in it are overwritten)")
	base := fs.String("base-url", "", "the absolute `URL` the site will be served from (https://lab.example/); with it, every scenario page gets an oEmbed JSON and its discovery link, and every review page's Markdown links its runs")
	cacheDir := fs.String("cache", build.DefaultCacheDir(), "build cache `directory` (compressed copies, wasm binaries, the templ trim); \"\" for none")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcplab build [-out dist] [-base-url URL] [-cache DIR]\n\nCompiles the wasm and prerenders every page. Run `go tool templ generate` first (make site does).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &usageError{fmt.Errorf("build takes no arguments, got %q", fs.Args())}
	}
	baseURL, err := build.ParseBaseURL(*base)
	if err != nil {
		return &usageError{fmt.Errorf("-base-url %w", err)}
	}
	if err := build.Site(context.Background(), build.Options{Out: *out, BaseURL: baseURL, CacheDir: *cacheDir, Log: stderr}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "built the site into %s\n", *out)
	return nil
}
