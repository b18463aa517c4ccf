package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/itchyny/gojq"
)

// jqPrinter prints what `jq -r EXPR` would print for the document: each
// result on its own line, strings raw, other values as JSON indented with
// two spaces, numbers as jq 1.6 prints them (1.10 as 1.1, 1e2 as 100,
// 1e-5 as 1e-05). Two differences remain: objects come out with their keys
// sorted, as gojq keeps them, and integers are exact at any size where jq
// 1.6 rounds them to a double.
type jqPrinter struct {
	code *gojq.Code
	// stream, when not nil, runs the expression one element of a list at a
	// time (see jqStream).
	stream *jqStream
	mask   bool
}

// newJQPrinter compiles expr. The expression sees the environment of the
// process as it is now, as env and $ENV, as jq lets it.
func newJQPrinter(expr string, mask bool) (Printer, error) {
	query, err := gojq.Parse(expr)
	if err != nil {
		return nil, FilterError{fmt.Errorf("%w: parse --jq expression: %w", ErrInvalidOptions, err)}
	}
	environ := publicEnviron(os.Environ())
	withEnv := gojq.WithEnvironLoader(func() []string { return environ })
	code, err := gojq.Compile(query, withEnv)
	if err != nil {
		return nil, FilterError{fmt.Errorf("%w: compile --jq expression: %w", ErrInvalidOptions, err)}
	}
	return jqPrinter{code: code, stream: newJQStream(query, withEnv), mask: mask}, nil
}

// errHalted stops a run on jq's halt.
var errHalted = errors.New("halted")

// Print prints the results of the --jq expression on doc, one a line.
func (p jqPrinter) Print(w io.Writer, doc Document) error {
	if !json.Valid(doc.Raw) {
		return invalidJSON(doc.Raw)
	}
	out := jqWriter{w: bufio.NewWriterSize(w, 64<<10)}
	streamed := false
	var err error
	dec := newValueDecoder(p.mask, true)
	if p.stream != nil {
		// Decoded a piece at a time, the document's values are garbage as
		// soon as printed; decoded whole, they all stay live and lowering
		// the headroom would only make the collector run more often.
		streamed, err = p.stream.walk(doc.Raw, p.mask, doc.ListField, func(elem []byte) error {
			return out.run(p.stream.rest, dec.decode(elem, ""))
		})
	}
	if !streamed {
		err = out.run(p.code, dec.decode(doc.Raw, doc.ListField))
	}
	if err != nil && !errors.Is(err, errHalted) {
		out.w.Flush()
		return err
	}
	if err := out.w.Flush(); err != nil {
		return fmt.Errorf("write --jq output: %w", err)
	}
	return nil
}

// jqWriter prints the results of jq runs.
type jqWriter struct {
	w               *bufio.Writer
	compact, pretty bytes.Buffer
	number          [32]byte
}

// run prints the results of code on input; it returns errHalted when the
// expression halted.
func (o *jqWriter) run(code *gojq.Code, input any) error {
	iter := code.Run(input)
	for {
		v, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := v.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return errHalted
			}
			return FilterError{fmt.Errorf("--jq: %w", err)}
		}
		if s, ok := v.(string); ok {
			o.w.WriteString(s)
			o.w.WriteByte('\n')
			continue
		}
		if f, ok := v.(float64); ok {
			o.w.Write(appendJQFloat(o.number[:0], f))
			o.w.WriteByte('\n')
			continue
		}
		o.compact.Reset()
		o.pretty.Reset()
		v, _ = jqFloats(v)
		b, err := gojq.Marshal(v)
		if err != nil {
			return fmt.Errorf("--jq: encode result: %w", err)
		}
		o.compact.Write(b)
		if err := json.Indent(&o.pretty, o.compact.Bytes(), "", "  "); err != nil {
			return fmt.Errorf("--jq: indent result: %w", err)
		}
		o.w.Write(o.pretty.Bytes())
		o.w.WriteByte('\n')
	}
}

// decodeDocument decodes the document into the values templates work on
// (map[string]any, []any, json.Number, ...), secrets masked and the list
// field ensured; numbers keep their text, as -o json prints them, so large
// integers are not rounded.
func decodeDocument(doc Document, mask bool) (any, error) {
	if !json.Valid(doc.Raw) {
		return nil, invalidJSON(doc.Raw)
	}
	return decodeValue(doc.Raw, mask, doc.ListField), nil
}

// credentialVariables are the environment variables that hold dbgov's
// credentials: $ENV and env in an expression do not see them, so that a
// filter cannot print them.
var credentialVariables = []string{"DBGOV_TOKEN", "DBGOV_SERVICE_KEY"}

// publicEnviron is environ without the variables holding credentials.
func publicEnviron(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(credentialVariables, name) {
			out = append(out, kv)
		}
	}
	return out
}
