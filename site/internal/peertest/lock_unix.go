//go:build unix

package peertest

import (
	"os"
	"syscall"
)

// lockDir holds an exclusive lock on dir/.peertest.lock until unlock is
// called: test binaries that run at once (go test ./site/... runs the
// command's and package probe's side by side) install a directory's
// packages one at a time, never two npm ci over each other.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(dir+"/.peertest.lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
