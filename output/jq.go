package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"
)

// jqPrinter prints what `jq -r EXPR` would print for the document: each
// result on its own line, strings raw, other values as JSON indented with
// two spaces. Objects come out with their keys sorted, as gojq keeps them.
type jqPrinter struct {
	code *gojq.Code
	mask bool
}

func newJQPrinter(expr string, mask bool) (Printer, error) {
	query, err := gojq.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("%w: parse --jq expression: %w", ErrInvalidOptions, err)
	}
	code, err := gojq.Compile(query)
	if err != nil {
		return nil, fmt.Errorf("%w: compile --jq expression: %w", ErrInvalidOptions, err)
	}
	return jqPrinter{code: code, mask: mask}, nil
}

func (p jqPrinter) Print(w io.Writer, doc Document) error {
	input, err := decodeDocument(doc, p.mask)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var compact, pretty bytes.Buffer
	iter := p.code.Run(input)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := v.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				break
			}
			bw.Flush()
			return fmt.Errorf("--jq: %w", err)
		}
		if s, ok := v.(string); ok {
			bw.WriteString(s)
			bw.WriteByte('\n')
			continue
		}
		compact.Reset()
		pretty.Reset()
		b, err := gojq.Marshal(v)
		if err != nil {
			bw.Flush()
			return fmt.Errorf("--jq: encode result: %w", err)
		}
		compact.Write(b)
		if err := json.Indent(&pretty, compact.Bytes(), "", "  "); err != nil {
			bw.Flush()
			return fmt.Errorf("--jq: indent result: %w", err)
		}
		bw.Write(pretty.Bytes())
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write --jq output: %w", err)
	}
	return nil
}

// decodeDocument decodes the normalized document into the values jq and
// templates work on (map[string]any, []any, json.Number, ...); numbers
// keep their text, so large integers are not rounded.
func decodeDocument(doc Document, mask bool) (any, error) {
	data, err := normalizedJSON(doc, mask)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode response: %w", err)
	}
	return v, nil
}
