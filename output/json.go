package output

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/internal/secret"
)

// jsonPrinter prints the document as the service sent it, re-indented.
type jsonPrinter struct{ style }

// Print prints doc as indented JSON, secrets masked unless shown.
func (p jsonPrinter) Print(_ context.Context, w io.Writer, doc Document) error {
	return p.output(w, true, "JSON output", func(bw *bufio.Writer) error {
		return writeJSON(bw, doc.Raw, doc.ListField, p.mask)
	})
}

// writeJSON writes the JSON document raw to w indented with two spaces and
// otherwise as sent: key order, string escapes and the text of numbers are
// kept. Secrets are masked when mask is set, and list, a field of a
// top-level object, is ensured as [] when absent or null.
func writeJSON(w io.Writer, raw []byte, list string, mask bool) error {
	f := formatter{
		dec: jsondoc.NewDecoder(raw),
		enc: jsontext.NewEncoder(w, jsontext.WithIndent("  "), jsontext.PreserveRawStrings(true),
			jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)),
		list: list,
		mask: mask,
	}
	return f.value(0)
}

type formatter struct {
	dec  *jsontext.Decoder
	enc  *jsontext.Encoder
	list string
	mask bool
}

func (f *formatter) value(depth int) error {
	switch f.dec.PeekKind() {
	case '{':
		return f.object(depth)
	case '[':
		if err := f.copyToken(); err != nil {
			return err
		}
		for f.dec.PeekKind() != ']' {
			if err := f.value(depth + 1); err != nil {
				return err
			}
		}
		return f.copyToken()
	}
	v, err := f.dec.ReadValue()
	if err != nil {
		return err
	}
	return f.enc.WriteValue(v)
}

func (f *formatter) object(depth int) error {
	if err := f.copyToken(); err != nil {
		return err
	}
	ensureList := depth == 0 && f.list != ""
	for f.dec.PeekKind() == '"' {
		name, err := f.dec.ReadValue()
		if err != nil {
			return err
		}
		if err := f.enc.WriteValue(name); err != nil {
			return err
		}
		key := keyText(name)
		switch {
		case ensureList && string(key) == f.list && f.dec.PeekKind() == 'n':
			if err = f.dec.SkipValue(); err == nil {
				err = f.writeEmptyList()
			}
		case f.mask && secret.IsData(string(key)):
			var v jsontext.Value
			if v, err = f.dec.ReadValue(); err == nil && !isEmpty(v) {
				v = jsontext.Value(`"` + secret.Mask + `"`)
			}
			if err == nil {
				err = f.enc.WriteValue(v)
			}
		default:
			err = f.value(depth + 1)
		}
		if err != nil {
			return err
		}
		ensureList = ensureList && string(key) != f.list
	}
	if ensureList {
		if err := f.enc.WriteToken(jsontext.String(f.list)); err != nil {
			return err
		}
		if err := f.writeEmptyList(); err != nil {
			return err
		}
	}
	return f.copyToken()
}

func (f *formatter) writeEmptyList() error {
	if err := f.enc.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	return f.enc.WriteToken(jsontext.EndArray)
}

func (f *formatter) copyToken() error {
	tok, err := f.dec.ReadToken()
	if err != nil {
		return err
	}
	return f.enc.WriteToken(tok)
}

// keyText returns the text of a quoted key: a slice of it, but for a key
// written with escapes or invalid UTF-8.
func keyText(quoted []byte) []byte {
	if raw := quoted[1 : len(quoted)-1]; bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return raw
	}
	return []byte(jsondoc.Unquote(quoted))
}

// isEmpty reports whether the JSON value v is "", [], {} or null: a secret
// field holding one hides nothing and prints as it is.
func isEmpty(v jsontext.Value) bool {
	switch v.Kind() {
	case 'n':
		return true
	case '"', '[', '{':
		return len(bytes.TrimSpace(v[1:len(v)-1])) == 0
	}
	return false
}

// decodeDocument decodes doc into the values jq and templates work on:
// map[string]any, []any, string, json.Number, bool and nil, as encoding/json
// does with UseNumber, secrets masked when mask is set and the list field
// ensured. Numbers keep their text, so they print as the service sent them.
func decodeDocument(doc Document, mask bool) (any, error) {
	v, err := newValueReader(mask).read(jsondoc.NewDecoder(doc.Raw))
	if m, ok := v.(map[string]any); ok && doc.ListField != "" && m[doc.ListField] == nil {
		m[doc.ListField] = []any{}
	}
	return v, err
}

// valueReader decodes values, giving keys that repeat from one object to
// the next (every object of a list has the same) one shared string, and
// each object the size of the last one met at its depth.
type valueReader struct {
	mask  bool
	keys  map[string]string
	sizes [8]int
}

func newValueReader(mask bool) *valueReader {
	return &valueReader{mask: mask, keys: make(map[string]string)}
}

// read decodes the value dec is at.
func (r *valueReader) read(dec *jsontext.Decoder) (any, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{':
		depth := min(dec.StackDepth(), len(r.sizes)) - 1
		m := make(map[string]any, r.sizes[depth])
		for dec.PeekKind() == '"' {
			name, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			key := r.key(name)
			if m[key], err = r.member(dec, key); err != nil {
				return nil, err
			}
		}
		r.sizes[depth] = len(m)
		_, err := dec.ReadToken()
		return m, err
	case '[':
		a := []any{}
		for dec.PeekKind() != ']' {
			v, err := r.read(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.ReadToken()
		return a, err
	case '"':
		return tok.String(), nil
	case '0':
		return json.Number(tok.String()), nil
	case 't', 'f':
		return tok.Bool(), nil
	}
	return nil, nil
}

// member decodes the value of the object member key, masked when it is a
// secret.
func (r *valueReader) member(dec *jsontext.Decoder, key string) (any, error) {
	if !r.mask || !secret.IsData(key) {
		return r.read(dec)
	}
	v, err := dec.ReadValue()
	switch {
	case err != nil:
		return nil, err
	case !isEmpty(v):
		return secret.Mask, nil
	}
	switch v.Kind() {
	case '"':
		return "", nil
	case '[':
		return []any{}, nil
	case '{':
		return map[string]any{}, nil
	}
	return nil, nil
}

// key returns the text of a quoted key, the same string each time.
func (r *valueReader) key(quoted jsontext.Value) string {
	if k, ok := r.keys[string(quoted)]; ok {
		return k
	}
	k := jsondoc.Unquote(quoted)
	r.keys[string(quoted)] = k
	return k
}
