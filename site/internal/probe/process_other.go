//go:build !unix

package probe

import "os"

// signalName names a signal that stops the probe (live.Signals).
func signalName(s os.Signal) string { return s.String() }
