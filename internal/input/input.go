// Package input reads the files dbgov sends (catalogs, revisions, request
// bodies) and decodes them strictly, JSON and YAML alike: field names matched
// exactly, and an unknown field, a key given twice, a wrong type or an
// unknown enum value refused, naming the field and its line.
package input

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// ErrInvalid is matched by every error about an input: the command layer
// treats it as a usage error, and nothing is sent.
var ErrInvalid = exitcode.NewUsage(errors.New("invalid input"))

func invalidf(format string, args ...any) error {
	return &exitcode.InvalidError{Kind: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
}

func readError(name string, err error) error {
	return &exitcode.InvalidError{Kind: ErrInvalid, Msg: fmt.Sprintf("read %s: %v", name, plainPathError(err)), Cause: err}
}

// MaxSize bounds one input: a file, or standard input.
const MaxSize = 256 << 20

// maxLine bounds one line read by Lines.
const maxLine = 1 << 20

// Read returns the content of path, or of stdin when path is "-". A missing
// file, a directory, an empty or binary file, and one larger than MaxSize are
// refused; reading stops at the first NUL byte or at the cap.
func Read(path string, stdin io.Reader) ([]byte, error) {
	name := Name(path)
	r, size := stdin, int64(0)
	switch {
	case path == "":
		return nil, invalidf("no file given")
	case path == "-" && stdin == nil:
		return nil, invalidf("%s: nothing to read", name)
	case path != "-":
		f, err := os.Open(path)
		var st os.FileInfo
		if err == nil {
			defer f.Close()
			st, err = f.Stat()
		}
		if err != nil {
			return nil, invalidf("%s: %v", name, plainPathError(err))
		}
		if st.IsDir() {
			return nil, invalidf("%s is a directory, not a file", name)
		}
		r, size = f, st.Size()
	}
	data, err := readAll(r, size, MaxSize)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, invalidf("%s is larger than %s", name, sizeText(MaxSize))
	case errors.Is(err, errBinary), err == nil && !utf8.Valid(data):
		return nil, invalidf("%s is not a text file (it holds NUL bytes or invalid UTF-8)", name)
	case err != nil:
		return nil, readError(name, err)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, invalidf("%s is empty", name)
	}
	return data, nil
}

var (
	errTooLarge = errors.New("too large")
	errBinary   = errors.New("binary")
)

// readAll reads r, of about size bytes, up to limit and a NUL byte.
func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	if size > limit {
		return nil, errTooLarge
	}
	data := make([]byte, 0, max(size+1, 512))
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // room to read into
		}
		n, err := r.Read(data[len(data):cap(data)])
		if bytes.IndexByte(data[len(data):len(data)+n], 0) >= 0 {
			return nil, errBinary
		}
		if data = data[:len(data)+n]; int64(len(data)) > limit {
			return nil, errTooLarge
		}
		switch {
		case err == io.EOF:
			return data, nil
		case err != nil:
			return nil, err
		}
	}
}

// sizeText writes a size in MiB, as the caps are given.
func sizeText(n int64) string { return strconv.FormatInt(n>>20, 10) + " MiB" }

// Lines calls fn with each line of r, counting from 1, without its line
// ending; name is what messages call r. A line longer than 1 MiB or an input
// larger than MaxSize is refused.
func Lines(r io.Reader, name string, fn func(n int, line string) error) error {
	sc := bufio.NewScanner(io.LimitReader(r, MaxSize+1))
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	n, total := 0, 0
	for sc.Scan() {
		n++
		if total += len(sc.Bytes()) + 1; total > MaxSize {
			return invalidf("%s is larger than %s", name, sizeText(MaxSize))
		}
		if err := fn(n, sc.Text()); err != nil {
			return err
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return invalidf("%s: line %d is longer than %s", name, n+1, sizeText(maxLine))
	}
	if err := sc.Err(); err != nil {
		return readError(name, err)
	}
	return nil
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
	var doc yaml.Node
	return yaml.Unmarshal(data, &doc) == nil && len(doc.Content) > 0 && doc.Content[0].Kind == yaml.SequenceNode
}

func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) }

// enum is implemented by the client's enum types: Set reads a value in any
// case and refuses one it does not know.
type enum interface{ Set(string) error }

// strict returns the options of every decoding: unknown fields refused, enum
// values read by their Set; made on first use, as they take a millisecond.
var strict = sync.OnceValue(func() json.Options {
	return json.JoinOptions(
		json.RejectUnknownMembers(true),
		json.WithUnmarshalers(json.UnmarshalFunc(func(b []byte, e enum) error {
			var s string
			if err := json.Unmarshal(b, &s); err != nil || s == "" {
				return err
			}
			return e.Set(s)
		})))
})

