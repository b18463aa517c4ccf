package output

import (
	"encoding/json"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
)

// jqNumber returns the value gojq makes of the JSON number text: an int
// when it is an integer that fits, a float64 when it has a fraction or an
// exponent, a *big.Int when it is a larger integer, and an infinity when
// it is out of the float64 range. jq then computes with the values, and
// prints them as numbers, not as the text the service sent (1.10 is 1.1).
func jqNumber(text []byte) any {
	if i, ok := smallInt(text); ok {
		return i
	}
	s := string(text)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil && math.MinInt <= i && i <= math.MaxInt {
		return int(i)
	}
	for _, c := range text {
		if c == '.' || c == 'e' || c == 'E' {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return f
			}
			break
		}
	}
	if b, ok := new(big.Int).SetString(s, 10); ok {
		return b
	}
	if text[0] == '-' {
		return math.Inf(-1)
	}
	return math.Inf(1)
}

// smallInt reads an integer of at most 18 digits, the common case, without
// allocating; ok is false for anything else.
func smallInt(text []byte) (n int, ok bool) {
	digits := text
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if len(digits) < len(text) {
		n = -n
	}
	return n, true
}

// appendJQFloat appends f as jq 1.6 prints a number: the shortest digits
// that read back as f, written out in full unless the decimal point would
// fall 4 or more places before the first digit or more than 15 places past
// the last, then as d.ddde±XX; infinities as the largest finite number, NaN
// as null.
func appendJQFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "null"...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0"...)
		}
		return append(b, '0')
	}
	f = min(max(f, -math.MaxFloat64), math.MaxFloat64)
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// 'e' with the shortest precision gives the digits and the exponent:
	// d.ddde±XX.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	mark := slices.Index(e, 'e')
	exp, _ := strconv.Atoi(string(e[mark+1:]))
	digits := append(e[:1:1], e[min(2, mark):mark]...)
	point := exp + 1 // where the decimal point falls after the first digit
	switch {
	case point <= -4 || point > len(digits)+15:
		b = append(b, digits[0])
		if len(digits) > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	case point <= 0:
		b = append(b, '0', '.')
		for ; point < 0; point++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	case point >= len(digits):
		b = append(b, digits...)
		for ; point > len(digits); point-- {
			b = append(b, '0')
		}
		return b
	default:
		b = append(b, digits[:point]...)
		b = append(b, '.')
		return append(b, digits[point:]...)
	}
}

// jqFloats returns v with each float64 in it replaced by its text as jq
// prints it, a json.Number, which gojq.Marshal writes as it is. Arrays and
// objects are copied only when they hold a float; changed reports whether
// anything was replaced.
func jqFloats(v any) (out any, changed bool) {
	switch v := v.(type) {
	case float64:
		return json.Number(appendJQFloat(nil, v)), true
	case []any:
		var copied []any
		for i, e := range v {
			if e, ok := jqFloats(e); ok {
				if copied == nil {
					copied = slices.Clone(v)
				}
				copied[i] = e
			}
		}
		if copied == nil {
			return v, false
		}
		return copied, true
	case map[string]any:
		var copied map[string]any
		for k, e := range v {
			if e, ok := jqFloats(e); ok {
				if copied == nil {
					copied = maps.Clone(v)
				}
				copied[k] = e
			}
		}
		if copied == nil {
			return v, false
		}
		return copied, true
	}
	return v, false
}
