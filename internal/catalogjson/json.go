// Package catalogjson reads, compares and merges database catalogs in the
// JSON the service writes: schemas, their tables, the tables' columns and
// the columns' labels are matched by name or key, and every other member,
// those this version does not know included, is compared and kept as given.
package catalogjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
)

// object is a JSON object: its members in order, each value as its JSON
// text; its "name" member as a string; its own text.
type object struct {
	members []member
	name    string
	raw     jsontext.Value
}

type member struct {
	name  string
	value jsontext.Value
}

// get returns the value of the member called name, nil when absent.
func (o object) get(name string) jsontext.Value {
	for _, m := range o.members {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// reader splits JSON objects and lists into their parts, slices of the
// text split, reusing one decoder. It checks the syntax, not that names
// are given once.
type reader struct {
	dec   jsontext.Decoder
	in    bytes.Buffer      // what dec reads
	names map[string]string // the member names read, by their JSON text
	// The members of the objects read, and the objects of the lists read;
	// merger.level frees those it read when it returns.
	members []member
	objects []object
}

// lenient are the decoder's options: duplicate names and invalid UTF-8 are
// left to who reads the values.
var lenient = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// kinds names the kinds of JSON values.
var kinds = map[jsontext.Kind]string{'{': "an object", '[': "a list", '"': "a string", '0': "a number", 't': "a boolean", 'f': "a boolean"}

// start points the decoder at v and reads its opening token, which must be
// open; null or absent, v has no parts.
func (r *reader) start(v jsontext.Value, open jsontext.Kind) (bool, error) {
	if len(v) == 0 || v.Kind() == 'n' {
		return false, nil
	}
	if v.Kind() != open {
		return false, fmt.Errorf("want %s, got %s", kinds[open], kinds[v.Kind()])
	}
	r.in = *bytes.NewBuffer(v)
	r.dec.Reset(&r.in, lenient...)
	_, err := r.dec.ReadToken()
	return err == nil, err
}

// value reads the next value (or member name) of v, where the decoder is.
func (r *reader) value(v jsontext.Value) (jsontext.Value, error) {
	part, err := r.dec.ReadValue()
	end := r.dec.InputOffset()
	return v[end-int64(len(part)) : end : end], err
}

// read reads the object of v whose '{' the decoder has just read.
func (r *reader) read(v jsontext.Value) (o object, err error) {
	begin, first := r.dec.InputOffset()-1, len(r.members)
	for r.dec.PeekKind() != '}' {
		var name, part jsontext.Value
		if name, err = r.value(v); err == nil {
			part, err = r.value(v)
		}
		if err != nil {
			return o, err
		}
		n, ok := r.names[string(name)]
		if !ok {
			if r.names == nil {
				r.names = map[string]string{}
			}
			n = unquote(name)
			r.names[string(name)] = n
		}
		if n == "name" {
			o.name = unquote(part)
		}
		r.members = append(r.members, member{n, part})
	}
	_, err = r.dec.ReadToken()
	o.members, o.raw = r.members[first:len(r.members):len(r.members)], v[begin:r.dec.InputOffset()]
	return o, err
}

// unquote is the string v, "" when v is not a string.
func unquote(v jsontext.Value) string {
	if v.Kind() == '"' && bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// object reads the object v.
func (r *reader) object(v jsontext.Value) (object, error) {
	if ok, err := r.start(v, '{'); !ok {
		return object{}, err
	}
	return r.read(v)
}

// list reads the list v of objects, with their members; null is an object
// without any.
func (r *reader) list(v jsontext.Value) ([]object, error) {
	first := len(r.objects)
	ok, err := r.start(v, '[')
	for ok && err == nil && r.dec.PeekKind() != ']' {
		var o object
		switch r.dec.PeekKind() {
		case '{':
			if _, err = r.dec.ReadToken(); err == nil {
				o, err = r.read(v)
			}
		case 'n':
			o.raw, err = r.value(v)
		default:
			err = fmt.Errorf("want an object, got %s", kinds[r.dec.PeekKind()])
		}
		r.objects = append(r.objects, o)
	}
	return r.objects[first:len(r.objects):len(r.objects)], err
}

// EachTable calls fn with each table of the catalog document raw and the
// name of its schema, in order, decoding one table at a time, so that a
// large catalog is never decoded whole. The table passed to fn is reused
// for the next; an error of fn ends the walk and is returned as it is.
func EachTable(raw []byte, fn func(schema string, table *client.TableCatalog) error) error {
	var r reader
	cat, err := r.object(raw)
	if err != nil {
		return err
	}
	schemas, err := r.list(cat.get("schemas"))
	if err != nil {
		return err
	}
	var table client.TableCatalog
	for _, schema := range schemas {
		tables, err := r.list(schema.get("tables"))
		if err != nil {
			return err
		}
		for _, t := range tables {
			table = client.TableCatalog{}
			if err := jsonv2.Unmarshal(t.raw, &table); err != nil {
				return err
			}
			if err := fn(schema.name, &table); err != nil {
				return err
			}
		}
	}
	return nil
}

// shapes says, for each object of a catalog file, what each member holds
// ("*": any member): a string, a known enum value, an object of a shape
// ({) or a list ([) of them.
var shapes = map[string]map[string]string{
	"catalog":    {"name": "string", "schemas": "[{schema"},
	"schema":     {"name": "string", "tables": "[{table"},
	"table":      {"name": "string", "columns": "{columns", "objectSchema": "{object", "classification": "string"},
	"columns":    {"columns": "[{column"},
	"column":     {"name": "string", "semanticType": "string", "labels": "{labels", "classification": "string", "objectSchema": "{object"},
	"labels":     {"*": "string"},
	"object":     {"type": "enum", "structKind": "{struct", "arrayKind": "{array", "semanticType": "string"},
	"struct":     {"properties": "{properties"},
	"properties": {"*": "{object"},
	"array":      {"kind": "{object"},
}

// verbatim reads the next value of dec, and reports whether it holds what
// shape says and nothing else: no null, no member unknown or spelt
// otherwise, no name given twice.
func verbatim(dec *jsontext.Decoder, shape string) bool {
	t, err := dec.ReadToken()
	switch {
	case err != nil:
		return false
	case shape == "string" || shape == "enum":
		return t.Kind() == '"' && (shape == "string" || client.ObjectSchemaType(t.String()).Known())
	case t.Kind() != jsontext.Kind(shape[0]):
		return false
	}
	for dec.PeekKind() != ']' && dec.PeekKind() != '}' {
		elem := shape[1:]
		if t.Kind() == '{' {
			name, err := dec.ReadValue()
			if err != nil {
				return false
			}
			var ok bool
			if elem, ok = shapes[shape[1:]][string(name[1:len(name)-1])]; !ok {
				elem = shapes[shape[1:]]["*"]
			}
		}
		if elem == "" || !verbatim(dec, elem) {
			return false
		}
	}
	_, err = dec.ReadToken()
	return err == nil
}

// Verbatim returns the catalog file raw as it can be sent for the catalog
// called name: as it is, or with that name put first when it gives none.
// It reports false when the file must be decoded instead: input.Decode
// refuses it, or what it decodes, encoded, would differ (a null, a key in
// another case), or the file names another catalog. It decodes nothing.
func Verbatim(raw []byte, name string) ([]byte, bool) {
	var r reader
	cat, err := r.object(raw)
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw))
	if err != nil || !verbatim(dec, "{catalog") {
		return nil, false
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, false
	}
	if cat.get("name") != nil {
		return raw, cat.name == name
	}
	quoted, _ := json.Marshal(name)
	body := append(append(make([]byte, 0, cap(raw)+len(quoted)+10), `{"name":`...), quoted...)
	rest := bytes.TrimLeft(raw, " \t\r\n")[1:] // after the '{'
	if trimmed := bytes.TrimLeft(rest, " \t\r\n"); trimmed[0] == '}' {
		return append(body, trimmed...), true
	}
	return append(append(body, ','), rest...), true
}