// Decode decodes the JSON or YAML document in data, named name, into v, a
// pointer to a client type; null is refused: sending it would erase the resource.
func Decode(name string, data []byte, v any) error {
	return decode(name, data, v, false)
}

// ToJSON returns the JSON or YAML document in data as JSON, checked as
// Decode checks it, keys in their order, fields of any name kept; null
// for a null document. Valid JSON is returned as it is, not copied.
func ToJSON(name string, data []byte) ([]byte, error) {
	if IsJSON(data) && jsontext.Value(data).IsValid() {
		return data, nil
	}
	var doc jsontext.Value
	err := decode(name, data, &doc, true)
	return doc, err
}

func decode(name string, data []byte, v any, nullOK bool) error {
	data = trimBOM(data)
	if IsJSON(data) {
		err := json.Unmarshal(data, v, strict())
		if !yamlFlow(data, err) {
			// A JSON error's line is counted up to its offset.
			return describe(name, err, func(_ jsontext.Pointer, offset int64) int {
				return bytes.Count(data[:min(max(offset, 0), int64(len(data)))], []byte("\n")) + 1
			})
		}
	}
	js, line, err := fromYAML(name, data)
	if err == nil && !nullOK && string(js) == "null" {
		err = invalidf("%s holds no document (null)", name)
	}
	if err != nil {
		return err
	}
	return describe(name, json.Unmarshal(js, v, strict()), line)
}

// yamlFlow reports whether err, from reading data as JSON, stopped at an
// unquoted word, as YAML's flow style ({version: "1"}) has; other syntax
// errors (a trailing comma, data after the document) stay JSON errors.
func yamlFlow(data []byte, err error) bool {
	var syn *jsontext.SyntacticError
	if !errors.As(err, &syn) || syn.ByteOffset < 0 || syn.ByteOffset >= int64(len(data)) {
		return false
	}
	c := data[syn.ByteOffset]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// lineFunc finds the line of the value at a JSON pointer and offset.
type lineFunc func(p jsontext.Pointer, offset int64) int

// describe turns a decoding error into a message naming the file, the line
// (found by line, when not nil) and the field.
func describe(name string, err error, line lineFunc) error {
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	var p jsontext.Pointer
	var offset int64
	var msg string
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn):
		p, offset = syn.JSONPointer, syn.ByteOffset
		switch {
		case errors.Is(syn.Err, io.ErrUnexpectedEOF):
			return invalidf("%s: invalid JSON: the document ends too early", name)
		case strings.Contains(syn.Err.Error(), "after top-level value"):
			return invalidf("%s: unexpected data after the document", name)
		case errors.Is(syn.Err, jsontext.ErrDuplicateName):
			msg = fmt.Sprintf("field %q is given twice in %s", p.LastToken(), fieldPath(p.Parent()))
		default:
			msg = "invalid JSON: " + syn.Err.Error()
		}
	case errors.As(err, &sem):
		p, offset = sem.JSONPointer, sem.ByteOffset
		field := "field " + fieldPath(p)
		if p == "" {
			field = "the document"
		}
		switch {
		case errors.Is(sem.Err, json.ErrUnknownName):
			msg = fmt.Sprintf("unknown field %q in %s", p.LastToken(), fieldPath(p.Parent()))
		case sem.Err != nil:
			msg = field + ": " + sem.Err.Error()
		default:
			want := typeName(sem.GoType)
			if want == "a string" && strings.ContainsRune("0tf", rune(sem.JSONKind)) {
				want += " (quote the value to make it a string)"
			}
			msg = fmt.Sprintf("%s: wrong type: got %s, want %s", field, kindNames[sem.JSONKind], want)
		}
	default:
		return invalidf("%s: %v", name, err)
	}
	if line != nil && line(p, offset) > 0 {
		return invalidf("%s: line %d: %s", name, line(p, offset), msg)
	}
	return invalidf("%s: %s", name, msg)
}

// fieldPath writes a JSON pointer as schemas[0].tables; "" is the document.
func fieldPath(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.ParseUint(tok, 10, 31); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	if b.Len() == 0 {
		return "the document"
	}
	return b.String()
}

// kindNames name the kinds of JSON value the way a user thinks of them.
var kindNames = map[jsontext.Kind]string{'"': "a string", '0': "a number", 't': "true or false", 'f': "true or false",
	'n': "null", '[': "a list", '{': "an object"}

// typeName names a Go type the way a JSON user thinks of it.
func typeName(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == nil:
		return "another value"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Float64:
		return "a number"
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return "a list"
	}
	return "an object"
}
