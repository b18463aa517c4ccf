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

// readObject reads the object of v that dec is at (after separators),
// each member's value as its text in v.
func readObject(dec *jsontext.Decoder, v jsontext.Value) (o object, err error) {
	begin := dec.InputOffset()
	err = each(dec, '{', func(name jsontext.Value) error {
		part, err := value(dec, v)
		n := unquote(name)
		if n == "name" {
			o.name = unquote(part)
		}
		o.members = append(o.members, member{n, part})
		return err
	})
	o.raw = bytes.TrimLeft(v[begin:dec.InputOffset()], ",: \t\r\n")
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

// readList reads the list v of objects (absent or null: none).
func readList(v jsontext.Value) (objects []object, err error) {
	if len(v) == 0 {
		return nil, nil
	}
	dec := jsondoc.NewDecoder(v)
	err = each(dec, '[', func(jsontext.Value) error {
		o, err := readObject(dec, v)
		objects = append(objects, o)
		return err
	})
	return objects, err
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
// another, or with schemas or tables that are not lists of objects.
func Check(raw []byte, name string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return errors.New("the answer is empty")
	}
	dec := jsondoc.NewDecoder(raw)
	if k := dec.PeekKind(); k != '{' {
		return fmt.Errorf("want an object, got %s", cmp.Or(kinds[k], "null"))
	}
	cat, err := readObject(dec, raw)
	switch {
	case err != nil:
		return err
	case cat.name == "":
		return fmt.Errorf("it names no catalog, want %s", name)
	case cat.name != name:
		return fmt.Errorf("it is %s, not %s", cat.name, name)
	}
	schemas, err := readList(cat.get("schemas"))
	for _, s := range schemas {
		if err == nil {
			_, err = readList(s.get("tables"))
		}
	}
	return err
}
