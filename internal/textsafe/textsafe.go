// Package textsafe shows text from elsewhere on a terminal without letting it
// drive the terminal or hide what is shown: control characters (C0, DEL, C1),
// bidirectional and invisible format characters, line and paragraph
// separators and bytes that are not UTF-8 are written as escapes.
package textsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Line returns s escaped to stay on one line: newlines and tabs are escaped
// too (\n, \t, \r, \x1b, \u0085, \u202e, \xff for a byte that is not UTF-8).
func Line(s string) string { return escape(s, false, false) }

// Lines returns s with each of its lines escaped as Line does.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Line(l)
	}
	return strings.Join(lines, "\n")
}

// Text returns s escaped as Line does, but with newlines and tabs kept.
func Text(s string) string { return escape(s, true, false) }

// JSON returns the JSON text s with the characters Text escapes written as
// JSON escapes (\u0085, \u202e), so that it reads back as the same JSON.
func JSON(s string) string { return escape(s, true, true) }

// isUnsafe reports whether r must not reach a terminal as it is.
func isUnsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, 0x80 <= r && r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	case r < 0xa0:
		return false
	}
	return unicode.Is(unicode.Cf, r) // bidirectional controls, zero-width characters, BOM, ...
}

// escape returns s as it is when nothing in it needs an escape, else escaped.
func escape(s string, keepLines, asJSON bool) string {
	kept := func(r rune) bool { return keepLines && (r == '\n' || r == '\t') }
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return isUnsafe(r) && !kept(r) }) {
		return s
	}
	return string(appendEscaped(make([]byte, 0, len(s)+16), s, keepLines, asJSON))
}

func appendEscaped(b []byte, s string, keepLines, asJSON bool) []byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = fmt.Appendf(b, `\x%02x`, s[i])
		case !isUnsafe(r), keepLines && (r == '\n' || r == '\t'):
			b = append(b, s[i:i+size]...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r < 0x80 && !asJSON:
			b = fmt.Appendf(b, `\x%02x`, r)
		case r > 0xffff && asJSON:
			r1, r2 := utf16.EncodeRune(r)
			b = fmt.Appendf(b, `\u%04x\u%04x`, r1, r2)
		case r > 0xffff:
			b = fmt.Appendf(b, `\U%08x`, r)
		default:
			b = fmt.Appendf(b, `\u%04x`, r)
		}
		i += size
	}
	return b
}

// Writer writes what it is given escaped as Text (or JSON) does. It holds
// back a character cut between two writes until the next one; Flush writes
// what is held back.
type Writer struct {
	w       io.Writer
	asJSON  bool
	pending []byte
}

// NewWriter returns a Writer to w, writing JSON escapes when asJSON is set.
func NewWriter(w io.Writer, asJSON bool) *Writer {
	return &Writer{w: w, asJSON: asJSON}
}

// Write escapes p and writes it, but for a character p ends in the middle of.
func (w *Writer) Write(p []byte) (int, error) {
	w.pending = append(w.pending, p...)
	cut := len(w.pending)
	for back := 1; back <= utf8.UTFMax-1 && back <= cut; back++ {
		if utf8.RuneStart(w.pending[cut-back]) { // is the last character whole?
			if !utf8.FullRune(w.pending[cut-back:]) {
				cut -= back
			}
			break
		}
	}
	if err := w.emit(cut); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what Write held back, escaped.
func (w *Writer) Flush() error { return w.emit(len(w.pending)) }

func (w *Writer) emit(n int) error {
	out := appendEscaped(nil, string(w.pending[:n]), true, w.asJSON)
	w.pending = append(w.pending[:0], w.pending[n:]...)
	if len(out) == 0 {
		return nil
	}
	_, err := w.w.Write(out)
	return err
}
