// Package iostreams carries the standard streams of a dbgov run and what is
// known about them, so that commands can be tested with plain buffers and
// with either terminal or piped output.
package iostreams

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams carries the standard streams and what is known about them.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InTTY, OutTTY and ErrTTY tell whether each stream is a terminal.
	InTTY, OutTTY, ErrTTY bool

	// ColorEnabled is true when stdout is a terminal, NO_COLOR is unset or
	// empty, and TERM is not "dumb".
	ColorEnabled bool

	// TermWidth is the width of stdout's terminal in columns, 0 when unknown
	// or when stdout is not a terminal.
	TermWidth int
}

// System returns the process's standard streams, with terminal detection
// and the NO_COLOR convention honoured. It only asks the operating system
// about the three descriptors, so it stays cheap at start-up.
func System() *IOStreams {
	return detect(systemEnv{}, os.Stdin, os.Stdout, os.Stderr)
}

// environment is what detect asks of the operating system; tests fake it.
type environment interface {
	Getenv(key string) string
	IsTerminal(fd int) bool
	Width(fd int) int
}

// systemEnv asks the real process environment and terminal.
type systemEnv struct{}

func (systemEnv) Getenv(key string) string { return os.Getenv(key) }

func (systemEnv) IsTerminal(fd int) bool { return term.IsTerminal(fd) }

func (systemEnv) Width(fd int) int {
	w, _, err := term.GetSize(fd)
	if err != nil || w < 0 {
		return 0
	}
	return w
}

// detect builds the streams from three files and what env says about them.
func detect(env environment, in, out, errOut *os.File) *IOStreams {
	ios := &IOStreams{
		In:     in,
		Out:    out,
		ErrOut: errOut,
		InTTY:  env.IsTerminal(int(in.Fd())),
		OutTTY: env.IsTerminal(int(out.Fd())),
		ErrTTY: env.IsTerminal(int(errOut.Fd())),
	}
	if ios.OutTTY {
		ios.TermWidth = env.Width(int(out.Fd()))
		ios.ColorEnabled = colorAllowed(env)
	}
	return ios
}

// colorAllowed applies NO_COLOR (any non-empty value turns colour off, as
// no-color.org describes) and TERM=dumb.
func colorAllowed(env environment) bool {
	return env.Getenv("NO_COLOR") == "" && env.Getenv("TERM") != "dumb"
}
