package output

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dbgov/dbgov/internal/jsonscan"
)

// valueDecoder turns JSON that json.Valid accepted into the values jq and
// templates work on: map[string]any, []any, string, json.Number, bool and
// nil, as encoding/json does with UseNumber (a repeated key keeps its last
// value, invalid UTF-8 becomes U+FFFD), or, for jq, numbers as gojq's
// values (see jqNumber). It reads the bytes in place, in one
// pass, with no reflection and no copy of the document, and shares the
// text of keys that repeat from one object to the next (every object of a
// list has the same keys), so the values cost far less memory than
// encoding/json's.
//
// Secrets are masked and the list field ensured while decoding, so the
// document never has to be rewritten first.
type valueDecoder struct {
	src  []byte
	pos  int
	mask bool
	// jqNumbers makes numbers gojq's values rather than json.Number.
	jqNumbers bool
	// list is the field ensured in a top-level object ("" for none).
	list string
	// keys holds the text of every key met, so that repeated keys share it.
	keys map[string]string
	// sizes holds the size of the last object met at each depth: objects
	// of a list are alike, so the next one is made that size at once.
	sizes [16]int
	buf   []byte // for unescaping strings
}

// newValueDecoder returns a decoder masking secrets when mask is set, and
// making numbers gojq's values when jqNumbers is set. One decoder may
// decode many values in turn, sharing keys between them.
func newValueDecoder(mask, jqNumbers bool) *valueDecoder {
	return &valueDecoder{mask: mask, jqNumbers: jqNumbers, keys: make(map[string]string, 64)}
}

// decode decodes the JSON value src (already validated), with list, at the
// top level, ensured as [] when it is absent or null.
func (d *valueDecoder) decode(src []byte, list string) any {
	d.src, d.pos, d.list = src, 0, list
	d.skipSpace()
	v := d.value(0)
	d.src = nil
	return v
}

// decodeValue decodes the JSON value src (already validated), numbers as
// json.Number, with secrets masked when mask is set and, at the top level,
// list ensured as [] when it is absent or null.
func decodeValue(src []byte, mask bool, list string) any {
	return newValueDecoder(mask, false).decode(src, list)
}

func (d *valueDecoder) skipSpace() {
	for d.pos < len(d.src) {
		switch d.src[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *valueDecoder) value(depth int) any {
	switch c := d.src[d.pos]; c {
	case '{':
		return d.object(depth)
	case '[':
		return d.array(depth)
	case '"':
		end := jsonscan.StringEnd(d.src, d.pos)
		s := d.unquote(d.src[d.pos:end])
		d.pos = end
		return s
	case 't':
		d.pos += len("true")
		return true
	case 'f':
		d.pos += len("false")
		return false
	case 'n':
		d.pos += len("null")
		return nil
	default:
		end := jsonscan.ScalarEnd(d.src, d.pos)
		text := d.src[d.pos:end]
		d.pos = end
		if d.jqNumbers {
			return jqNumber(text)
		}
		return json.Number(text)
	}
}

func (d *valueDecoder) object(depth int) any {
	d.pos++ // '{'
	d.skipSpace()
	hint := 0
	if depth < len(d.sizes) {
		hint = d.sizes[depth]
	}
	m := make(map[string]any, hint)
	ensureList := depth == 0 && d.list != ""
	if d.src[d.pos] == '}' {
		d.pos++
	} else {
		for {
			end := jsonscan.StringEnd(d.src, d.pos)
			key := d.key(d.src[d.pos:end])
			d.pos = end
			d.skipSpace()
			d.pos++ // ':'
			d.skipSpace()
			if d.mask && IsSecretField(key) {
				start := d.pos
				d.pos = jsonscan.ValueEnd(d.src, start)
				if !isEmptyValue(d.src[start:d.pos]) {
					m[key] = Mask
				} else {
					d.pos = start
					m[key] = d.value(depth + 1)
				}
			} else {
				m[key] = d.value(depth + 1)
			}
			d.skipSpace()
			if d.src[d.pos] == ',' {
				d.pos++
				d.skipSpace()
				continue
			}
			d.pos++ // '}'
			break
		}
	}
	if ensureList && m[d.list] == nil {
		m[d.list] = []any{}
	}
	if depth < len(d.sizes) {
		d.sizes[depth] = len(m)
	}
	return m
}

func (d *valueDecoder) array(depth int) any {
	d.pos++ // '['
	d.skipSpace()
	a := []any{}
	if d.src[d.pos] == ']' {
		d.pos++
		return a
	}
	for {
		a = append(a, d.value(depth+1))
		d.skipSpace()
		if d.src[d.pos] == ',' {
			d.pos++
			d.skipSpace()
			continue
		}
		d.pos++ // ']'
		return a
	}
}

// key returns the text of a quoted key, the same string for every
// occurrence of the same key.
func (d *valueDecoder) key(quoted []byte) string {
	raw := quoted[1 : len(quoted)-1]
	if k, ok := d.keys[string(raw)]; ok {
		return k
	}
	k := d.unquote(quoted)
	d.keys[string(raw)] = k
	return k
}

// unquote returns the text of a quoted JSON string, as encoding/json
// decodes it: escapes resolved, a lone surrogate and invalid UTF-8 each
// replaced by U+FFFD.
func (d *valueDecoder) unquote(quoted []byte) string {
	raw := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	b := d.buf[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			i++
			switch raw[i] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(raw[i+1:])
				i += 5
				if utf16.IsSurrogate(r) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, hex4(raw[i+2:])); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
				continue
			default: // '"', '\\', '/'
				b = append(b, raw[i])
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, r)
			} else {
				b = append(b, raw[i:i+size]...)
			}
			i += size
		}
	}
	d.buf = b
	return string(b)
}

// hex4 reads the four hex digits of a \u escape; -1 when they are not.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
