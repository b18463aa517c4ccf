package input

import (
	"bytes"
	"io"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Fields are the top-level members of a JSON object: the JSON text of each
// value, by name, pointing into the document.
type Fields map[string][]byte

// Verbatim reports whether data, a JSON object, can be sent as it is in
// place of the value Decode would decode it into (v is a pointer to a value
// of that type): Decode would accept it, and it holds nothing decoding would
// drop or spell otherwise (a null, a number, an enum value in another case).
// It reads the document token by token and decodes nothing, so a large file
// is checked in a fraction of Decode's time and memory. When it reports
// true, it also returns the document's top-level members.
func Verbatim(data []byte, v any) (Fields, bool) {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		return nil, false
	}
	c := verbatim{dec: jsontext.NewDecoder(bytes.NewReader(data)), data: data, fields: map[reflect.Type]map[string]reflect.Type{}}
	top := Fields{}
	if !c.value(t.Elem(), top) {
		return nil, false
	}
	_, err := c.dec.ReadToken()
	return top, err == io.EOF
}

type verbatim struct {
	dec    *jsontext.Decoder
	data   []byte
	fields map[reflect.Type]map[string]reflect.Type // struct fields by JSON name
}

// value reads the next value and reports whether it is what a t holds, as
// Decode would read it. The members of an object go to top, when not nil.
func (c *verbatim) value(t reflect.Type, top Fields) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch c.dec.PeekKind() {
	case '"':
		if t.Kind() != reflect.String {
			return false
		}
		if !reflect.PointerTo(t).Implements(enumType) {
			return c.dec.SkipValue() == nil
		}
		tok, err := c.dec.ReadToken()
		if err != nil {
			return false
		}
		s, e := tok.String(), reflect.New(t).Interface().(enum)
		return s != "" && e.Set(s) == nil && reflect.ValueOf(e).Elem().String() == s
	case 't', 'f':
		return t.Kind() == reflect.Bool && c.dec.SkipValue() == nil
	case '[':
		if t.Kind() != reflect.Slice || t.Elem().Kind() == reflect.Uint8 {
			return false
		}
		if _, err := c.dec.ReadToken(); err != nil {
			return false
		}
		for c.dec.PeekKind() != ']' {
			if !c.value(t.Elem(), nil) {
				return false
			}
		}
	case '{':
		isMap := t.Kind() == reflect.Map && t.Key().Kind() == reflect.String
		if t.Kind() != reflect.Struct && !isMap {
			return false
		}
		if _, err := c.dec.ReadToken(); err != nil {
			return false
		}
		for c.dec.PeekKind() != '}' {
			name, err := c.dec.ReadValue() // a name given twice is an error
			if err != nil {
				return false
			}
			if bytes.IndexByte(name, '\\') >= 0 {
				name, _ = jsontext.AppendUnquote(nil, name)
			} else {
				name = name[1 : len(name)-1]
			}
			ft, ok := t, true
			if isMap {
				ft = t.Elem()
			} else if ft, ok = c.fieldsOf(t)[string(name)]; !ok {
				return false
			}
			start := c.dec.InputOffset()
			if !c.value(ft, nil) {
				return false
			}
			if top != nil {
				top[string(name)] = bytes.TrimLeft(c.data[start:c.dec.InputOffset()], " \t\r\n:")
			}
		}
	default: // null, numbers
		return false
	}
	_, err := c.dec.ReadToken() // the closing bracket or brace
	return err == nil
}

var enumType = reflect.TypeFor[enum]()

// fieldsOf maps the JSON names of a struct's fields to their types.
func (c *verbatim) fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := c.fields[t]; ok {
		return f
	}
	f := make(map[string]reflect.Type, t.NumField())
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f[name] = sf.Type
	}
	c.fields[t] = f
	return f
}
