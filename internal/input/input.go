// Package input reads the files dbgov sends (catalogs, revisions, request
// bodies) and decodes them strictly: JSON or YAML, an unknown field, a wrong
// type or an unknown enum value refused with the field's path and, where the
// parser knows it, its line.
package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/jsonscan"
)

// ErrInvalid is wrapped by every error about an input file: the command layer
// treats it as a usage error, and nothing is sent.
var ErrInvalid = errors.New("invalid input")

// maxSize bounds what one input file may hold.
const maxSize = 1 << 30

// Read returns the content of path, or of stdin when path is "-". A missing
// file, a directory, an empty file and a binary file are refused.
func Read(path string, stdin io.Reader) ([]byte, error) {
	name := Name(path)
	if path == "" {
		return nil, fmt.Errorf("%w: no file given", ErrInvalid)
	}
	var data []byte
	if path == "-" {
		if stdin == nil {
			return nil, fmt.Errorf("%w: %s: nothing to read", ErrInvalid, name)
		}
		b, err := io.ReadAll(io.LimitReader(stdin, maxSize+1))
		if err != nil {
			return nil, fmt.Errorf("%w: read %s: %v", ErrInvalid, name, err)
		}
		data = b
	} else {
		st, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, name, plainPathError(err))
		}
		if st.IsDir() {
			return nil, fmt.Errorf("%w: %s is a directory, not a file", ErrInvalid, name)
		}
		b, err := readFile(path, st.Size())
		if err != nil {
			return nil, fmt.Errorf("%w: read %s: %v", ErrInvalid, name, plainPathError(err))
		}
		data = b
	}
	if len(data) > maxSize {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalid, name, maxSize)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: %s is empty", ErrInvalid, name)
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: %s is not a text file (it holds NUL bytes or invalid UTF-8)", ErrInvalid, name)
	}
	return data, nil
}

// readFile reads the file at path, of about size bytes, into a slice with
// spare capacity: a request that sends the file as it is may have the
// answer read into the same memory (client.Request.ReuseBody), and an
// answer echoing the file is often a little longer. Capacity that is never
// written to costs no memory.
func readFile(path string, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size < 0 || size > maxSize {
		size = 0
	}
	data := make([]byte, 0, size+size/16+64<<10)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) > maxSize {
			return data, nil // refused by the caller
		}
	}
}

// Name is how messages call the file at path.
func Name(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

func plainPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// IsJSON reports whether data is JSON rather than YAML: its first character
// opens an object or an array.
func IsJSON(data []byte) bool {
	t := bytes.TrimLeft(trimBOM(data), " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// IsList reports whether the document in data is a list at its top level.
func IsList(data []byte) bool {
	if IsJSON(data) {
		return bytes.TrimLeft(trimBOM(data), " \t\r\n")[0] == '['
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil || len(n.Content) == 0 {
		return false
	}
	return n.Content[0].Kind == yaml.SequenceNode
}

func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) }

// Decode decodes the JSON or YAML document in data into v, a pointer to a
// value of the client's types. name is the file's name for messages.
func Decode(name string, data []byte, v any) error {
	data = trimBOM(data)
	if isNull(data) {
		return fmt.Errorf("%w: %s holds no document (null)", ErrInvalid, name)
	}
	if IsJSON(data) {
		if err := decodeJSON(name, data, v); err != nil {
			// A YAML file may open with a flow collection ([{version: "1"}]):
			// when the text is not JSON but is YAML, it is read as YAML.
			if !unquotedScalar(data) {
				return err
			}
			if err := decodeYAML(name, data, v); err != nil {
				return err
			}
		}
	} else if err := decodeYAML(name, data, v); err != nil {
		return err
	}
	if err := checkEnums(reflect.ValueOf(v).Elem()); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
	}
	return nil
}

// duplicateYAMLKey refuses a mapping that gives a key twice.
func duplicateYAMLKey(n *yaml.Node, path string) error {
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			return fmt.Errorf("line %d: field %q is given twice in %s", k.Line, k.Value, orDocument(path))
		}
		seen[k.Value] = true
	}
	return nil
}

// duplicateKey finds the first object of a valid JSON document that gives a
// key twice, and returns the key and its offset.
func duplicateKey(src []byte) (key string, at int, found bool) {
	_, key, at, found = dupWalk(src, jsonscan.SkipSpace(src, 0))
	return key, at, found
}

