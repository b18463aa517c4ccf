package output

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/internal/jsondoc"
)

// Items gives the items of a list page by page: it calls page with the
// list's field and each page's items, JSON as sent, and returns the first
// error, page's or its own. Such a list is printed as its pages arrive,
// never held whole, but by --jq, --template, Markdown and the table of a
// OneResult document, which take it whole. Printing returns only once Items
// has.
type Items func(page func(field string, items []json.RawMessage) error) error

// ItemsDocument is the document of the list field that items gives page by
// page: {field: [items...]}, its names and tables those of l, a page at a
// time, names relative to under in a table.
func (l List[T]) ItemsDocument(field, under string, items Items) Document {
	page := func(raw []json.RawMessage) (Document, error) { // the names and table of a page
		items := make([]T, len(raw))
		for i := range raw {
			if err := jsonv2.Unmarshal(raw[i], &items[i], jsondoc.Lenient...); err != nil { // less garbage than encoding/json's
				return Document{}, fmt.Errorf("decode an item of the list: %w", err)
			}
		}
		return l.Document(nil, "", items, under), nil
	}
	return Document{ListField: field, Items: items, page: page}
}

// Whole is doc, a list given page by page, read whole: one page of every
// item, for a command that prints many lists in one document.
func Whole(doc Document) (Document, error) {
	all := []json.RawMessage{}
	err := doc.Items(func(_ string, page []json.RawMessage) error { all = append(all, page...); return nil })
	d, perr := doc.page(all)
	d.Raw = ListJSON(doc.ListField, all)
	d.ListField = doc.ListField
	return d, cmp.Or(err, perr)
}

// ListJSON is the text of the document {field: [items...]}, its items as
// they are: as the service sent them.
func ListJSON(field string, items []json.RawMessage) []byte {
	raw, _ := jsontext.AppendQuote([]byte("{"), field)
	raw = append(raw, ":["...)
	for i, item := range items {
		if i > 0 {
			raw = append(raw, ',')
		}
		raw = append(raw, item...)
	}
	return append(raw, "]}"...)
}

// printPages prints the names or tables of doc's items with p a page at a
// time, the header of a table over the first page alone.
func printPages(ctx context.Context, w io.Writer, p Printer, doc Document) error {
	pages := 0
	err := doc.Items(func(_ string, items []json.RawMessage) error {
		page, err := doc.page(items)
		if err != nil {
			return err
		}
		if pages > 0 {
			page.Tables[0].Headers = nil
		}
		pages++
		return p.Print(ctx, w, page)
	})
	if pages == 0 && err == nil { // an empty list: a table's header
		page, _ := doc.page(nil)
		err = p.Print(ctx, w, page)
	}
	return err
}

// listReader returns the text of the document of items, {"FIELD":[...]}
// ({} when there are none), written a page at a time as they arrive, and
// stop, which ends the writing and returns once items has returned.
func listReader(items Items) (r *io.PipeReader, stop func()) {
	r, w := io.Pipe()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sep := "" // what goes before the next item: {"FIELD":[ first, then a comma
		err := items(func(field string, page []json.RawMessage) error {
			for _, item := range page {
				if sep == "" {
					q, _ := jsontext.AppendQuote(nil, field)
					sep = "{" + string(q) + ":["
				}
				if _, err := io.WriteString(w, sep); err != nil {
					return err
				}
				if _, err := w.Write(item); err != nil {
					return err
				}
				sep = ","
			}
			return nil
		})
		if end := "]}"; err == nil {
			if sep == "" {
				end = "{}"
			}
			_, err = io.WriteString(w, end)
		}
		w.CloseWithError(err)
	}()
	return r, func() {
		r.Close()
		<-finished
	}
}

// docTokens reads the tokens of doc: those of Raw, or of the document of
// Items as its pages arrive. done ends the reading, and returns once Items
// has returned.
func docTokens(doc Document, mask bool) (t *tokens, done func()) {
	if doc.Items == nil {
		return &tokens{dec: jsondoc.NewDecoder(doc.Raw), mask: mask, list: doc.ListField}, func() {}
	}
	r, stop := listReader(doc.Items)
	return &tokens{dec: jsontext.NewDecoder(r, jsondoc.Lenient...), mask: mask, list: doc.ListField}, stop
}
