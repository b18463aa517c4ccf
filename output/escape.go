package output

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// EscapeControl returns s with everything that could drive a terminal
// shown escaped: C0 controls (\n, \t, \r, \x1b, ...), DEL, C1 controls
// (\u0085, ...) and bytes that are not UTF-8 (\xff). Printable text,
// including non-ASCII letters, is kept. A value from the service passes
// through it before it reaches a table cell.
func EscapeControl(s string) string {
	return escape(s, false)
}

// escapeText is EscapeControl for multi-line text: newlines and tabs are
// kept.
func escapeText(s string) string {
	return escape(s, true)
}

func escape(s string, keepLines bool) string {
	i := firstUnsafe(s, keepLines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case keepLines && (c == '\n' || c == '\t'):
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x20 || c == 0x7f:
				writeHexByte(&b, c)
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHexByte(&b, c)
		case r >= 0x80 && r <= 0x9f, invisible(r):
			digits, prefix := 4, `\u`
			if r > 0xffff {
				digits, prefix = 8, `\U`
			}
			b.WriteString(prefix)
			for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
				b.WriteByte(hexDigits[r>>shift&0xf])
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

const hexDigits = "0123456789abcdef"

func writeHexByte(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xf])
}

// invisible reports a format character (bidirectional overrides, zero-width
// characters) or a line or paragraph separator.
func invisible(r rune) bool {
	return r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)
}

// firstUnsafe returns the offset of the first byte that escape would
// change, or -1 when s is safe as it is.
func firstUnsafe(s string, keepLines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if !keepLines || (c != '\n' && c != '\t') {
					return i
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (r >= 0x80 && r <= 0x9f) || invisible(r) {
			return i
		}
		i += size
	}
	return -1
}