// dupWalk walks the value at i, returning where it ends or the first
// duplicate key inside it.
func dupWalk(src []byte, i int) (end int, key string, at int, found bool) {
	if i >= len(src) {
		return i, "", 0, false
	}
	switch src[i] {
	case '{':
		var seen map[string]bool
		i = jsonscan.SkipSpace(src, i+1)
		for i < len(src) && src[i] != '}' {
			kEnd := jsonscan.StringEnd(src, i)
			k := string(src[i+1 : kEnd-1])
			if strings.IndexByte(k, '\\') >= 0 || !utf8.ValidString(k) {
				// Read the key as encoding/json does: escapes decoded,
				// invalid UTF-8 replaced.
				_ = json.Unmarshal(src[i:kEnd], &k)
			}
			if seen == nil {
				seen = make(map[string]bool)
			}
			if seen[k] {
				return i, k, i, true
			}
			seen[k] = true
			i = jsonscan.SkipSpace(src, kEnd)
			i = jsonscan.SkipSpace(src, i+1) // past ':'
			if i, key, at, found = dupWalk(src, i); found {
				return i, key, at, true
			}
			i = jsonscan.SkipSpace(src, i)
			if i < len(src) && src[i] == ',' {
				i = jsonscan.SkipSpace(src, i+1)
			}
		}
		return i + 1, "", 0, false
	case '[':
		i = jsonscan.SkipSpace(src, i+1)
		for i < len(src) && src[i] != ']' {
			if i, key, at, found = dupWalk(src, i); found {
				return i, key, at, true
			}
			i = jsonscan.SkipSpace(src, i)
			if i < len(src) && src[i] == ',' {
				i = jsonscan.SkipSpace(src, i+1)
			}
		}
		return i + 1, "", 0, false
	default:
		return jsonscan.ValueEnd(src, i), "", 0, false
	}
}

// isNull reports whether the document in data is null: JSON null, YAML ~ or
// null, or a YAML stream with no content. Sending such a document would
// erase what it stands for (a catalog update replaces the whole catalog).
func isNull(data []byte) bool {
	if IsJSON(data) {
		return false
	}
	if t := bytes.TrimSpace(data); string(t) == "null" {
		return true
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return false
	}
	if len(doc.Content) == 0 {
		return true
	}
	root := doc.Content[0]
	return root.Kind == yaml.ScalarNode && root.Tag == "!!null"
}

// unquotedScalar reports whether data fails as JSON at an unquoted word,
// as YAML's flow style ({version: "1"}) does; other syntax errors (a trailing
// comma, data after the document) stay JSON errors.
func unquotedScalar(data []byte) bool {
	var v any
	var syn *json.SyntaxError
	if err := json.Unmarshal(data, &v); !errors.As(err, &syn) || syn.Offset < 1 || syn.Offset > int64(len(data)) {
		return false
	}
	c := data[syn.Offset-1]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func decodeYAML(name string, data []byte, v any) error {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return fmt.Errorf("%w: %s: %s", ErrInvalid, name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var more yaml.Node
	if err := dec.Decode(&more); err != io.EOF {
		return fmt.Errorf("%w: %s holds more than one YAML document (---); give one", ErrInvalid, name)
	}
	if len(doc.Content) == 0 {
		return fmt.Errorf("%w: %s is empty", ErrInvalid, name)
	}
	root := doc.Content[0]
	if hasAlias(root) {
		return fmt.Errorf("%w: %s: YAML aliases (*name) are not supported in input files", ErrInvalid, name)
	}
	if err := check(root, reflect.TypeOf(v).Elem(), ""); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
	}
	js, err := toJSON(root)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
	}
	return decodeJSON(name, js, v)
}

func decodeJSON(name string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			return fmt.Errorf("%w: %s: unexpected data after the document", ErrInvalid, name)
		}
		// encoding/json lets the last of two equal keys win: a file that
		// says "schemas" twice would send only the second, silently.
		if key, at, ok := duplicateKey(data); ok {
			return fmt.Errorf("%w: %s: line %d: field %q is given twice", ErrInvalid, name, lineOf(data, int64(at)), key)
		}
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%w: %s: line %d: %s", ErrInvalid, name, lineOf(data, syn.Offset), strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		field := "the document"
		if typ.Field != "" {
			field = "field " + typ.Field
		}
		return fmt.Errorf("%w: %s: line %d: %s: wrong type: got a JSON %s, want %s",
			ErrInvalid, name, lineOf(data, typ.Offset), field, typ.Value, describe(typ.Type))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: %s: the document ends too early", ErrInvalid, name)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		// encoding/json does not say where; YAML's parser reads JSON and knows.
		var doc yaml.Node
		if yerr := yaml.Unmarshal(data, &doc); yerr == nil && len(doc.Content) > 0 && !hasAlias(doc.Content[0]) {
			if cerr := check(doc.Content[0], reflect.TypeOf(v).Elem(), ""); cerr != nil {
				return fmt.Errorf("%w: %s: %v", ErrInvalid, name, cerr)
			}
		}
		return fmt.Errorf("%w: %s: %s", ErrInvalid, name, strings.TrimPrefix(err.Error(), "json: "))
	default:
		return fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
	}
}

func lineOf(data []byte, offset int64) int {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset < 0 {
		offset = 0
	}
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// describe names a Go type the way a JSON user thinks of it.
func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return describe(t.Elem())
	}
	return t.String()
}

