//go:build !linux

package faults

import (
	"errors"
	"os"
)

// openTerminal is available on Linux only; elsewhere the terminal cases skip.
func openTerminal() (controller, terminal *os.File, err error) {
	return nil, nil, errors.New("pseudo-terminals are opened on Linux only")
}
