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

// EachTable calls fn with each table of the catalog raw and its schema's
// name, decoded as Unmarshal would, a table at a time; fn's error ends it.
func EachTable(raw []byte, fn func(schema string, table *client.TableCatalog) error) error {
	if len(raw) == 0 {
		return nil
	}
	strict := []jsonv2.Options{jsontext.AllowInvalidUTF8(false), jsontext.AllowDuplicateNames(false)}
	tables := func(dec *jsontext.Decoder, schema string) error { // the list dec is at
		return each(dec, '[', func(jsontext.Value) error {
			var table client.TableCatalog
			if err := jsonv2.UnmarshalDecode(dec, &table, strict...); err != nil {
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

// Check reports why raw, the service's answer about the catalog called
// name, is not that catalog: empty, not an object, naming no catalog or
// another, or with schemas or tables a catalog cannot hold.
func Check(raw []byte, name string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return errors.New("the answer is empty")
	}
	dec := jsondoc.NewDecoder(raw)
	if k := dec.PeekKind(); k != '{' {
		return fmt.Errorf("want an object, got %s", cmp.Or(kinds[k], "null"))
	}
	var cat struct {
		Name string `json:"name"`
	}
	if err := jsonv2.UnmarshalDecode(dec, &cat); err != nil {
		return err
	}
	switch {
	case cat.Name == "":
		return fmt.Errorf("it names no catalog, want %s", name)
	case cat.Name != name:
		return fmt.Errorf("it is %s, not %s", cat.Name, name)
	}
	return EachTable(raw, func(string, *client.TableCatalog) error { return nil })
}