// jsonFields maps the JSON names of a struct's fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// check walks a YAML node against the Go type it will decode into, refusing
// unknown fields and wrong types with the field's path and line.
func check(n *yaml.Node, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	where := func() string {
		if path == "" {
			return fmt.Sprintf("line %d: the document", n.Line)
		}
		return fmt.Sprintf("line %d: field %s", n.Line, path)
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("%s: wrong type: want %s", where(), describe(t))
		}
		fields := jsonFields(t)
		if err := duplicateYAMLKey(n, path); err != nil {
			return err
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				return fmt.Errorf("line %d: unknown field %q in %s", k.Line, k.Value, orDocument(path))
			}
			if err := check(val, ft, join(path, k.Value)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("%s: wrong type: want %s", where(), describe(t))
		}
		if err := duplicateYAMLKey(n, path); err != nil {
			return err
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if err := check(val, t.Elem(), join(path, k.Value)); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return fmt.Errorf("%s: wrong type: want %s", where(), describe(t))
		}
		for i, c := range n.Content {
			if err := check(c, t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
			hint := ""
			if n.Kind == yaml.ScalarNode {
				hint = " (quote the value to make it a string)"
			}
			return fmt.Errorf("%s: wrong type: want a string%s", where(), hint)
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			return fmt.Errorf("%s: wrong type: want true or false", where())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			return fmt.Errorf("%s: wrong type: want an integer", where())
		}
	case reflect.Float32, reflect.Float64:
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
			return fmt.Errorf("%s: wrong type: want a number", where())
		}
	}
	return nil
}

func orDocument(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

// ToJSON converts the JSON or YAML document in data to JSON, keeping the
// order of keys. JSON is returned as it is, once checked.
func ToJSON(name string, data []byte) ([]byte, error) {
	data = trimBOM(data)
	if IsJSON(data) && json.Valid(data) {
		return data, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalid, name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return []byte("null"), nil
	}
	if hasAlias(doc.Content[0]) {
		return nil, fmt.Errorf("%w: %s: YAML aliases (*name) are not supported", ErrInvalid, name)
	}
	js, err := toJSON(doc.Content[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
	}
	return js, nil
}

// toJSON turns a checked YAML node into JSON with the same values.
func toJSON(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, n, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, n *yaml.Node, depth int) error {
	if depth > 1000 {
		return errors.New("the document nests too deeply")
	}
	switch n.Kind {
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			buf.Write(k)
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1], depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, c, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		buf.Write(b)
	default:
		return fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	return nil
}

// hasAlias reports whether the tree holds an alias; aliases are refused so
// that a small file cannot expand into an enormous document.
func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

// knower is an enum type that can tell its known values.
type knower interface{ Known() bool }

var knowerType = reflect.TypeFor[knower]()

// enumError is an unknown enum value; its path is built on the way back up,
// so that a walk over a large valid document builds no strings.
type enumError struct {
	path  []string // innermost first
	value string
}

func (e *enumError) Error() string {
	var b strings.Builder
	for i := len(e.path) - 1; i >= 0; i-- {
		if i < len(e.path)-1 && !strings.HasPrefix(e.path[i], "[") {
			b.WriteByte('.')
		}
		b.WriteString(e.path[i])
	}
	return fmt.Sprintf("field %s: unknown value %q", b.String(), e.value)
}

// checkEnums refuses enum values this version does not know, naming the field.
func checkEnums(v reflect.Value) error {
	if err := walkEnums(v, map[reflect.Type]bool{}); err != nil {
		return err
	}
	return nil
}

// hasEnums reports whether values of t can hold an enum, caching the answer.
func hasEnums(t reflect.Type, seen map[reflect.Type]bool) bool {
	if known, ok := seen[t]; ok {
		return known
	}
	// While t is being decided, a recursive reference to it counts as
	// holding an enum: the walk may then visit more than it needs to, but
	// it never skips a type whose enums sit behind the recursion.
	seen[t] = true
	found := false
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		found = hasEnums(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField() && !found; i++ {
			found = t.Field(i).IsExported() && hasEnums(t.Field(i).Type, seen)
		}
	case reflect.String:
		found = t.Implements(knowerType)
	}
	seen[t] = found
	return found
}

func walkEnums(v reflect.Value, seen map[reflect.Type]bool) *enumError {
	if !hasEnums(v.Type(), seen) {
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return walkEnums(v.Elem(), seen)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if err := walkEnums(v.Field(i), seen); err != nil {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if name == "" {
					name = f.Name
				}
				err.path = append(err.path, name)
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := walkEnums(v.Index(i), seen); err != nil {
				err.path = append(err.path, "["+strconv.Itoa(i)+"]")
				return err
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if err := walkEnums(iter.Value(), seen); err != nil {
				err.path = append(err.path, fmt.Sprint(iter.Key().Interface()))
				return err
			}
		}
	case reflect.String:
		if v.Len() > 0 && !v.Interface().(knower).Known() {
			return &enumError{value: v.String()}
		}
	}
	return nil
}
