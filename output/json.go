package output

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/internal/secret"
)

// jsonPrinter prints the document as the service sent it, re-indented, or
// compact on one line (-o jsonl).
type jsonPrinter struct {
	style
	line bool
}

// Print prints doc as indented JSON, secrets masked unless shown.
func (p jsonPrinter) Print(_ context.Context, w io.Writer, doc Document) error {
	return p.output(w, true, "JSON output", func(bw *bufio.Writer) error {
		t, done := docTokens(doc, p.mask)
		defer done()
		return writeJSON(bw, t, !p.line, p.line && doc.Items != nil && !doc.OneResult)
	})
}

// writeJSON writes the JSON document of t to w, indented with two spaces or
// compact, and otherwise as sent: key order, string escapes and the text of
// numbers are kept. items writes the items of its list instead, a line each.
func writeJSON(w io.Writer, t *tokens, indent, items bool) error {
	enc := jsontext.NewEncoder(w, jsontext.WithIndent("  "), jsontext.Multiline(indent), jsontext.PreserveRawStrings(true),
		jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	for {
		before := t.dec.StackDepth() // an item's tokens are at depth 2 and more, in {"list": [...]}
		tok, err := t.next()
		if err == io.EOF {
			return nil
		}
		if after := t.dec.StackDepth(); err == nil && (!items || before >= 2 && after >= 2) {
			err = enc.WriteToken(tok)
		}
		if err != nil {
			return err
		}
	}
}

// tokens reads the tokens of a document as every format shows it: secret
// values masked when mask is set, and list, a field of a top-level object,
// ensured as [] when absent or null. A token read is valid until the next.
type tokens struct {
	dec     *jsontext.Decoder
	mask    bool
	list    string           // "" once met
	pending []jsontext.Token // given before reading on
	secret  bool             // the value that comes next is a secret's
	listed  bool             // the value that comes next is the list's
}

// next returns the next token, or io.EOF after the document.
func (t *tokens) next() (jsontext.Token, error) {
	switch {
	case len(t.pending) > 0:
		tok := t.pending[0]
		t.pending = t.pending[1:]
		return tok, nil
	case t.secret:
		t.secret = false
		v, err := t.dec.ReadValue()
		if err != nil || !isEmpty(v) {
			return jsontext.String(secret.Mask), err
		}
		return t.empty(v.Kind()), nil
	case t.listed:
		t.listed = false
		if t.dec.PeekKind() == 'n' {
			return t.empty('['), t.dec.SkipValue()
		}
	}
	if t.list != "" && t.dec.StackDepth() == 1 && t.dec.PeekKind() == '}' {
		name := t.list
		t.list = ""
		t.pending = []jsontext.Token{jsontext.BeginArray, jsontext.EndArray}
		return jsontext.String(name), nil
	}
	tok, err := t.dec.ReadToken()
	if err != nil || tok.Kind() != '"' {
		return tok, err
	}
	depth := t.dec.StackDepth()
	if kind, n := t.dec.StackIndex(depth); kind != '{' || n%2 == 0 {
		return tok, nil // a string value, not a name
	}
	switch name := tok.String(); {
	case depth == 1 && t.list != "" && name == t.list:
		t.list, t.listed = "", true
	case t.mask && secret.IsData(name):
		t.secret = true
	}
	return tok, nil
}

// members reads the members of the object, or the elements of the array,
// that open, its first token, has begun, to its end: fn reads each value,
// given its first token and, in an object, its name.
func (t *tokens) members(open jsontext.Kind, fn func(name string, first jsontext.Token) error) error {
	for {
		tok, err := t.next()
		if err != nil || tok.Kind() == '}' || tok.Kind() == ']' {
			return err
		}
		name := ""
		if open == '{' {
			name = tok.String()
			if tok, err = t.next(); err != nil {
				return err
			}
		}
		if err := fn(name, tok); err != nil {
			return err
		}
	}
}

// empty returns the first token of the empty value of kind, the others
// pending.
func (t *tokens) empty(kind jsontext.Kind) jsontext.Token {
	switch kind {
	case '"':
		return jsontext.String("")
	case '[':
		t.pending = append(t.pending, jsontext.EndArray)
		return jsontext.BeginArray
	case '{':
		t.pending = append(t.pending, jsontext.EndObject)
		return jsontext.BeginObject
	}
	return jsontext.Null
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

// decodeDocument decodes doc as encoding/json does with UseNumber, for jq and
// templates: secrets masked when mask is set, the list field ensured.
func decodeDocument(doc Document, mask bool) (any, error) {
	t, done := docTokens(doc, mask)
	defer done()
	return readValue(t)
}

// readValue decodes the next value of t.
func readValue(t *tokens) (any, error) {
	tok, err := t.next()
	if err != nil {
		return nil, err
	}
	return value(tok, t)
}

// value decodes the value that starts with tok.
func value(tok jsontext.Token, t *tokens) (any, error) {
	switch tok.Kind() {
	case '{':
		m := map[string]any{}
		return m, t.members(tok.Kind(), func(name string, first jsontext.Token) (err error) {
			m[name], err = value(first, t)
			return err
		})
	case '[':
		a := []any{}
		err := t.members(tok.Kind(), func(_ string, first jsontext.Token) error {
			v, err := value(first, t)
			a = append(a, v)
			return err
		})
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
