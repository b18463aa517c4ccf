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
// stdin, and returns it without surrounding space. An empty value, at a
// prompt as on stdin, is a usage error.
func (s *IOStreams) ReadLine(what string, hidden bool) (string, error) {
	var line []byte
	var err error
	f, ok := s.In.(interface{ Fd() uintptr })
	prompt := ok && s.InTTY && term.IsTerminal(int(f.Fd()))
	if prompt {
		fmt.Fprintf(s.ErrOut, "%s: ", what)
	}
	if prompt && hidden {
		line, err = term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(s.ErrOut)
	} else if line, err = bufio.NewReader(io.LimitReader(s.In, 1<<20)).ReadBytes('\n'); errors.Is(err, io.EOF) {
		err = nil
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
