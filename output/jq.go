package output

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/itchyny/gojq"
)

// jqPrinter prints what `jq -r EXPR` prints for the document: each result
// on its own line, strings raw, other values as JSON indented with two
// spaces, numbers the service sent as it wrote them. Objects come out with
// their keys sorted, as gojq keeps them.
type jqPrinter struct {
	style
	code *gojq.Code
	// stream, when not nil, runs the expression one element of a list at a
	// time (see jqStream).
	stream *jqStream
}

// newJQPrinter compiles expr. The expression sees the environment of the
// process as it is now, as env and $ENV, as jq lets it, but the variables
// named hidden.
func newJQPrinter(expr string, s style, hidden []string) (Printer, error) {
	query, err := gojq.Parse(expr)
	if err != nil {
		return nil, FilterError{fmt.Errorf("%w: parse --jq expression: %w", ErrInvalidOptions, err)}
	}
	// $ENV and env see the environment without the variables named hidden.
	environ := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(hidden, name)
	})
	withEnv := gojq.WithEnvironLoader(func() []string { return environ })
	code, err := gojq.Compile(query, withEnv)
	if err != nil {
		return nil, FilterError{fmt.Errorf("%w: compile --jq expression: %w", ErrInvalidOptions, err)}
	}
	return jqPrinter{style: s, code: code, stream: newJQStream(query, withEnv)}, nil
}

// errHalted stops a run on jq's halt.
var errHalted = errors.New("halted")

// Print prints the results of the --jq expression on doc, one a line.
func (p jqPrinter) Print(ctx context.Context, w io.Writer, doc Document) error {
	return p.output(w, false, "--jq output", func(bw *bufio.Writer) error {
		out := jqWriter{ctx: ctx, w: bw}
		streamed := false
		var err error
		if p.stream != nil && doc.Items == nil {
			// Decoded a piece at a time, the document's values are garbage as
			// soon as printed.
			streamed, err = p.stream.walk(doc.Raw, p.mask, doc.ListField, func(v any) error {
				if p.stream.rest == nil {
					return out.print(v)
				}
				return out.run(p.stream.rest, v)
			})
		}
		if !streamed && err == nil {
			var v any
			if v, err = decodeDocument(doc, p.mask); err == nil {
				err = out.run(p.code, v)
			}
		}
		if errors.Is(err, errHalted) {
			return nil
		}
		return err
	})
}

// jqWriter prints the results of jq runs.
type jqWriter struct {
	ctx context.Context
	w   *bufio.Writer
}

// run prints the results of code on input; it returns errHalted when the
// expression halted, and the context's cause once it is done.
func (o jqWriter) run(code *gojq.Code, input any) error {
	iter := code.RunWithContext(o.ctx, input)
	for {
		v, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := v.(error); ok {
			var halt *gojq.HaltError
			switch {
			case o.ctx.Err() != nil:
				return context.Cause(o.ctx)
			case errors.As(err, &halt) && halt.Value() == nil:
				return errHalted
			}
			// %v: gojq's errors carry jq's own exit codes, which are not dbgov's.
			return FilterError{fmt.Errorf("--jq: %v", err)}
		}
		if err := o.print(v); err != nil {
			return err
		}
	}
}

// print prints a result on a line: a string as it is, anything else as
// indented JSON.
func (o jqWriter) print(v any) error {
	if s, ok := v.(string); ok {
		o.w.WriteString(s)
	} else {
		b, err := gojq.Marshal(v)
		if err != nil {
			return fmt.Errorf("--jq: encode result: %w", err)
		}
		jv := jsontext.Value(b)
		if err := jv.Indent(jsontext.WithIndent("  ")); err != nil {
			return fmt.Errorf("--jq: indent result: %w", err)
		}
		o.w.Write(jv)
	}
	return o.w.WriteByte('\n')
}
