package output

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/dbgov/dbgov/internal/textsafe"
)

// namePrinter prints one resource name a line (-o name).
type namePrinter struct {
	// fallback, when set, prints a result that names no resource.
	fallback Printer
}

// Print prints the resource names of doc, one a line.
func (p namePrinter) Print(ctx context.Context, w io.Writer, doc Document) error {
	if doc.Names == nil && p.fallback != nil {
		return p.fallback.Print(ctx, w, doc)
	}
	if doc.Names == nil {
		return fmt.Errorf("%w: this result has no resource names to print with -o name: use -o table, json or yaml", ErrInvalidOptions)
	}
	return style{}.output(w, false, "names", func(bw *bufio.Writer) error {
		for _, name := range doc.Names {
			if name == "" {
				continue // an item without a name has no line
			}
			// A name is one line: control characters are escaped so that a
			// hostile value cannot add lines or drive the terminal.
			bw.WriteString(textsafe.Line(name))
			bw.WriteByte('\n')
		}
		return nil
	})
}
