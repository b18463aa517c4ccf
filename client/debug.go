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
	"github.com/dbgov/dbgov/internal/textsafe"
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
func (l *debugLog) request(req *http.Request) {
	if l == nil {
		return
	}
	var body []byte
	if req.GetBody != nil {
		if rc, err := req.GetBody(); err == nil {
			body, _ = io.ReadAll(io.LimitReader(rc, 2*maxLoggedBody))
		}
	}
	l.entry(">", req.Method+" "+secret.URL(req.URL.String()), req.Header, body, req.ContentLength)
}

// response logs an answer.
func (l *debugLog) response(resp *http.Response, body []byte, elapsed time.Duration) {
	l.entry("<", resp.Status+" ("+elapsed.Round(time.Millisecond).String()+")", resp.Header, body, int64(len(body)))
}

// entry logs a first line, the header lines in name order with credentials
// masked, and the body of size bytes (of which body may hold only the
// start): masked first, then cut at maxLoggedBody, so that a cut never
// leaves part of a secret.
func (l *debugLog) entry(mark, first string, header http.Header, body []byte, size int64) {
	if l == nil {
		return
	}
	var b strings.Builder
	b.WriteString(mark + " " + first + "\n")
	for _, name := range slices.Sorted(maps.Keys(header)) {
		for _, v := range header[name] {
			switch {
			case secret.IsHeader(name):
				v = secret.Mask
			case name == "Location" || name == "Content-Location":
				v = secret.URL(v)
			}
			b.WriteString(mark + " " + name + ": " + v + "\n")
		}
	}
	b.WriteString(mark + "\n")
	if len(body) > 0 {
		shown := l.scrub.String(string(body[:min(len(body), 2*maxLoggedBody)]))
		b.WriteString(shown[:min(len(shown), maxLoggedBody)] + "\n")
		if size > maxLoggedBody {
			b.WriteString("[body truncated: " + strconv.FormatInt(size, 10) + " bytes, the first " + strconv.Itoa(maxLoggedBody) + " shown]\n")
		}
		b.WriteString("\n")
	}
	l.emit(b.String())
}

// failure logs an attempt that got no answer.
func (l *debugLog) failure(err error, elapsed time.Duration) {
	l.emit("< no answer after " + elapsed.Round(time.Millisecond).String() + ": " + err.Error() + "\n\n")
}

// notef logs a decision such as a retry.
func (l *debugLog) notef(format string, args ...any) {
	l.emit("* " + fmt.Sprintf(format, args...) + "\n")
}

// emit writes one entry, scrubbed, each line's control characters escaped.
func (l *debugLog) emit(s string) {
	if l == nil {
		return
	}
	s = textsafe.Lines(l.scrub.String(s))
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, s)
}
