// Package catalogjson reads, compares and merges database catalogs in the
// JSON the service writes: schemas, their tables, the tables' columns and
// the columns' labels are matched by name or key, and every other member,
// those this version does not know included, is compared and kept as given.
package catalogjson

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"

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
	if i := slices.IndexFunc(o.members, func(m member) bool { return m.name == name }); i >= 0 {
		return o.members[i].value
	}
	return nil
}

// reader splits JSON objects and lists into slices of their text, with
// one decoder, checking the syntax but not that names are given once.
type reader struct {
	dec     jsontext.Decoder
	in      bytes.Buffer      // what dec reads
	names   map[string]string // the member names read, by their JSON text (not nil)
	members []member          // of the objects read, until freed
	objects []object          // of the lists read, until freed
}

// kinds names the kinds of JSON values as messages do.
var kinds = map[jsontext.Kind]string{'{': "an object", '[': "a list", '"': "a string", '0': "a number", 't': "a boolean", 'f': "a boolean"}

// each reads dec's next value, an object or list as open says (null: one
// without parts), calling part to read each member, given its name, or element.
func each(dec *jsontext.Decoder, open jsontext.Kind, part func(name jsontext.Value) error) error {
	k := dec.PeekKind()
	if k != open && k != 'n' && k != 0 { // a syntax error is the token's
		return fmt.Errorf("want %s, got %s", kinds[open], kinds[k])
	}
	_, err := dec.ReadToken()
	for err == nil && k == open && dec.PeekKind() != open+2 { // '}' or ']'
		var name jsontext.Value
		if open == '{' {
			name, err = dec.ReadValue()
		}
		if err == nil {
			err = part(name)
		}
	}
	if err == nil && k == open {
		_, err = dec.ReadToken()
	}
	return err
}

// value reads the next value of v, which dec reads, as a part of v.
func value(dec *jsontext.Decoder, v jsontext.Value) (jsontext.Value, error) {
	part, err := dec.ReadValue()
	end := dec.InputOffset()
	return v[end-int64(len(part)) : end : end], err
}

