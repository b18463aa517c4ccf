package client

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
)

// redacted replaces a secret in the debug log.
const redacted = "********"

// secretFields are the JSON fields whose values never reach the debug log,
// compared without regard to case.
var secretFields = [...]string{
	"password", "serviceKey", "token", "clientSecret", "bindPassword",
	"tempOtpSecret", "tempRecoveryCodes", "accessToken", "refreshToken",
}

// isSecretField reports whether a JSON key, as it appears between its quotes
// (escapes included), names a secret field.
func isSecretField(rawKey []byte) bool {
	key := string(rawKey)
	if bytes.IndexByte(rawKey, '\\') >= 0 {
		var decoded string
		if err := json.Unmarshal(append(append([]byte{'"'}, rawKey...), '"'), &decoded); err != nil {
			// An undecodable key may hide a secret's name: keep its value out.
			return true
		}
		key = decoded
	}
	for _, f := range secretFields {
		if strings.EqualFold(key, f) {
			return true
		}
	}
	return false
}

// redactJSON returns body with the value of every secret field, at any depth,
// replaced by the JSON string "********", whatever the value's type, so that
// a valid body stays valid. It scans the text rather than decoding it, so that
// a truncated or malformed body is redacted too: a secret value that does not
// end before the body does is redacted up to the end. JSON quoted inside a
// string value (an error message quoting a request, say) is redacted as well.
func redactJSON(body []byte) []byte {
	if json.Valid(body) {
		// Its strings are read right: the loose pass is needed only in the
		// text they quote, where redactQuoted runs it.
		return redactDepth(body, 0)
	}
	return redactDepth(redactLoose(body), 0)
}

// maxQuotedDepth bounds how deeply JSON quoted in strings is looked into.
const maxQuotedDepth = 8

func redactDepth(body []byte, depth int) []byte {
	var out []byte // allocated at the first change
	copied := 0    // body[:copied] is already in out
	splice := func(from, to int, with []byte) {
		if out == nil {
			out = make([]byte, 0, len(body))
		}
		out = append(out, body[copied:from]...)
		out = append(out, with...)
		copied = to
	}
	for i := 0; i < len(body); {
		if body[i] != '"' {
			i++
			continue
		}
		end := stringEnd(body, i)
		if end > len(body) {
			// An unterminated string runs to the end of the body.
			if r, ok := redactQuoted(body[i+1:], depth); ok {
				splice(i+1, len(body), r)
			}
			break
		}
		j := skipSpace(body, end)
		if j >= len(body) || body[j] != ':' {
			// A string value: look into the JSON it may quote.
			if r, ok := redactQuoted(body[i+1:end-1], depth); ok {
				splice(i+1, end-1, r)
			}
			i = end
			continue
		}
		if !isSecretField(body[i+1 : end-1]) {
			i = end
			continue
		}
		valueStart := skipSpace(body, j+1)
		valueEnd := valueEndAt(body, valueStart)
		// A "value" followed by a colon was a key (of a malformed or cut
		// body): the value after it is redacted too.
		for range maxChain {
			colon := skipSpace(body, valueEnd)
			if colon >= len(body) || body[colon] != ':' {
				break
			}
			valueEnd = valueEndAt(body, skipSpace(body, colon+1))
		}
		// Whatever the value was (a string, an array, an object, a number),
		// it becomes the string "********", so that the body stays JSON.
		splice(valueStart, valueEnd, []byte(`"`+redacted+`"`))
		i = max(valueEnd, i+1)
	}
	if out == nil {
		return body
	}
	return append(out, body[copied:]...)
}

// redactQuoted redacts the JSON quoted inside the raw (still escaped) content
// of a string, and reports whether it changed anything. Content that cannot
// be unescaped is replaced whole when it might hold a secret.
func redactQuoted(content []byte, depth int) ([]byte, bool) {
	if !bytes.Contains(content, []byte(`\"`)) {
		return nil, false
	}
	if depth >= maxQuotedDepth {
		return []byte(redacted), true
	}
	// Drop a half escape cut off by truncation before unquoting.
	trimmed := content
	for k := 0; k < 6 && len(trimmed) > 0; k++ {
		if json.Unmarshal(append(append([]byte{'"'}, trimmed...), '"'), new(string)) == nil {
			break
		}
		trimmed = trimmed[:len(trimmed)-1]
	}
	var inner string
	if json.Unmarshal(append(append([]byte{'"'}, trimmed...), '"'), &inner) != nil {
		return []byte(redacted), true
	}
	r := redactDepth(redactLoose([]byte(inner)), depth+1)
	if bytes.Equal(r, []byte(inner)) {
		return nil, false
	}
	quoted, err := json.Marshal(string(r))
	if err != nil {
		return []byte(redacted), true
	}
	return quoted[1 : len(quoted)-1], true
}

