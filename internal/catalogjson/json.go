// Package catalogjson reads, compares and merges database catalogs in the
// JSON the service writes: schemas, their tables, the tables' columns and
// the columns' labels are matched by name or key, and every other member,
// those this version does not know included, is compared and kept as given.
package catalogjson

import (
	"bytes"
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/jsondoc"
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

// reader splits JSON objects and lists into slices of their text, with
// one decoder, checking the syntax but not that names are given once.
type reader struct {
	dec     jsontext.Decoder
	in      bytes.Buffer      // what dec reads
	names   map[string]string // the member names read, by their JSON text
	members []member          // of the objects read, until freed
	objects []object          // of the lists read, until freed
}

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
	r.dec.Reset(&r.in, jsondoc.Lenient...)
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

// EachTable calls fn with each table of the catalog raw, decoded one at a
// time into the same table, and the name of its schema; fn's error ends it.
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

// Verbatim returns the catalog file raw to send as the catalog name, with
// that name put first when it gives none; false when the file must be
// decoded (Decode refuses it, encoding what it decodes would change it) or
// names another catalog.
func Verbatim(raw []byte, name string) ([]byte, bool) {
	var cat struct {
		Name *string `json:"name"`
	}
	if jsonv2.Unmarshal(raw, &cat) != nil || !verbatim(jsontext.NewDecoder(bytes.NewBuffer(raw)), "{catalog") {
		return nil, false
	}
	if cat.Name != nil {
		return raw, *cat.Name == name
	}
	quoted, _ := json.Marshal(name)
	body := append(append(make([]byte, 0, cap(raw)+len(quoted)+10), `{"name":`...), quoted...)
	rest := bytes.TrimLeft(raw, " \t\r\n")[1:] // after the '{'
	if trimmed := bytes.TrimLeft(rest, " \t\r\n"); trimmed[0] == '}' {
		return append(body, trimmed...), true
	}
	return append(append(body, ','), rest...), true
}
