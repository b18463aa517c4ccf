package client

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sync"
	"testing"
	"time"
)

// Credentials used by the tests; none may appear in a debug log.
const (
	testToken      = "tok-3c0ffee-SECRET"
	testAccount    = "robot@service.example.com"
	testKey        = "key-b16b00b5-SECRET"
	testLoginToken = "login-tok-5eed-SECRET"
	testProxyValue = "proxy-cred-feed-SECRET"
)

// capturedRequest is what a fake service received.
type capturedRequest struct {
	Method      string
	EscapedPath string
	RawQuery    string
	Query       url.Values
	Header      http.Header
	Body        []byte
}

// fakeService is an httptest server that records every request and answers
// through a handler told the index of the request.
type fakeService struct {
	*httptest.Server
	mu       sync.Mutex
	requests []capturedRequest
}

// newFakeService starts a fake service closed at the end of the test.
func newFakeService(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *fakeService {
	t.Helper()
	f := &fakeService{}
	f.Server = httptest.NewServer(f.recording(t, handle))
	t.Cleanup(f.Close)
	return f
}

// recording wraps handle with the recording of each request.
func (f *fakeService) recording(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("read request body: %v", err)
		}
		f.mu.Lock()
		n := len(f.requests)
		f.requests = append(f.requests, capturedRequest{
			Method: r.Method, EscapedPath: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery,
			Query: r.URL.Query(), Header: r.Header.Clone(), Body: body,
		})
		f.mu.Unlock()
		handle(w, r, n)
	})
}

// Requests returns the requests received so far.
func (f *fakeService) Requests() []capturedRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]capturedRequest(nil), f.requests...)
}

// answer writes a status and a JSON body.
func answer(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// answerWith returns a handler that always gives the same answer.
func answerWith(status int, body string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, _ *http.Request, _ int) { answer(w, status, body) }
}

// closedAddr returns the address of a loopback port that nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// newTestClient returns a client of base with a token and a tiny first backoff,
// changed by the given option edits.
func newTestClient(t *testing.T, base string, edits ...func(*Options)) *Client {
	t.Helper()
	opts := Options{
		BaseURL:   base,
		Token:     testToken,
		UserAgent: "dbgov/test",
		Timeout:   5 * time.Second,
		RetryWait: time.Millisecond,
		// The release the seed's tests were written for; tests of other
		// releases, or of learning it, say otherwise.
		ServerVersion: "3.14.1",
	}
	for _, edit := range edits {
		edit(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// assertJSONEqual fails when two JSON texts do not hold the same value.
func assertJSONEqual(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: not JSON: %v: %s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the expected value is not JSON: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

// The operations the commands send with decoding of their own, called as
// the client's methods are.
func batchGetUsers(ctx context.Context, c *Client, emails []string) (*BatchGetUsersResponse, []byte, error) {
	r, err := BatchGetUsersCall(emails)
	return call[BatchGetUsersResponse](ctx, c, r, err)
}

func batchCreateRevisions(ctx context.Context, c *Client, db DatabaseName, revs []RevisionInput) (*BatchCreateRevisionsResponse, []byte, error) {
	r, err := BatchCreateRevisionsCall(db, revs)
	return call[BatchCreateRevisionsResponse](ctx, c, r, err)
}

func diffSchema(ctx context.Context, c *Client, db DatabaseName, changelog string, req *DiffSchemaRequest) (*DiffSchemaResponse, []byte, error) {
	r, err := DiffSchemaCall(db, changelog, req)
	return call[DiffSchemaResponse](ctx, c, r, err)
}
