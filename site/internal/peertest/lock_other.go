//go:build !unix

package peertest

// lockDir locks nothing where flock(2) is missing: test binaries that run
// at once may each install a directory's packages.
func lockDir(string) (unlock func(), err error) { return func() {}, nil }
