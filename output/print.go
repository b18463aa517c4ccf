package output

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/internal/textsafe"
)

// checked is what New returns: it refuses a document that means different
// things in different formats, or whose Tables and Names are Invalid for a
// format that prints them, before anything is printed, and prints nothing
// once the context is done.
type checked struct{ Printer }

// Print checks doc.Raw, when set, and prints doc with p.
func (p checked) Print(ctx context.Context, w io.Writer, doc Document) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	whole := false // the items of doc are gathered into one table
	switch p.Printer.(type) {
	case namePrinter, tablePrinter:
		if doc.Invalid != nil {
			return doc.Invalid
		}
		_, table := p.Printer.(tablePrinter)
		whole = table && doc.OneResult
		if doc.page != nil && !whole {
			return printPages(ctx, w, p, doc)
		}
	case markdownPrinter: // a Markdown table is laid out whole
		if doc.Invalid != nil && doc.Report == nil {
			return doc.Invalid
		}
		whole = true
	}
	if whole && doc.page != nil {
		var err error
		if doc, err = Whole(doc); err != nil {
			return err
		}
	}
	if doc.Raw != nil {
		if err := jsondoc.Check(doc.Raw); err != nil {
			return err
		}
	}
	return p.Printer.Print(ctx, w, doc)
}

// style is how the formats that print the document itself (json, yaml,
// --jq, --template) show it.
type style struct {
	mask bool // secret fields print as secret.Mask
	tty  bool // stdout is a terminal: what could drive it is escaped
}

// output runs print on a buffer to w, escaped on a terminal (with JSON's
// escapes when asJSON), and flushes it; what names the output in errors.
func (s style) output(w io.Writer, asJSON bool, what string, print func(*bufio.Writer) error) error {
	var tw *textsafe.Writer
	if s.tty {
		tw = textsafe.NewWriter(w, asJSON)
		w = tw
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	err := print(bw)
	ferr := bw.Flush()
	if ferr == nil && tw != nil {
		ferr = tw.Flush()
	}
	if ferr != nil && err == nil {
		err = fmt.Errorf("write %s: %w", what, ferr)
	}
	return err
}
