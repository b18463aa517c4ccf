package client

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// maxLoggedBody is how much of a body the debug log shows.
const maxLoggedBody = 64 << 10

// debugLog writes each exchange to a writer, credentials redacted. Its
// methods do nothing on a nil *debugLog, so callers need not check.
type debugLog struct {
	mu     sync.Mutex
	w      io.Writer
	secret map[string]bool // canonical names of headers whose values are hidden
	scrub  *secretScrubber // shared with the client
}

// newDebugLog returns a log to w hiding the standard credential headers, the
// values of the extra headers and the secrets scrub knows.
func newDebugLog(w io.Writer, extra http.Header, scrub *secretScrubber) *debugLog {
	l := &debugLog{w: w, secret: map[string]bool{}, scrub: scrub}
	for _, name := range sensitiveHeaders {
		l.secret[name] = true
	}
	for name := range extra {
		l.secret[http.CanonicalHeaderKey(name)] = true
	}
	return l
}

// request logs an attempt about to be sent.
func (l *debugLog) request(method, target string, header http.Header, body []byte) {
	if l == nil {
		return
	}
	var b strings.Builder
	b.WriteString("> " + method + " " + redactURL(target) + "\n")
	l.writeHeader(&b, "> ", header)
	b.WriteString(">\n")
	writeBody(&b, body)
	l.emit(b.String())
}

// response logs an answer.
func (l *debugLog) response(status string, header http.Header, body []byte, elapsed time.Duration) {
	if l == nil {
		return
	}
	var b strings.Builder
	b.WriteString("< " + status + " (" + elapsed.Round(time.Millisecond).String() + ")\n")
	l.writeHeader(&b, "< ", header)
	b.WriteString("<\n")
	writeBody(&b, body)
	l.emit(b.String())
}

// failure logs an attempt that got no answer.
func (l *debugLog) failure(err error, elapsed time.Duration) {
	if l == nil {
		return
	}
	l.emit("< no answer after " + elapsed.Round(time.Millisecond).String() + ": " + err.Error() + "\n\n")
}

// redirect logs a redirect being followed.
func (l *debugLog) redirect(to *url.URL, foreign bool) {
	if l == nil {
		return
	}
	note := "* following redirect to " + to.Redacted()
	if foreign {
		note += " (another host: credentials and extra headers dropped)"
	}
	l.emit(note + "\n")
}

// notef logs a decision such as a retry.
func (l *debugLog) notef(format string, args ...any) {
	if l == nil {
		return
	}
	l.emit("* " + fmt.Sprintf(format, args...) + "\n")
}

// emit writes one entry, with known secrets scrubbed and control characters escaped.
func (l *debugLog) emit(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, escapeControls(l.scrub.scrub(s)))
}

// writeHeader writes header lines in name order, secret values redacted.
func (l *debugLog) writeHeader(b *strings.Builder, prefix string, header http.Header) {
	names := make([]string, 0, len(header))
	for name := range header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range header[name] {
			switch canonical := http.CanonicalHeaderKey(name); {
			case l.secret[canonical]:
				v = redacted
			case canonical == "Location" || canonical == "Content-Location":
				v = redactURL(v) // a redirect may carry a password
			}
			b.WriteString(prefix + name + ": " + v + "\n")
		}
	}
}

// writeBody writes a body, its secret JSON fields redacted and cut at maxLoggedBody.
func writeBody(b *strings.Builder, body []byte) {
	if len(body) == 0 {
		return
	}
	shown := body
	if len(shown) > maxLoggedBody {
		shown = shown[:maxLoggedBody]
	}
	b.Write(redactJSON(shown))
	b.WriteString("\n")
	if len(body) > len(shown) {
		b.WriteString("[body truncated: " + strconv.Itoa(len(body)-len(shown)) + " more bytes of " + strconv.Itoa(len(body)) + " not shown]\n")
	}
	b.WriteString("\n")
}

// redactURL hides the password of a URL's user information.
func redactURL(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return target
	}
	return u.Redacted()
}

// escapeControls escapes control characters (other than newline and tab)
// and invalid UTF-8, so that a server cannot drive the terminal through the log.
func escapeControls(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