// read reads the next object of v, where the decoder is (after separators).
func (r *reader) read(v jsontext.Value) (o object, err error) {
	begin, first := r.dec.InputOffset(), len(r.members)
	err = each(&r.dec, '{', func(name jsontext.Value) error {
		n, ok := r.names[string(name)]
		if !ok {
			n = unquote(name)
			r.names[string(name)] = n
		}
		part, err := value(&r.dec, v)
		if n == "name" {
			o.name = unquote(part)
		}
		r.members = append(r.members, member{n, part})
		return err
	})
	o.members, o.raw = r.members[first:len(r.members):len(r.members)], bytes.TrimLeft(v[begin:r.dec.InputOffset()], ",: \t\r\n")
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

// start points the decoder at v; false when v is absent.
func (r *reader) start(v jsontext.Value) bool {
	r.in = *bytes.NewBuffer(v)
	r.dec.Reset(&r.in, jsondoc.Lenient...)
	return len(v) > 0
}

// list reads the list v of objects, with their members (none for null).
func (r *reader) list(v jsontext.Value) (_ []object, err error) {
	first := len(r.objects)
	if r.start(v) {
		err = each(&r.dec, '[', func(jsontext.Value) error {
			o, err := r.read(v)
			r.objects = append(r.objects, o)
			return err
		})
	}
	return r.objects[first:len(r.objects):len(r.objects)], err
}

// EachTable calls fn with each table of the catalog raw and its schema's name,
// decoded as Unmarshal would, valid until fn returns; fn's error ends it. It
// reads raw once, in place, each table into the memory of the one before,
// and makes each string once for as long as the tables repeat it (names of
// columns, classifications, labels).
func EachTable(raw []byte, fn func(schema string, table *client.TableCatalog) error) error {
	if len(raw) == 0 {
		return nil
	}
	var recent [512]string // the strings read last, by hash
	seed := maphash.MakeSeed()
	str := func(v jsontext.Value) string { // a string or null
		if v.Kind() != '"' || bytes.IndexByte(v, '\\') >= 0 {
			return unquote(v)
		}
		slot := &recent[maphash.Bytes(seed, v)%uint64(len(recent))]
		if *slot != string(v[1:len(v)-1]) {
			*slot = string(v[1 : len(v)-1])
		}
		return *slot
	}
	var columns client.ColumnCatalogs // each table's, in the memory of those before
	var labels []map[string]string    // likewise, by column
	used := 0
	opts := []jsonv2.Options{jsontext.AllowInvalidUTF8(false), jsontext.AllowDuplicateNames(false),
		jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
			jsonv2.UnmarshalFromFunc(func(_ *jsontext.Decoder, c **client.ColumnCatalogs) error {
				columns.Columns, *c, used = columns.Columns[:0], &columns, 0
				return errors.ErrUnsupported
			}),
			jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, s *string) error {
				if dec.PeekKind() != '"' {
					return errors.ErrUnsupported
				}
				v, err := dec.ReadValue()
				if err == nil {
					*s = str(v)
				}
				return err
			}),
			jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, m *map[string]string) error {
				if dec.PeekKind() != '{' {
					return errors.ErrUnsupported
				}
				if used == len(labels) {
					labels = append(labels, map[string]string{})
				}
				*m, used = labels[used], used+1
				clear(*m)
				return each(dec, '{', func(name jsontext.Value) error {
					v, err := dec.ReadValue()
					if k := v.Kind(); err == nil && k != '"' && k != 'n' {
						err = fmt.Errorf("%s: want a string, got %s", dec.StackPointer(), kinds[k])
					} else if err == nil {
						(*m)[str(name)] = str(v)
					}
					return err
				})
			})))}
	var table client.TableCatalog
	tables := func(dec *jsontext.Decoder, schema string) error { // the list dec is at
		return each(dec, '[', func(jsontext.Value) error {
			table = client.TableCatalog{}
			if err := jsonv2.UnmarshalDecode(dec, &table, opts...); err != nil {
				return err
			}
			return fn(schema, &table)
		})
	}
	dec, schemas := jsondoc.NewDecoder(raw), false
	return each(dec, '{', func(member jsontext.Value) error {
		if schemas || !jsondoc.Is(member, "schemas") {
			return dec.SkipValue()
		}
		schemas = true
		return each(dec, '[', func(jsontext.Value) error {
			name, later := "", jsontext.Value(nil) // later: the tables, when the name follows them
			err := each(dec, '{', func(member jsontext.Value) (err error) {
				switch {
				case jsondoc.Is(member, "name"):
					v, err := dec.ReadValue()
					name = unquote(v)
					return err
				case later != nil || !jsondoc.Is(member, "tables"):
					return dec.SkipValue()
				case name != "":
					later = raw[:0] // read
					return tables(dec, name)
				}
				later, err = value(dec, raw)
				return err
			})
			if err != nil || len(later) == 0 {
				return err
			}
			return tables(jsondoc.NewDecoder(later), name)
		})
	})
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
	if shape == "string" || shape == "enum" {
		t, err := dec.ReadToken()
		return err == nil && t.Kind() == '"' && (shape == "string" || client.ObjectSchemaType(t.String()).Known())
	}
	return dec.PeekKind() == jsontext.Kind(shape[0]) && each(dec, jsontext.Kind(shape[0]), func(name jsontext.Value) error {
		elem := shape[1:]
		if name != nil { // as spelt
			elem = cmp.Or(shapes[elem][string(name[1:len(name)-1])], shapes[elem]["*"])
		}
		if elem == "" || !verbatim(dec, elem) {
			return errors.ErrUnsupported
		}
		return nil
	}) == nil
}

// Verbatim reads the catalog file raw once and returns what gives it to
// send as a catalog name: with that name put first when it gives none;
// false when the file must be decoded (Decode refuses it, encoding what it
// decodes would change it) or names another catalog.
func Verbatim(raw []byte) func(name string) ([]byte, bool) {
	var cat struct {
		Name *string `json:"name"`
	}
	if jsonv2.Unmarshal(raw, &cat) != nil || !verbatim(jsontext.NewDecoder(bytes.NewBuffer(raw)), "{catalog") {
		return func(string) ([]byte, bool) { return nil, false }
	}
	return func(name string) ([]byte, bool) {
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
}
