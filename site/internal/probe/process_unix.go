//go:build unix

package probe

import (
	"os"
	"syscall"
)

// signalName is the conventional name of a signal that stops the probe
// (live.Signals: "SIGTERM").
func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
