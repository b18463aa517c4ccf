// Package iostreamstest gives tests dbgov's streams backed by buffers.
package iostreamstest

import (
	"bytes"

	"github.com/dbgov/dbgov/internal/iostreams"
)

// New returns streams backed by buffers, none of them a terminal. Tests set
// the booleans and TermWidth to check terminal behaviour.
func New() (ios *iostreams.IOStreams, in *bytes.Buffer, out *bytes.Buffer, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &iostreams.IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}
