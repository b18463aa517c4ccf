package client

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

// maxLoggedBody is how much of a body the debug log shows.
const maxLoggedBody = 64 << 10

// debugLog writes each exchange to a writer: credentials masked, bodies cut
// at maxLoggedBody, control characters escaped. Its methods do nothing on a
// nil *debugLog.
type debugLog struct {
	mu    sync.Mutex
	w     io.Writer
	scrub *secret.Scrubber
}

// request logs a request about to be sent, with its body.
func (l *debugLog) request(req *http.Request, body []byte) {
	if l == nil {
		return
	}
	var b strings.Builder
	b.WriteString("> " + req.Method + " " + secret.URL(req.URL.String()) + "\n")
	writeHeader(&b, "> ", req.Header)
	b.WriteString(">\n")
	l.writeBody(&b, body)
	l.emit(b.String())
}

// response logs an answer.
func (l *debugLog) response(resp *http.Response, body []byte, elapsed time.Duration) {
	if l == nil {
		return
	}
	var b strings.Builder
	b.WriteString("< " + resp.Status + " (" + elapsed.Round(time.Millisecond).String() + ")\n")
	writeHeader(&b, "< ", resp.Header)
	b.WriteString("<\n")
	l.writeBody(&b, body)
	l.emit(b.String())
}

// failure logs an attempt that got no answer.
func (l *debugLog) failure(err error, elapsed time.Duration) {
	if l == nil {
		return
	}
	l.emit("< no answer after " + elapsed.Round(time.Millisecond).String() + ": " + err.Error() + "\n\n")
}

// notef logs a decision such as a retry.
func (l *debugLog) notef(format string, args ...any) {
	if l == nil {
		return
	}
	l.emit("* " + fmt.Sprintf(format, args...) + "\n")
}

// emit writes one entry, scrubbed, each line's control characters escaped.
func (l *debugLog) emit(s string) {
	lines := strings.Split(l.scrub.String(s), "\n")
	for i, line := range lines {
		lines[i] = output.EscapeControl(line)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, strings.Join(lines, "\n"))
}

// writeHeader writes header lines in name order, credentials masked.
func writeHeader(b *strings.Builder, prefix string, header http.Header) {
	for _, name := range slices.Sorted(maps.Keys(header)) {
		for _, v := range header[name] {
			switch {
			case secret.IsHeader(name):
				v = secret.Mask
			case name == "Location" || name == "Content-Location":
				v = secret.URL(v)
			}
			b.WriteString(prefix + name + ": " + v + "\n")
		}
	}
}

// writeBody writes a body with its secrets masked first, then cut at
// maxLoggedBody, so that a cut never leaves part of a secret.
func (l *debugLog) writeBody(b *strings.Builder, body []byte) {
	if len(body) == 0 {
		return
	}
	shown := l.scrub.String(string(body[:min(len(body), 2*maxLoggedBody)]))
	b.WriteString(shown[:min(len(shown), maxLoggedBody)] + "\n")
	if len(body) > maxLoggedBody {
		b.WriteString("[body truncated: " + strconv.Itoa(len(body)) + " bytes, the first " + strconv.Itoa(maxLoggedBody) + " shown]\n")
	}
	b.WriteString("\n")
}
