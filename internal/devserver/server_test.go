package devserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	adminToken    = "dev-admin-token"
	readonlyToken = "dev-readonly-token"
)

// clock is a settable clock for Options.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newClock() *clock { return &clock{now: time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)} }

// newDemo returns a server holding the demo data, on a fixed clock.
func newDemo(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{Now: newClock().Now})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// newRelease returns a server holding the demo data that answers as a release.
func newRelease(t *testing.T, release string) *Server {
	t.Helper()
	s, err := New(Options{Now: newClock().Now, Release: release})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// response is one answer of the handler.
type response struct {
	status int
	header http.Header
	body   string
}

// json decodes the body into a generic document.
func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.body), &doc); err != nil {
		t.Fatalf("response body is not a JSON object: %v\n%s", err, r.body)
	}
	return doc
}

// decode decodes the body into v.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("decode response: %v\n%s", err, r.body)
	}
}

// call sends a request to the server's handler; token "" sends none.
func call(t *testing.T, s *Server, method, target, token, body string) response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

// wantError checks an error answer: HTTP status, gRPC code, and words the
// message must hold.
func wantError(t *testing.T, r response, status, code int, msgParts ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	doc := r.json(t)
	if got, _ := doc["code"].(float64); int(got) != code {
		t.Errorf("code = %v, want %d; body %s", doc["code"], code, r.body)
	}
	msg, _ := doc["message"].(string)
	for _, part := range msgParts {
		if !strings.Contains(msg, part) {
			t.Errorf("message %q does not mention %q", msg, part)
		}
	}
	if _, has := doc["details"]; has {
		t.Errorf("an error without details should omit the field: %s", r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
}

func wantStatus(t *testing.T, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
