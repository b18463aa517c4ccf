package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/dbgov/dbgov/internal/jsonscan"
)

// Mask is what a non-empty secret value prints as.
const Mask = "********"

// IsSecretField reports whether values of the JSON field name are secret:
// printed as Mask unless --show-secrets is given.
func IsSecretField(name string) bool {
	switch name {
	case "clientSecret", "bindPassword", "tempOtpSecret", "tempRecoveryCodes", "serviceKey":
		return true
	}
	return false
}

// MaskSecrets returns the JSON document raw, compacted, with every
// non-empty secret field at any depth replaced by Mask. Key order, unknown
// fields and the text of numbers are kept. It is meant for logs.
func MaskSecrets(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(raw))
	if err := formatJSON(&buf, raw, jsonStyle{mask: true}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jsonPrinter prints the document as the service sent it, re-indented, or
// compact on one line (-o jsonl).
type jsonPrinter struct {
	mask bool
	line bool
}

// Print prints doc as indented JSON, secrets masked unless shown.
func (p jsonPrinter) Print(w io.Writer, doc Document) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := formatJSON(bw, doc.Raw, jsonStyle{mask: p.mask, list: doc.ListField, pretty: !p.line}); err != nil {
		return err
	}
	if p.line {
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write JSON output: %w", err)
	}
	return nil
}

