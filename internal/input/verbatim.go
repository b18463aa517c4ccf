package input

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/dbgov/dbgov/internal/jsonscan"
)

// Fields are the top-level members of a JSON object: the JSON text of each
// value, by name, pointing into the document.
type Fields map[string][]byte

// Verbatim reports whether data, a JSON object, can be sent as it is in
// place of the value Decode would decode it into (v is a pointer to a value
// of that type): Decode would accept it, and it holds nothing decoding
// would drop or spell otherwise (a null, a key in another case or given
// twice, a number, a byte order mark). It decodes nothing, so a large file
// is checked in a fraction of Decode's time and memory. When it reports
// true, it also returns the document's top-level members; when false,
// Decode decodes data or says what is wrong with it.
func Verbatim(data []byte, v any) (Fields, bool) {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || !IsJSON(data) || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) || !json.Valid(data) {
		return nil, false
	}
	c := verbatimChecker{src: data, shapes: map[reflect.Type]*shape{}}
	root := c.shapeOf(t.Elem())
	i := jsonscan.SkipSpace(data, 0)
	if root.kind != shapeStruct || data[i] != '{' {
		return nil, false
	}
	c.top = Fields{}
	if _, ok := c.check(i, root, 0); !ok {
		return nil, false
	}
	return c.top, true
}

// shape is what a Go type accepts of JSON, for Verbatim.
type shape struct {
	kind   shapeKind
	fields map[string]int // struct: field index by JSON name
	elems  []*shape       // struct: the shape of each field; else elems[0] is the element's
	enum   reflect.Type   // string: the enum type whose values must be known
}

type shapeKind int

const (
	shapeOther  shapeKind = iota // anything Verbatim leaves to Decode
	shapeStruct                  // an object with the struct's fields
	shapeMap                     // an object of string keys
	shapeSlice                   // an array
	shapeString
	shapeBool
)

type verbatimChecker struct {
	src    []byte
	shapes map[reflect.Type]*shape
	top    Fields
}

// shapeOf describes t, once per type (a type may hold itself).
func (c *verbatimChecker) shapeOf(t reflect.Type) *shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := c.shapes[t]; ok {
		return s
	}
	s := &shape{}
	c.shapes[t] = s
	switch t.Kind() {
	case reflect.Struct:
		s.kind = shapeStruct
		s.fields = map[string]int{}
		for name, ft := range jsonFields(t) {
			s.fields[name] = len(s.elems)
			s.elems = append(s.elems, c.shapeOf(ft))
		}
		if len(s.elems) > 64 {
			s.kind = shapeOther // more fields than a check keeps track of
		}
	case reflect.Map:
		if t.Key() == reflect.TypeFor[string]() {
			s.kind = shapeMap
			s.elems = []*shape{c.shapeOf(t.Elem())}
		}
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 { // []byte is base64 text
			s.kind = shapeSlice
			s.elems = []*shape{c.shapeOf(t.Elem())}
		}
	case reflect.String:
		s.kind = shapeString
		if t.Implements(knowerType) {
			s.enum = t
		}
	case reflect.Bool:
		s.kind = shapeBool
	}
	return s
}

// check checks the value at i against s and returns the offset just past
// it. depth is 0 for the document itself.
func (c *verbatimChecker) check(i int, s *shape, depth int) (int, bool) {
	switch c.src[i] {
	case '{':
		if s.kind != shapeStruct && s.kind != shapeMap {
			return 0, false
		}
		return c.object(i, s, depth)
	case '[':
		if s.kind != shapeSlice {
			return 0, false
		}
		i = jsonscan.SkipSpace(c.src, i+1)
		if c.src[i] == ']' {
			return i + 1, true
		}
		for {
			end, ok := c.check(i, s.elems[0], depth+1)
			if !ok {
				return 0, false
			}
			i = jsonscan.SkipSpace(c.src, end)
			if c.src[i] == ']' {
				return i + 1, true
			}
			i = jsonscan.SkipSpace(c.src, i+1) // ','
		}
	case '"':
		end := jsonscan.StringEnd(c.src, i)
		if s.kind != shapeString {
			return 0, false
		}
		if s.enum != nil && !c.knownEnum(s.enum, c.src[i:end]) {
			return 0, false
		}
		return end, true
	case 't', 'f':
		if s.kind != shapeBool {
			return 0, false
		}
		if c.src[i] == 't' {
			return i + len("true"), true
		}
		return i + len("false"), true
	default: // null, numbers
		return 0, false
	}
}

// object checks an object against a struct or map shape.
func (c *verbatimChecker) object(i int, s *shape, depth int) (int, bool) {
	var seen uint64 // struct fields met
	var buf [8][]byte
	keys := buf[:0] // map keys met
	i = jsonscan.SkipSpace(c.src, i+1)
	if c.src[i] == '}' {
		return i + 1, true
	}
	for {
		keyEnd := jsonscan.StringEnd(c.src, i)
		key := c.src[i+1 : keyEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return 0, false
		}
		var elem *shape
		if s.kind == shapeStruct {
			f, ok := s.fields[string(key)]
			if !ok || seen&(1<<f) != 0 {
				return 0, false // unknown, in another case, or twice
			}
			seen |= 1 << f
			elem = s.elems[f]
		} else {
			for _, k := range keys {
				if bytes.Equal(k, key) {
					return 0, false
				}
			}
			keys = append(keys, key)
			elem = s.elems[0]
		}
		i = jsonscan.SkipSpace(c.src, keyEnd)
		i = jsonscan.SkipSpace(c.src, i+1) // ':'
		end, ok := c.check(i, elem, depth+1)
		if !ok {
			return 0, false
		}
		if depth == 0 {
			c.top[string(key)] = c.src[i:end]
		}
		i = jsonscan.SkipSpace(c.src, end)
		if c.src[i] == '}' {
			return i + 1, true
		}
		i = jsonscan.SkipSpace(c.src, i+1) // ','
	}
}

// knownEnum reports whether the quoted value is a known value of enum.
func (c *verbatimChecker) knownEnum(enum reflect.Type, quoted []byte) bool {
	var text string
	if err := json.Unmarshal(quoted, &text); err != nil || text == "" {
		return false
	}
	v := reflect.New(enum).Elem()
	v.SetString(text)
	return v.Interface().(knower).Known()
}
