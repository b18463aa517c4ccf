package iostreams

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/term"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// ReadLine reads what (a token, a setting's value) from a prompt when stdin
// is a terminal, without echo when hidden, else from the first line of
// stdin, and returns it without surrounding space. An empty value is a
// usage error.
func (s *IOStreams) ReadLine(what string, hidden bool) (string, error) {
	var line []byte
	var err error
	if f, ok := s.In.(interface{ Fd() uintptr }); ok && s.InTTY && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(s.ErrOut, "%s: ", what)
		if hidden {
			line, err = term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(s.ErrOut)
		}
	}
	if line == nil && err == nil {
		if line, err = bufio.NewReader(io.LimitReader(s.In, 1<<20)).ReadBytes('\n'); errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("read the %s: %w", what, err)
	}
	value := strings.TrimSpace(string(line))
	if value == "" {
		return "", exitcode.Usagef("no value for %s on standard input: give it on the first line", what)
	}
	return value, nil
}
