// Package jsonscan finds the bounds of values in a JSON document that
// json.Valid has accepted, without decoding them: what the streaming
// printers and readers of large answers need to walk a document in place.
// On bytes that are not valid JSON the offsets are meaningless, but the
// functions never read out of bounds.
package jsonscan

import "bytes"

// SkipSpace returns the offset of the first byte at or after i that is not
// JSON white space.
func SkipSpace(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// StringEnd returns the offset just past the string whose opening quote is
// at i.
func StringEnd(src []byte, i int) int {
	j := i + 1
	for j <= len(src) {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		q := j + k
		// The quote is escaped when an odd number of backslashes precede it.
		b := q - 1
		for b > i && src[b] == '\\' {
			b--
		}
		if (q-1-b)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return len(src)
}

// ScalarEnd returns the offset just past the number or literal at i.
func ScalarEnd(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// ValueEnd returns the offset just past the value starting at i.
func ValueEnd(src []byte, i int) int {
	if i >= len(src) {
		return len(src)
	}
	switch src[i] {
	case '"':
		return StringEnd(src, i)
	case '{', '[':
		nesting := 0
		for i < len(src) {
			switch src[i] {
			case '"':
				i = StringEnd(src, i)
				continue
			case '{', '[':
				nesting++
			case '}', ']':
				nesting--
				if nesting == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default:
		return ScalarEnd(src, i)
	}
}
