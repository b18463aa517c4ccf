package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbgov/dbgov/client"
)

// serve runs s on a loopback port until the returned stop is called; stop
// returns what Serve returned.
func serve(t *testing.T, s *Server) (base string, stop func() error) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	var once sync.Once
	var result error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case result = <-done:
			case <-time.After(10 * time.Second):
				result = errors.New("Serve did not return within 10s of the cancel")
			}
		})
		return result
	}
	t.Cleanup(func() { _ = stop() })
	return "http://" + l.Addr().String(), stop
}

func TestServe_stopsGracefullyWhenTheContextEnds(t *testing.T) {
	s := newDemo(t)
	base, stop := serve(t, s)
	resp, err := http.Get(base + "/v1/idps")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d", resp.StatusCode)
	}

	// A request whose body is still arriving when the context ends is
	// answered before Serve returns.
	pr, pw := io.Pipe()
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/users/bob@example.com:undelete", pr)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	type result struct {
		status int
		body   string
		err    error
	}
	answered := make(chan result, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		answered <- result{resp.StatusCode, string(b), err}
	}()
	if _, err := pw.Write([]byte(`{"name":`)); err != nil {
		t.Fatal(err)
	}
	waitForAccept(t, base)
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) while a request was in flight", err)
	case <-time.After(200 * time.Millisecond):
	}
	if _, err := pw.Write([]byte(`"users/bob@example.com"}`)); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	r := <-answered
	if r.err != nil || r.status != http.StatusOK || !strings.Contains(r.body, `"state":"ACTIVE"`) {
		t.Fatalf("in-flight request: status %d, body %s, err %v", r.status, r.body, r.err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Serve returned %v after a graceful stop, want nil", err)
	}
	if _, err := http.Get(base + "/v1/idps"); err == nil {
		t.Error("the server still answers after Serve returned")
	}
}

// waitForAccept gives the server time to accept the connection of a request
// just sent: a round trip on another connection, then a short pause. Should
// the handler not have started yet, Shutdown still waits for a connection
// that was accepted and is reading its first request.
func waitForAccept(t *testing.T, base string) {
	t.Helper()
	resp, err := http.Get(base + "/v1/idps")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	time.Sleep(50 * time.Millisecond)
}

func TestServe_acceptsAHugeQuery(t *testing.T) {
	s := newDemo(t)
	base, _ := serve(t, s)
	q := url.Values{}
	for i := range 50_000 {
		q.Add("names", []string{"users/admin@example.com", "users/alice@example.com", "users/bob@example.com"}[i%3])
	}
	target := base + "/v1/users:batchGet?" + q.Encode()
	if len(target) < 1<<20 {
		t.Fatalf("query is only %d bytes", len(target))
	}
	req, _ := http.NewRequest(http.MethodGet, target, nil)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status = %d: %.200s", resp.StatusCode, b)
	}
	var got client.BatchGetUsersResponse
	if err := jsonDecode(resp.Body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Users) != 50_000 || got.Users[49_999].Name != "users/alice@example.com" {
		t.Errorf("got %d users", len(got.Users))
	}
}

func TestServe_reportsAListenerThatFails(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	err = newDemo(t).Serve(context.Background(), l)
	if err == nil || !strings.Contains(err.Error(), "serve on") {
		t.Errorf("Serve on a closed listener = %v", err)
	}
}

func TestHandler_isSafeForConcurrentUse(t *testing.T) {
	s := newDemo(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				version := fmt.Sprintf("%d.%d", g, i)
				call(t, s, http.MethodPost, batchPath, adminToken,
					`{"requests":[`+revisionRequest(ordersName, "VERSIONED", version, "")+`]}`)
				call(t, s, http.MethodGet, "/v1/users:batchGet?names=users/bob@example.com", readonlyToken, "")
				call(t, s, http.MethodPost, "/v1/users/bob@example.com:undelete", adminToken, `{"name":"users/bob@example.com"}`)
				call(t, s, http.MethodPatch, catalogPath, adminToken, `{"schemas":[{"name":"s`+version+`"}]}`)
				call(t, s, http.MethodPost, "/v1/auth/login", "", `{"email":"ci-bot@example.com","password":"dev-ci-bot-key"}`)
			}
		})
	}
	wg.Wait()
	if got := len(storedVersions(s)); got != 3+8*20 {
		t.Errorf("%d revisions stored, want %d", got, 3+8*20)
	}
}
