// Package httpmock fakes the service in tests: a registry of expected
// requests served by an httptest server. A request nobody expected fails the
// test, and so does an expected request that never came.
package httpmock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
)

// Request is a request the server received.
type Request struct {
	Method   string
	Path     string // escaped, as sent
	RawQuery string
	Header   http.Header
	Body     []byte
}

// Stub is one expected request and the answer to give.
type Stub struct {
	method, path string
	query, body  *string // the query and JSON body expected, when not nil
	status       int
	respBody     string
	header       http.Header
	times        int // how many answers it gives; 0 = any number
	matched      int
}

// Query makes the stub expect exactly this raw query string.
func (s *Stub) Query(raw string) *Stub { s.query = &raw; return s }

// JSONBody makes the stub expect a JSON body equal (as JSON) to body.
func (s *Stub) JSONBody(body string) *Stub { s.body = &body; return s }

// Header sets a response header.
func (s *Stub) Header(name, value string) *Stub { s.header.Set(name, value); return s }

// Times makes the stub give exactly n answers, so that stubs for the same
// route can answer in turn: fewer than n matching requests fail the test.
func (s *Stub) Times(n int) *Stub { s.times = n; return s }

// Registry is the fake service.
type Registry struct {
	t     testing.TB
	srv   *httptest.Server
	mu    sync.Mutex
	stubs []*Stub
	seen  []Request
}

// New starts a fake service on loopback; it is verified and closed when the
// test ends.
func New(t testing.TB) *Registry {
	r := &Registry{t: t}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(func() {
		r.srv.Close()
		r.Verify()
	})
	return r
}

// URL is the base address of the fake service.
func (r *Registry) URL() string { return r.srv.URL }

// Register expects a request of method on the escaped path, answered with
// status and body (sent as application/json).
func (r *Registry) Register(method, path string, status int, body string) *Stub {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &Stub{method: method, path: path, status: status, respBody: body, header: http.Header{"Content-Type": {"application/json"}}}
	r.stubs = append(r.stubs, s)
	return s
}

// Requests returns the requests received so far.
func (r *Registry) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.seen...)
}

// Only returns the one request received, and stops the test unless exactly
// one came.
func (r *Registry) Only() Request {
	r.t.Helper()
	reqs := r.Requests()
	if len(reqs) != 1 {
		r.t.Fatalf("httpmock: %d requests received, want one", len(reqs))
	}
	return reqs[0]
}

// Verify fails the test for every stub no request matched, and for every
// stub limited by Times that fewer requests matched than it expects.
func (r *Registry) Verify() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.stubs {
		switch {
		case s.matched == 0:
			r.t.Errorf("httpmock: expected %s %s was never requested", s.method, s.path)
		case s.times > 0 && s.matched < s.times:
			r.t.Errorf("httpmock: expected %s %s %d times, requested %d", s.method, s.path, s.times, s.matched)
		}
	}
}

func (r *Registry) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	got := Request{Method: req.Method, Path: req.URL.EscapedPath(), RawQuery: req.URL.RawQuery, Header: req.Header.Clone(), Body: body}
	r.mu.Lock()
	r.seen = append(r.seen, got)
	var match *Stub
	var mismatch string
	for _, s := range r.stubs {
		if s.method != got.Method || s.path != got.Path || (s.times > 0 && s.matched >= s.times) {
			continue
		}
		if s.query != nil && *s.query != got.RawQuery {
			mismatch = fmt.Sprintf("query %q, want %q", got.RawQuery, *s.query)
			continue
		}
		if s.body != nil && !sameJSON(*s.body, body) {
			mismatch = fmt.Sprintf("body %s, want %s", body, *s.body)
			continue
		}
		match = s
		break
	}
	if match != nil {
		match.matched++
	}
	r.mu.Unlock()
	if match == nil {
		r.t.Errorf("httpmock: unexpected request %s %s?%s %s", got.Method, got.Path, got.RawQuery, mismatch)
		match = &Stub{
			status:   http.StatusNotImplemented,
			respBody: `{"code":12,"message":"httpmock: no stub for this request"}`,
			header:   http.Header{"Content-Type": {"application/json"}},
		}
	}
	maps.Copy(w.Header(), match.header)
	w.WriteHeader(match.status)
	_, _ = io.WriteString(w, match.respBody)
}

func sameJSON(want string, got []byte) bool {
	var a, b any
	if json.Unmarshal([]byte(want), &a) != nil || json.Unmarshal(got, &b) != nil {
		return bytes.Equal(bytes.TrimSpace([]byte(want)), bytes.TrimSpace(got))
	}
	return reflect.DeepEqual(a, b)
}
