// Package jsondoc reads the JSON documents the service answers with, as
// sent: one tokenizer for every format, and the checks that make an answer
// mean the same thing in each of them.
package jsondoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// ErrInvalid is wrapped by the errors of Check.
var ErrInvalid = errors.New("invalid response")

// Lenient reads JSON as encoding/json does: invalid UTF-8 in strings as
// U+FFFD (copied as sent), and keys given twice, which are left to Check.
var Lenient = []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

// MaxDepth is the deepest nesting of arrays and objects a document may
// hold: far beyond what the service sends, and shallow enough that no
// printer's indentation or recursion grows large on it.
const MaxDepth = 200

// CheckDepth reports an error when raw nests arrays and objects deeper than
// MaxDepth. It does not check that raw is JSON.
func CheckDepth(raw []byte) error {
	depth, inString, escaped := 0, false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > MaxDepth {
				return fmt.Errorf("arrays and objects nested deeper than %d", MaxDepth)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return nil
}

// NewDecoder returns a Lenient decoder reading raw in place.
func NewDecoder(raw []byte) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewBuffer(raw), Lenient...)
}

// Check reports why raw is not one valid JSON value, or holds an object
// giving a key twice or two keys that differ only in case: decoders differ
// on which of them counts, so the formats would show different values.
func Check(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("%w: the body is empty, not JSON", ErrInvalid)
	}
	dec := NewDecoder(raw)
	var objects []keys // the keys of the object open at each depth
	for {
		depth := dec.StackDepth()
		if kind, n := dec.StackIndex(depth); kind == '{' && n%2 == 0 && dec.PeekKind() == '"' {
			name, err := dec.ReadValue()
			if err != nil {
				return notJSON(err)
			}
			end := int(dec.InputOffset())
			if prev, dup := objects[depth-1].add(raw[end-len(name) : end]); dup {
				return duplicate(prev, Unquote(name), dec.StackPointer())
			}
			continue
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return notJSON(err)
		}
		if tok.Kind() == '{' {
			for len(objects) <= depth {
				objects = append(objects, keys{})
			}
			objects[depth].reset()
		}
		if dec.StackDepth() == 0 {
			break
		}
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("%w: not valid JSON: more than one value", ErrInvalid)
	}
	return nil
}

func notJSON(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("%w: not valid JSON: %s", ErrInvalid, strings.TrimPrefix(err.Error(), "jsontext: "))
}

// keys are the keys of one object, quoted as sent.
type keys struct {
	quoted  [][]byte
	escaped bool              // some key is written with escapes
	folded  map[string]string // folded name → name, once the object is large
}

func (k *keys) reset() { *k = keys{quoted: k.quoted[:0]} }

// add adds the quoted key, unless the object already has it or one
// differing only in case: then it returns that one.
func (k *keys) add(quoted []byte) (prev string, dup bool) {
	k.escaped = k.escaped || bytes.IndexByte(quoted, '\\') >= 0
	if k.folded != nil {
		name := Unquote(quoted)
		prev, dup = k.folded[fold(name)]
		if !dup {
			k.folded[fold(name)] = name
		}
		return prev, dup
	}
	for _, q := range k.quoted {
		if bytes.EqualFold(q, quoted) || k.escaped && strings.EqualFold(Unquote(q), Unquote(quoted)) {
			return Unquote(q), true
		}
	}
	k.quoted = append(k.quoted, quoted)
	if len(k.quoted) > 32 { // a linear search no longer pays
		k.folded = make(map[string]string, 2*len(k.quoted))
		for _, q := range k.quoted {
			k.folded[fold(Unquote(q))] = Unquote(q)
		}
	}
	return "", false
}

func duplicate(prev, name string, ptr jsontext.Pointer) error {
	if prev == name {
		return fmt.Errorf("%w: key %q is given twice (at %s)", ErrInvalid, name, ptr)
	}
	return fmt.Errorf("%w: keys %q and %q differ only in case (at %s)", ErrInvalid, prev, name, ptr)
}

// Unquote returns the text of a quoted JSON string, invalid UTF-8 read as
// U+FFFD.
func Unquote(quoted []byte) string {
	if raw := quoted[1 : len(quoted)-1]; bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	b, _ := jsontext.AppendUnquote(nil, quoted)
	return string(b)
}

// Is reports whether the JSON string quoted reads as name; the usual names
// are compared in place.
func Is(quoted []byte, name string) bool {
	if raw := quoted[1 : len(quoted)-1]; bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw) == name
	}
	return Unquote(quoted) == name
}

// fold maps the names that differ only in case to one string.
func fold(s string) string { return strings.ToLower(strings.ToUpper(s)) }