// redactLoose is the second pass of redactJSON, for text whose quoting the
// first pass may misread (a body that is not JSON, JSON quoted in JSON): it
// takes every quote as the possible start of a key, and when a secret field
// name follows, closed by a quote (escaped or not) and a colon, it redacts
// what follows up to the end of that value, erring on the side of redacting more.
func redactLoose(body []byte) []byte {
	var out []byte
	copied := 0
	for i := 1; i < len(body); i++ {
		if body[i-1] != '"' || i < copied {
			continue
		}
		// The key runs to the next quote, less the backslashes escaping it.
		q := i
		for q < len(body) && q-i <= maxKeyLen && body[q] != '"' {
			q++
		}
		if q >= len(body) || body[q] != '"' {
			continue
		}
		keyEnd := q
		for keyEnd > i && body[keyEnd-1] == '\\' {
			keyEnd--
		}
		if !isLooseSecretKey(body[i:keyEnd]) {
			continue
		}
		k := skipSpace(body, q+1)
		if k >= len(body) || body[k] != ':' {
			continue
		}
		// The key's closing quote tells how deeply it is quoted in strings.
		level := quoteLevel(q - keyEnd)
		start := skipSpace(body, k+1)
		from, to, next, isString := looseValue(body, start, level)
		// A "value" followed by a colon was a key (of a malformed or cut
		// body): the value after it is redacted too.
		chained := false
		for range maxChain {
			colon := skipSpace(body, next)
			if colon >= len(body) || body[colon] != ':' {
				break
			}
			_, to, next, _ = looseValue(body, skipSpace(body, colon+1), level)
			chained = true
		}
		with := []byte(redacted)
		if !isString {
			// An array, object or bare token becomes a string, quoted as
			// the key is (escaped when the key is in JSON quoted in JSON).
			quote := append(bytes.Repeat([]byte{'\\'}, level), '"')
			with = slices.Concat(quote, with, quote)
			from, to = start, next
		}
		if to <= from || (!chained && bytes.Equal(body[from:to], with)) {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(body))
		}
		out = append(out, body[copied:from]...)
		out = append(out, with...)
		copied = to
	}
	if out == nil {
		return body
	}
	return append(out, body[copied:]...)
}

// maxChain bounds how many key-like values in a row the loose pass follows.
const maxChain = 16

// maxKeyLen bounds the keys the loose pass reads; secret names are shorter.
const maxKeyLen = 128

// isLooseSecretKey reports whether raw text between quotes, escaped once or
// more, names a secret field.
func isLooseSecretKey(raw []byte) bool {
	for range 4 {
		if bytes.IndexByte(raw, '\\') < 0 {
			break
		}
		var decoded string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &decoded) != nil {
			return false
		}
		raw = []byte(decoded)
	}
	for _, f := range secretFields {
		if strings.EqualFold(string(raw), f) {
			return true
		}
	}
	return false
}

// looseValue returns the span to redact of the value starting at body[v],
// the index just past the value and whether the value is a string: for a
// string, the span is its inside, its quotes possibly escaped as in JSON
// quoted in JSON; for an object, array or bare token, all of it. level is
// how the key's quotes are escaped (see quoteLevel). A value that does not
// end runs to the end of body.
func looseValue(body []byte, v, level int) (from, to, next int, isString bool) {
	q := v
	for q < len(body) && body[q] == '\\' {
		q++
	}
	switch {
	case q >= len(body):
		return v, len(body), len(body), false
	case body[q] == '"' && q == v:
		end := stringEnd(body, q)
		if end > len(body) {
			return q + 1, len(body), len(body), true
		}
		return q + 1, end - 1, end, true
	case body[q] == '"':
		// A quote escaped n times ends at the next quote after exactly n backslashes.
		n := q - v
		for i := q + 1; i < len(body); i++ {
			if body[i] != '"' {
				continue
			}
			run := 0
			for run < i-q-1 && body[i-1-run] == '\\' {
				run++
			}
			if run == n {
				return q + 1, i - n, i + 1, true
			}
		}
		return q + 1, len(body), len(body), true
	case body[q] == '{' || body[q] == '[':
		end := quotedValueEnd(body, q, level)
		return q, end, end, false
	}
	end := q
	for end < len(body) && !bytes.ContainsRune([]byte(",}] \t\r\n\\\""), rune(body[end])) {
		end++
	}
	return q, end, end, false
}

// quoteLevel returns, from the number of backslashes before a quote, how
// the quote is escaped: 0 for a quote of JSON text, 1 for one of JSON quoted
// in a JSON string (\"), 3 for one quoted twice (\\\"), and so on. Escaped
// backslashes before the quote come in pairs at the quote's level and do not
// change it: a quote after 5 backslashes ends a once-quoted string.
func quoteLevel(backslashes int) int {
	return (backslashes ^ (backslashes + 1)) >> 1
}

