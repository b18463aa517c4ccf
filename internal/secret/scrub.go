package secret

import (
	"cmp"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// IsHeader reports whether a header's values are credentials: Authorization,
// Cookie, and any header named like a credential (X-Api-Key, X-Auth-Token).
func IsHeader(name string) bool {
	n := string(fold(nil, name))
	words := []string{"auth", "cookie", "token", "secret", "key", "passw", "session", "credential"}
	return slices.ContainsFunc(words, func(word string) bool { return strings.Contains(n, word) })
}

// minKnown is the length below which a value is too common a string to be
// masked wherever it appears; the fields and headers holding it still are.
const minKnown = 4

// Scrubber masks, in any text, the credentials it was told of and the values
// of secret fields written as JSON. Every message dbgov writes goes through
// one. A nil *Scrubber masks the fields alone. It is safe for concurrent use.
type Scrubber struct {
	mu       sync.Mutex
	known    []string
	replacer *strings.Replacer // of known, nil when it must be built again
}

// Add records credentials, to be masked as they are and as JSON or a URL
// escapes them.
func (s *Scrubber) Add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		quoted, _ := json.Marshal(v) // <, > and & escaped as \u003c, ...
		inner := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(quoted[1 : len(quoted)-1]))
		for _, form := range []string{v, inner, strings.ReplaceAll(inner, "/", `\/`), string(quoted[1 : len(quoted)-1]),
			url.QueryEscape(v), url.PathEscape(v)} {
			if len(form) >= minKnown && !slices.Contains(s.known, form) {
				s.known = append(s.known, form)
				s.replacer = nil
			}
		}
	}
}

// AddURL records each URL's password, else its user name (http://TOKEN@host).
func (s *Scrubber) AddURL(urls ...string) {
	for _, raw := range urls {
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			pw, _ := u.User.Password()
			s.Add(cmp.Or(pw, u.User.Username()))
		}
	}
}

// String returns text with every known credential masked, and the value of
// every secret field written in it as JSON ("password": "...", at any depth,
// quoted in JSON strings or not, even cut short). Masked JSON stays JSON.
func (s *Scrubber) String(text string) string {
	if s != nil {
		s.mu.Lock()
		if s.replacer == nil && len(s.known) > 0 {
			pairs := make([]string, 0, 2*len(s.known))
			// The replacer takes the first of the values that match at a point:
			// a credential holding another is tried first, or its end would show.
			for _, v := range slices.SortedFunc(slices.Values(s.known), func(a, b string) int { return len(b) - len(a) }) {
				pairs = append(pairs, v, Mask)
			}
			s.replacer = strings.NewReplacer(pairs...)
		}
		r := s.replacer
		s.mu.Unlock()
		if r != nil {
			text = r.Replace(text)
		}
	}
	return maskQuotedFields(text)
}

// quotedField matches a quoted name and its colon; the backslashes before
// its closing quote say how deeply it is quoted in JSON strings.
var quotedField = regexp.MustCompile(`"([\w\\-]+?)(\\*)"\s*:\s*`)

// maskQuotedFields masks the value of every secret field quoted in text,
// up to the end of text when the value does not end.
func maskQuotedFields(text string) string {
	if !strings.Contains(text, `"`) {
		return text
	}
	var b strings.Builder
	copied := 0
	for _, m := range quotedField.FindAllStringSubmatchIndex(text, -1) {
		level := quoteLevel(m[5] - m[4])
		name := text[m[2] : m[5]-level]
		if !IsField(unquoteName(name)) {
			continue
		}
		from, to, with := valueSpan(text, m[1], level)
		if to <= max(from, copied) {
			continue
		}
		b.WriteString(text[copied:max(from, copied)])
		b.WriteString(with)
		copied = to
	}
	if copied == 0 {
		return text
	}
	b.WriteString(text[copied:])
	return b.String()
}

// unquoteName reads the escapes of a quoted name, when it has any.
func unquoteName(name string) string {
	var s string
	if strings.Contains(name, `\`) && json.Unmarshal([]byte(`"`+name+`"`), &s) == nil {
		return s
	}
	return name
}

// valueSpan returns the part of the value at text[i:] to replace, and what
// replaces it: a string's inside becomes Mask, any other value the string
// "********", quoted at level. A value that does not end runs to the end of
// text, or of the string quoting it.
func valueSpan(text string, i, level int) (from, to int, with string) {
	quoted := strings.Repeat(`\`, level) + `"`
	if q := i + len(text[i:]) - len(strings.TrimLeft(text[i:], `\`)); q < len(text) && text[q] == '"' {
		if quoteLevel(q-i) < level { // the string quoting the name ends: no value
			return i, i, ""
		}
		return q + 1, stringEnd(text, q+1, quoteLevel(q-i)), Mask
	}
	if i < len(text) && (text[i] == '{' || text[i] == '[') {
		depth := 0
		for j := i; j < len(text); j++ {
			switch c := text[j]; {
			case c == '"' && quoteLevel(quoteRun(text, j)) < level:
				return i, j - quoteRun(text, j), quoted + Mask + quoted // the quoting string ends
			case c == '"' && quoteLevel(quoteRun(text, j)) == level:
				k := stringEnd(text, j+1, level)
				if k == len(text) || quoteLevel(strings.IndexByte(text[k:], '"')) < level {
					return i, k, quoted + Mask + quoted // cut, or the quoting string ends
				}
				j = k + strings.IndexByte(text[k:], '"')
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				if depth--; depth == 0 {
					return i, j + 1, quoted + Mask + quoted
				}
			}
		}
		return i, len(text), quoted + Mask + quoted
	}
	j := i
	for j < len(text) && !strings.ContainsRune(",}] \t\r\n\"\\", rune(text[j])) {
		j++
	}
	return i, j, quoted + Mask + quoted
}

// stringEnd returns the index of the backslashes and quote closing a string
// quoted at level whose inside starts at text[from]. A quote of a lower level
// ends the string quoting it too; with none, the string runs to the end.
func stringEnd(text string, from, level int) int {
	for j := from; j < len(text); j++ {
		if text[j] == '"' {
			if run := quoteRun(text[from:], j-from); quoteLevel(run) <= level {
				return j - run
			}
		}
	}
	return len(text)
}

// quoteRun returns the number of backslashes just before text[j].
func quoteRun(text string, j int) int {
	run := 0
	for run < j && text[j-1-run] == '\\' {
		run++
	}
	return run
}

// quoteLevel returns how deeply a quote after run backslashes is quoted: 0
// in JSON text, 1 in JSON quoted in a string (\"), 3 quoted twice (\\\");
// escaped backslashes before it come in pairs and do not count.
func quoteLevel(run int) int {
	return (run ^ (run + 1)) >> 1
}
