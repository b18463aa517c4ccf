// Package iostreams carries the standard streams of a dbgov run and what is
// known about them, so that commands can be tested with plain buffers and
// with either terminal or piped output.
package iostreams

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/secret"
)

// IOStreams carries the standard streams and what is known about them.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InTTY, OutTTY and ErrTTY tell whether each stream is a terminal.
	InTTY, OutTTY, ErrTTY bool

	// ColorEnabled and ErrColorEnabled tell whether stdout and stderr get
	// colour: each is a terminal, NO_COLOR is unset or empty, and TERM is
	// not "dumb"; unless --color says otherwise (SetColor).
	ColorEnabled, ErrColorEnabled bool

	// TermWidth is the width of stdout's terminal in columns, 0 when unknown
	// or when stdout is not a terminal.
	TermWidth int

	// JSONErrors tells whether stderr takes one JSON value a line (errors,
	// warnings): when the output is for programs (-o json, --jq, --template).
	JSONErrors bool
	// Secrets masks the run's credentials in what stderr says; nil masks none.
	Secrets *secret.Scrubber
}

// System returns the process's standard streams, with terminal detection
// and the NO_COLOR convention honoured. It only asks the operating system
// about the three descriptors, so it stays cheap at start-up.
func System() *IOStreams {
	return detect(os.Getenv, term.IsTerminal, termWidth, os.Stdin, os.Stdout, os.Stderr)
}

// termWidth returns the width of the terminal fd, 0 when unknown.
func termWidth(fd int) int {
	w, _, _ := term.GetSize(fd)
	return max(w, 0)
}

// detect builds the streams from three files and what the environment
// (getenv) and the terminal (isTerminal, width) say about them; tests give
// their own.
func detect(getenv func(string) string, isTerminal func(fd int) bool, width func(fd int) int, in, out, errOut *os.File) *IOStreams {
	ios := &IOStreams{
		In:     in,
		Out:    out,
		ErrOut: errOut,
		InTTY:  isTerminal(int(in.Fd())),
		OutTTY: isTerminal(int(out.Fd())),
		ErrTTY: isTerminal(int(errOut.Fd())),
	}
	if ios.OutTTY {
		ios.TermWidth = width(int(out.Fd()))
		ios.ColorEnabled = colorAllowed(getenv)
	}
	ios.ErrColorEnabled = ios.ErrTTY && colorAllowed(getenv)
	return ios
}

// colorAllowed applies NO_COLOR (any non-empty value turns colour off, as
// no-color.org describes) and TERM=dumb.
func colorAllowed(getenv func(string) string) bool {
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// SetColor applies --color: auto keeps what the terminals allow, always and
// never decide for both streams; another value is a usage error.
func (s *IOStreams) SetColor(when string) error {
	switch when {
	case "auto", "":
	case "always", "never":
		s.ColorEnabled, s.ErrColorEnabled = when == "always", when == "always"
	default:
		return exitcode.Usagef("--color must be auto, always or never, not %q", when)
	}
	return nil
}

// Warn says msg on stderr: a "warning:" line, or under JSONErrors a line
// {"warning": msg}, so that stderr stays one JSON value a line.
func (s *IOStreams) Warn(msg string) {
	msg = s.Secrets.String(msg)
	if s.JSONErrors {
		line, _ := json.Marshal(map[string]string{"warning": msg})
		fmt.Fprintf(s.ErrOut, "%s\n", line)
		return
	}
	fmt.Fprintf(s.ErrOut, "warning: %s\n", msg)
}

// Note says msg on stderr as a "note:" line, on a terminal only.
func (s *IOStreams) Note(msg string) {
	if s.ErrTTY {
		fmt.Fprintf(s.ErrOut, "note: %s\n", s.Secrets.String(msg))
	}
}