// quotedValueEnd returns the index just past the object or array starting
// at body[i], in JSON whose quotes are escaped at level (see quoteLevel).
// The value ends early where the string quoting it does, at a quote of a
// lower level; a value that does not end runs to the end of body.
func quotedValueEnd(body []byte, i, level int) int {
	if level == 0 {
		return valueEndAt(body, i)
	}
	depth, inString := 0, false
	for j := i; j < len(body); j++ {
		switch body[j] {
		case '"':
			run := 0
			for run < j-i && body[j-1-run] == '\\' {
				run++
			}
			switch l := quoteLevel(run); {
			case l < level:
				return j - run
			case l == level:
				inString = !inString
			}
		case '{', '[':
			if !inString {
				depth++
			}
		case '}', ']':
			if !inString {
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
	}
	return len(body)
}

// stringEnd returns the index just past the JSON string starting at the quote
// body[start], or len(body)+1 when the string does not end.
func stringEnd(body []byte, start int) int {
	for i := start + 1; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(body) + 1
}

// skipSpace returns the index of the first byte at or after i that is not JSON whitespace.
func skipSpace(body []byte, i int) int {
	for i < len(body) {
		switch body[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// valueEndAt returns the index just past the JSON value starting at body[i]:
// a string, a balanced object or array, or a bare token ending at a ',', '}',
// ']' or whitespace. A value that does not end runs to the end of body.
func valueEndAt(body []byte, i int) int {
	if i >= len(body) {
		return len(body)
	}
	switch body[i] {
	case '"':
		return min(stringEnd(body, i), len(body))
	case '{', '[':
		depth := 0
		for j := i; j < len(body); j++ {
			switch body[j] {
			case '"':
				j = stringEnd(body, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(body)
	}
	for j := i; j < len(body); j++ {
		switch body[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
	}
	return len(body)
}

// secretScrubber replaces known secret values (tokens, keys, header values)
// wherever they appear, as they are and as JSON escapes them. It is safe for
// concurrent use.
type secretScrubber struct {
	mu      sync.RWMutex
	secrets []string
}

// minScrubbed is the length below which a value is too common a string to
// be scrubbed everywhere; the fields and headers holding it are still redacted.
const minScrubbed = 4

// add records a secret; values shorter than minScrubbed are ignored.
func (s *secretScrubber) add(secret string) {
	if len(secret) < minScrubbed {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.secrets = append(s.secrets, secret)
	if b, err := json.Marshal(secret); err == nil {
		if quoted := string(b[1 : len(b)-1]); quoted != secret {
			s.secrets = append(s.secrets, quoted)
		}
	}
}

// scrub returns text with every known secret replaced.
func (s *secretScrubber) scrub(text string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, secret := range s.secrets {
		if strings.Contains(text, secret) {
			text = strings.ReplaceAll(text, secret, redacted)
		}
	}
	return text
}

// sensitiveHeaders are the headers whose values are credentials.
var sensitiveHeaders = [...]string{"Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"}

// cleanAPIError keeps credentials out of an error the service sent: the
// client's own secrets it may echo, and the values of secret fields or
// credential headers quoted in its message or details.
func (c *Client) cleanAPIError(e *APIError) {
	e.Message = c.secrets.scrub(string(redactJSON([]byte(e.Message))))
	for i, d := range e.Details {
		e.Details[i] = c.cleanDetail(d)
	}
}

// cleanDetail redacts one error detail, keeping it valid JSON; a detail that
// cannot be read is hidden whole.
func (c *Client) cleanDetail(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return json.RawMessage(`"` + redacted + `"`)
	}
	changed := false
	v = c.cleanValue(v, &changed)
	if !changed {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`"` + redacted + `"`)
	}
	return b
}

// cleanValue redacts a decoded JSON value in place and reports any change.
func (c *Client) cleanValue(v any, changed *bool) any {
	switch v := v.(type) {
	case map[string]any:
		for k, val := range v {
			if val != nil && c.isSecretName(k) {
				v[k] = redacted
				*changed = true
				continue
			}
			v[k] = c.cleanValue(val, changed)
		}
		return v
	case []any:
		for i, val := range v {
			v[i] = c.cleanValue(val, changed)
		}
		return v
	case string:
		clean := c.secrets.scrub(string(redactJSON([]byte(v))))
		if clean != v {
			*changed = true
		}
		return clean
	}
	return v
}

// isSecretName reports whether a field name names a secret field or a
// header holding credentials.
func (c *Client) isSecretName(name string) bool {
	for _, f := range secretFields {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	for _, h := range sensitiveHeaders {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	for h := range c.headers {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return false
}
