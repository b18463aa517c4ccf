package output

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/internal/textsafe"
)

// Items gives the items of a list page by page: it calls page with the
// list's field and each page's items, JSON values as sent, and returns the
// first error, page's or its own. A list so given is printed as its pages
// arrive and never held whole, but by --jq and --template, which take the
// whole document.
type Items func(page func(field string, items []jsontext.Value) error) error

// listReader returns the text of the document of items, {"FIELD":[...]}
// ({} when there are none), written a page at a time as they arrive. Closing
// it stops the writing.
func listReader(items Items) *io.PipeReader {
	r, w := io.Pipe()
	go func() {
		var buf []byte
		open := false
		err := items(func(field string, page []jsontext.Value) error {
			for _, item := range page {
				if open {
					buf = append(buf, ',')
				} else {
					buf, _ = jsontext.AppendQuote(append(buf, '{'), field)
					buf, open = append(buf, ':', '['), true
				}
				buf = append(buf, item...)
			}
			_, err := w.Write(buf)
			buf = buf[:0]
			return err
		})
		if end := "]}"; err == nil {
			if !open {
				end = "{}"
			}
			_, err = io.WriteString(w, end)
		}
		w.CloseWithError(err)
	}()
	return r
}

// docTokens reads the tokens of doc: those of Raw, or of the document of
// Items as its pages arrive. done ends the reading.
func docTokens(doc Document, mask bool) (t *tokens, done func()) {
	if doc.Items == nil {
		return newTokens(doc.Raw, mask, doc.ListField), func() {}
	}
	r := listReader(doc.Items)
	return &tokens{dec: jsontext.NewDecoder(r, jsondoc.Lenient...), mask: mask, list: doc.ListField}, func() { r.Close() }
}

// errStop ends the pages of Items early, once enough was read.
var errStop = errors.New("stop")

// ItemsDocument is the document of the list field that items gives page by
// page, printed as its pages arrive; the names are relative to under in a
// table.
func (l List[T]) ItemsDocument(field, under string, items Items) Document {
	return Document{ListField: field, Items: items, Tables: func() []Table { return []Table{l.ItemsTable(items, under)} }}
}

// WholeDocument is ItemsDocument read whole, for a command that prints many
// lists in one document.
func (l List[T]) WholeDocument(field, under string, items Items) (Document, error) {
	raw, err := io.ReadAll(listReader(items))
	var list map[string][]T
	if err == nil {
		err = json.Unmarshal(raw, &list)
	}
	return Document{Raw: raw, ListField: field, Names: func() []string { return l.Names(list[field]) },
		Tables: func() []Table { return []Table{l.Table(list[field], under)} }}, err
}

// ItemsTable is the table of the items of a list given page by page, each
// decoded as T, their names shown relative to under.
func (l List[T]) ItemsTable(items Items, under string) Table {
	t := TableEach(l.Columns, func(yield func(*T) bool) error {
		err := items(func(field string, page []jsontext.Value) error {
			for _, raw := range page {
				var item T
				if err := json.Unmarshal(raw, &item); err != nil {
					return fmt.Errorf("decode an item of %s: %w", field, err)
				}
				if !yield(&item) {
					return errStop
				}
			}
			return nil
		})
		if errors.Is(err, errStop) {
			return nil
		}
		return err
	})
	t.Under = under
	return t
}

// chunkRows is how many rows of a list given page by page a table lays out
// together.
const chunkRows = 1000

// renderChunks prints the table of a list given page by page, chunkRows rows
// at a time, each chunk laid out alone and the header over the first, so
// that the list is never held whole.
func (p tablePrinter) renderChunks(w *bufio.Writer, t Table) error {
	var rows [][]string
	var err error
	flush := func() {
		chunk := t
		chunk.Each, chunk.Rows = nil, rows
		err, rows, t.Headers = p.render(w, chunk), rows[:0], nil
	}
	eachErr := t.EachRow(func(row []string) bool {
		if rows = append(rows, slices.Clone(row)); len(rows) == chunkRows {
			flush()
		}
		return err == nil
	})
	if err == nil && eachErr == nil && (len(rows) > 0 || t.Headers != nil) {
		flush()
	}
	return cmp.Or(eachErr, err)
}

// printItemNames prints the name field of each item of a list given page by
// page, one a line.
func printItemNames(w io.Writer, items Items) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	err := items(func(_ string, page []jsontext.Value) error {
		for _, raw := range page {
			var item struct{ Name string }
			if err := json.Unmarshal(raw, &item); err != nil {
				return fmt.Errorf("read the name of an item: %w", err)
			}
			if item.Name != "" {
				bw.WriteString(textsafe.Line(item.Name))
				bw.WriteByte('\n')
			}
		}
		return nil
	})
	if ferr := bw.Flush(); ferr != nil && err == nil {
		err = fmt.Errorf("write names: %w", ferr)
	}
	return err
}