// normalizedJSON returns the document as every format other than table and
// name sees it: secrets masked, the list field ensured, compact.
func normalizedJSON(doc Document, mask bool) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(doc.Raw) + len(doc.ListField) + 8)
	if err := formatJSON(&buf, doc.Raw, jsonStyle{mask: mask, list: doc.ListField}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jsonStyle says how formatJSON rewrites a document.
type jsonStyle struct {
	mask   bool   // replace non-empty secret values by Mask
	list   string // field ensured in a top-level object, as [] when absent or null
	pretty bool   // two-space indentation and a final newline; else compact
}

// byteWriter is what formatJSON writes to; bufio.Writer and bytes.Buffer
// are both one.
type byteWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// formatJSON writes the JSON document src to w in one pass over its bytes,
// re-indented (or compacted), with secrets masked and the list field
// ensured as style says. Everything else is copied as it is: key order,
// duplicate keys, string escapes and the text of numbers. Write errors are
// left to the caller's writer (bufio.Writer keeps the first one).
func formatJSON(w byteWriter, src []byte, style jsonStyle) error {
	if !json.Valid(src) {
		return invalidJSON(src)
	}
	f := jsonFormatter{src: src, w: w, style: style}
	if style.list != "" {
		key, err := json.Marshal(style.list)
		if err != nil {
			return fmt.Errorf("quote list field %q: %w", style.list, err)
		}
		f.listKey = key
	}
	f.skipSpace()
	f.value(0)
	if style.pretty {
		w.WriteByte('\n')
	}
	return nil
}

// invalidJSON describes why src is not JSON.
func invalidJSON(src []byte) error {
	if len(bytes.TrimSpace(src)) == 0 {
		return errors.New("format response: the body is empty, not JSON")
	}
	var syntax *json.SyntaxError
	// Decoding into an empty struct checks the whole input and keeps nothing.
	if err := json.Unmarshal(src, &struct{}{}); errors.As(err, &syntax) {
		return fmt.Errorf("format response: not valid JSON at byte %d: %w", syntax.Offset, err)
	}
	return errors.New("format response: not valid JSON")
}

// jsonFormatter walks a document that json.Valid accepted, so it never
// meets bad syntax and its nesting depth is bounded by encoding/json's
// limit.
type jsonFormatter struct {
	src     []byte
	pos     int
	w       byteWriter
	style   jsonStyle
	listKey []byte // the quoted list field, nil when none
}

// spaces is written in slices for indentation.
const spaces = "                                                                "

func (f *jsonFormatter) newline(depth int) {
	if !f.style.pretty {
		return
	}
	f.w.WriteByte('\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(spaces))
		f.w.WriteString(spaces[:k])
		n -= k
	}
}

func (f *jsonFormatter) skipSpace() {
	for f.pos < len(f.src) {
		switch f.src[f.pos] {
		case ' ', '\t', '\n', '\r':
			f.pos++
		default:
			return
		}
	}
}

// value copies the value at f.pos.
func (f *jsonFormatter) value(depth int) {
	switch f.src[f.pos] {
	case '{':
		f.object(depth)
	case '[':
		f.array(depth)
	case '"':
		end := jsonscan.StringEnd(f.src, f.pos)
		f.w.Write(f.src[f.pos:end])
		f.pos = end
	default:
		end := jsonscan.ScalarEnd(f.src, f.pos)
		f.w.Write(f.src[f.pos:end])
		f.pos = end
	}
}

func (f *jsonFormatter) object(depth int) {
	f.pos++ // '{'
	f.skipSpace()
	ensureList := depth == 0 && f.listKey != nil
	if f.src[f.pos] == '}' {
		f.pos++
		if !ensureList {
			f.w.WriteString("{}")
			return
		}
		f.w.WriteByte('{')
		f.writeEmptyList(depth + 1)
		f.newline(depth)
		f.w.WriteByte('}')
		return
	}
	f.w.WriteByte('{')
	sawList := false
	for first := true; ; first = false {
		if !first {
			f.w.WriteByte(',')
		}
		f.newline(depth + 1)
		keyEnd := jsonscan.StringEnd(f.src, f.pos)
		key := f.src[f.pos:keyEnd]
		f.w.Write(key)
		if f.style.pretty {
			f.w.WriteString(": ")
		} else {
			f.w.WriteByte(':')
		}
		f.pos = keyEnd
		f.skipSpace()
		f.pos++ // ':'
		f.skipSpace()
		switch {
		case ensureList && keyEquals(key, f.listKey):
			sawList = true
			if f.src[f.pos] == 'n' { // null: the list is empty
				f.pos = jsonscan.ScalarEnd(f.src, f.pos)
				f.w.WriteString("[]")
			} else {
				f.value(depth + 1)
			}
		case f.style.mask && isSecretKey(key):
			f.secretValue(depth + 1)
		default:
			f.value(depth + 1)
		}
		f.skipSpace()
		if f.src[f.pos] == ',' {
			f.pos++
			f.skipSpace()
			continue
		}
		f.pos++ // '}'
		break
	}
	if ensureList && !sawList {
		f.w.WriteByte(',')
		f.writeEmptyList(depth + 1)
	}
	f.newline(depth)
	f.w.WriteByte('}')
}

// writeEmptyList writes the list field with an empty list, as a member at
// depth.
func (f *jsonFormatter) writeEmptyList(depth int) {
	f.newline(depth)
	f.w.Write(f.listKey)
	if f.style.pretty {
		f.w.WriteString(": []")
	} else {
		f.w.WriteString(":[]")
	}
}

func (f *jsonFormatter) array(depth int) {
	f.pos++ // '['
	f.skipSpace()
	if f.src[f.pos] == ']' {
		f.pos++
		f.w.WriteString("[]")
		return
	}
	f.w.WriteByte('[')
	for first := true; ; first = false {
		if !first {
			f.w.WriteByte(',')
		}
		f.newline(depth + 1)
		f.value(depth + 1)
		f.skipSpace()
		if f.src[f.pos] == ',' {
			f.pos++
			f.skipSpace()
			continue
		}
		f.pos++ // ']'
		break
	}
	f.newline(depth)
	f.w.WriteByte(']')
}

// secretValue writes the value at f.pos masked: empty strings, empty
// arrays, empty objects and null are kept (there is nothing to hide),
// anything else becomes Mask.
func (f *jsonFormatter) secretValue(depth int) {
	start := f.pos
	end := jsonscan.ValueEnd(f.src, start)
	if isEmptyValue(f.src[start:end]) {
		f.value(depth)
		return
	}
	f.pos = end
	f.w.WriteString(`"` + Mask + `"`)
}

// isEmptyValue reports whether the JSON value v is "", [], {} or null.
func isEmptyValue(v []byte) bool {
	switch v[0] {
	case '"':
		return len(v) == 2
	case '[', '{':
		return len(bytes.TrimSpace(v[1:len(v)-1])) == 0
	case 'n':
		return true
	}
	return false
}

// keyEquals reports whether the quoted key equals quoted, also when the
// key is written with escapes.
func keyEquals(key, quoted []byte) bool {
	if bytes.Equal(key, quoted) {
		return true
	}
	if bytes.IndexByte(key, '\\') < 0 {
		return false
	}
	return unquoteKey(key) == unquoteKey(quoted)
}

// isSecretKey reports whether the quoted key names a secret field.
func isSecretKey(key []byte) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return IsSecretField(string(key[1 : len(key)-1]))
	}
	return IsSecretField(unquoteKey(key))
}

// unquoteKey decodes a quoted JSON key that json.Valid accepted.
func unquoteKey(key []byte) string {
	var s string
	if err := json.Unmarshal(key, &s); err != nil {
		return ""
	}
	return s
}
