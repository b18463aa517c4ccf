//go:build (dragonfly && cgo) || (freebsd && cgo) || linux || netbsd || openbsd

package credstore

import (
	"os"

	"github.com/godbus/dbus/v5"
)

// findBus finds the D-Bus session bus the Secret Service is reached over,
// without starting one: godbus would launch a bus (which starts a keyring
// daemon) that outlives dbgov when DBUS_SESSION_BUS_ADDRESS is unset. A bus
// found where the session keeps it is named in that variable for go-keyring.
func findBus() error {
	if addr := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); addr != "" && addr != "autolaunch:" {
		return nil
	}
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return err
	}
	return conn.Close()
}
