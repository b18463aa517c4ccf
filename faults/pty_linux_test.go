//go:build linux

package faults

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// openTerminal opens a pseudo-terminal of 200 columns in raw mode, so that
// what dbgov writes to it arrives unchanged at the controller end.
func openTerminal() (controller, terminal *os.File, err error) {
	controller, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open /dev/ptmx: %w", err)
	}
	fail := func(err error) (*os.File, *os.File, error) {
		controller.Close()
		return nil, nil, err
	}
	fd := int(controller.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		return fail(fmt.Errorf("unlock the pseudo-terminal: %w", err))
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		return fail(fmt.Errorf("number the pseudo-terminal: %w", err))
	}
	terminal, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return fail(fmt.Errorf("open the terminal end: %w", err))
	}
	tfd := int(terminal.Fd())
	if err := unix.IoctlSetWinsize(tfd, unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: 200}); err != nil {
		terminal.Close()
		return fail(fmt.Errorf("size the terminal: %w", err))
	}
	if _, err := term.MakeRaw(tfd); err != nil {
		terminal.Close()
		return fail(fmt.Errorf("put the terminal in raw mode: %w", err))
	}
	return controller, terminal, nil
}
