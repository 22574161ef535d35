package site

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"strconv"
	"syscall"
	"time"

	"github.com/mcplab/mcplab/site/internal/build"
	"github.com/mcplab/mcplab/site/internal/serve"
)

// cmdServe is `mcplab serve`: the built site in -dir on -addr through
// package serve's handler, after building it with -build (served as soon as
// its files are written, the compressed copies following).
func cmdServe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "dist", "`directory` of a built site (site build)")
	addr := fs.String("addr", ":8080", "listen `address`; the PORT environment variable overrides its port")
	buildFirst := fs.Bool("build", false, "build the site into -dir first (as mcplab build), and serve as soon as its files are written while the .br and .gz copies are made (served uncompressed until then)")
	cacheDir := fs.String("cache", build.DefaultCacheDir(), "with -build, the build cache `directory`; \"\" for none")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcplab serve [-dir dist] [-addr :8080] [-build [-cache DIR]]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &usageError{fmt.Errorf("serve takes no arguments, got %q", fs.Args())}
	}
	// The address is settled before anything is built: a bad PORT is
	// named (net.Listen would say "lookup tcp/abc: unknown port").
	listen := *addr
	if port := os.Getenv("PORT"); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return &usageError{fmt.Errorf("PORT %q: not a port number (1-65535)", port)}
		}
		host, _, err := net.SplitHostPort(listen)
		if err != nil {
			return &usageError{fmt.Errorf("-addr %q: %w", listen, err)}
		}
		listen = net.JoinHostPort(host, port)
	}
	if *buildFirst {
		finish, err := build.Start(context.Background(), build.Options{Out: *dir, CacheDir: *cacheDir, Log: stderr})
		if err != nil {
			return err
		}
		go func() {
			if err := finish(); err != nil {
				fmt.Fprintf(stderr, "%v\n(the files without a compressed copy are served uncompressed)\n", err)
			}
		}()
	}
	if st, err := os.Stat(path.Join(*dir, "index.html")); err != nil || st.IsDir() {
		return &usageError{fmt.Errorf("%s has no index.html: build the site first (mcplab build -out %s, or go run ./site/cmd/mcplab build -out %s in a checkout), or serve with -build", *dir, *dir, *dir)}
	}
	ln, err := net.Listen("tcp", listen)
	if errors.Is(err, syscall.EADDRINUSE) {
		_, port, _ := net.SplitHostPort(listen)
		return fmt.Errorf("serve: %w: another server runs on port %s: stop it, or choose another port with -addr (-addr :8081) or PORT= (PORT=8081)", err, port)
	}
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	fmt.Fprintf(stdout, "serving %s at http://%s/\n", *dir, net.JoinHostPort(host, port))
	srv := &http.Server{Handler: serve.Handler(os.DirFS(*dir)), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
