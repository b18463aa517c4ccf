package client

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-resty/resty/v2"
)

// statusSequence answers with the given statuses in turn, then 200 {}.
func statusSequence(statuses ...int) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < len(statuses) {
			answer(w, statuses[n], `{"code":14,"message":"try later"}`)
			return
		}
		answer(w, http.StatusOK, `{}`)
	}
}

func TestSend_retriesAGetOnTransientStatuses(t *testing.T) {
	tests := []struct {
		name                     string
		statuses                 []int
		maxRetries, wantRequests int
		wantStatus               int // 0 when the call succeeds
	}{
		{name: "503 503 200", statuses: []int{503, 503}, wantRequests: 3},
		{name: "429 502 504 200", statuses: []int{429, 502, 504}, wantRequests: 4},
		{name: "four 503 give up after three retries", statuses: []int{503, 503, 503, 503}, wantRequests: 4, wantStatus: 503},
		{name: "500 is not retried", statuses: []int{500}, wantRequests: 1, wantStatus: 500},
		{name: "404 is not retried", statuses: []int{404}, wantRequests: 1, wantStatus: 404},
		{name: "MaxRetries 1", statuses: []int{503, 503}, maxRetries: 1, wantRequests: 2, wantStatus: 503},
		{name: "negative MaxRetries means none", statuses: []int{503}, maxRetries: -1, wantRequests: 1, wantStatus: 503},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := newFakeService(t, statusSequence(tc.statuses...))
			c := newTestClient(t, svc.URL, func(o *Options) { o.MaxRetries = tc.maxRetries })
			_, _, err := batchGetUsers(context.Background(), c, []string{"a@x.com"})
			if n := len(svc.Requests()); n != tc.wantRequests {
				t.Errorf("%d requests, want %d", n, tc.wantRequests)
			}
			if tc.wantStatus == 0 {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			var e *APIError
			if !errors.As(err, &e) || e.HTTPStatus != tc.wantStatus {
				t.Fatalf("err = %v, want HTTP %d", err, tc.wantStatus)
			}
		})
	}
}

func TestSend_neverRetriesAPostOrPatchThatReachedTheService(t *testing.T) {
	db := DatabaseName{Instance: "i", Database: "d"}
	calls := map[string]func(context.Context, *Client) error{
		"undelete": func(ctx context.Context, c *Client) error {
			_, _, err := c.UndeleteUser(ctx, "a@x.com")
			return err
		},
		"batch create": func(ctx context.Context, c *Client) error {
			_, _, err := batchCreateRevisions(ctx, c, db, []RevisionInput{{Version: "1"}})
			return err
		},
		"catalog update": func(ctx context.Context, c *Client) error {
			_, err := c.UpdateCatalog(ctx, db, []byte(`{}`))
			return err
		},
		"diff": func(ctx context.Context, c *Client) error {
			_, _, err := diffSchema(ctx, c, db, "c", &DiffSchemaRequest{Schema: "x"})
			return err
		},
	}
	for name, do := range calls {
		for _, status := range []int{429, 502, 503, 504} {
			svc := newFakeService(t, statusSequence(status, status))
			c := newTestClient(t, svc.URL)
			err := do(context.Background(), c)
			var e *APIError
			if !errors.As(err, &e) || e.HTTPStatus != status {
				t.Errorf("%s on %d: err = %v", name, status, err)
			}
			if n := len(svc.Requests()); n != 1 {
				t.Errorf("%s on %d: %d requests, want exactly 1", name, status, n)
			}
		}
	}
}

func TestSend_retriesAGetAfterADroppedConnection(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 0 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		answer(w, http.StatusOK, `{"name":"reviewConfigs/x"}`)
	})
	c := newTestClient(t, svc.URL)
	cfg, _, err := c.GetReviewConfig(context.Background(), "x")
	if err != nil || cfg.Name != "reviewConfigs/x" {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	if n := len(svc.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestSend_doesNotRetryAPostAfterADroppedConnection(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	c := newTestClient(t, svc.URL)
	_, _, err := c.UndeleteUser(context.Background(), "a@x.com")
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a TransportError", err)
	}
	if n := len(svc.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestSend_retriesAPostThatCouldNotConnect(t *testing.T) {
	// Reserve a port, keep it closed for the first attempt, then serve on it.
	addr := closedAddr(t)
	var served atomic.Int32
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		answer(w, http.StatusOK, `{"name":"users/a@x.com","state":"ACTIVE"}`)
	})}
	t.Cleanup(func() { srv.Close() })
	c := newTestClient(t, "http://"+addr, func(o *Options) {
		o.RetryWait = 300 * time.Millisecond
	})
	go func() {
		time.Sleep(50 * time.Millisecond)
		l2, err := net.Listen("tcp", addr)
		if err != nil {
			return
		}
		_ = srv.Serve(l2)
	}()
	u, _, err := c.UndeleteUser(context.Background(), "a@x.com")
	if err != nil {
		t.Skipf("could not take the port back: %v", err)
	}
	if u.State != UserStateActive || served.Load() != 1 {
		t.Errorf("got %+v after %d requests, want one", u, served.Load())
	}
}

func TestSend_honoursRetryAfter(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 0 {
			w.Header().Set("Retry-After", "1")
			answer(w, http.StatusTooManyRequests, `{"code":8,"message":"slow down"}`)
			return
		}
		answer(w, http.StatusOK, `{}`)
	})
	var log bytes.Buffer
	c := newTestClient(t, svc.URL, func(o *Options) { o.Debug = &log })
	if _, _, err := c.ListIdentityProviders(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(svc.Requests()); n != 2 || !strings.Contains(log.String(), "* HTTP 429 Too Many Requests: retry 1 of 3 in 1s\n") {
		t.Errorf("%d requests, debug log:\n%s", n, log.String())
	}
}

// fakeClock is a Clock whose time moves only when it is asked to sleep.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slept = append(c.slept, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func (c *fakeClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

func TestRetryAfter_honoursTheAnswerUpToTheTimeout(t *testing.T) {
	clock := newFakeClock()
	c := newTestClient(t, "http://127.0.0.1:1", func(o *Options) {
		o.Timeout, o.RetryWait, o.Clock = time.Minute, 500*time.Millisecond, clock
	})
	tests := []struct {
		name       string
		retryAfter string // "-" for no answer at all
		want       time.Duration
	}{
		{"seconds", "20", 20 * time.Second},
		{"longer than the timeout", "600", time.Minute},
		{"a date", clock.Now().Add(45 * time.Second).Format(http.TimeFormat), 45 * time.Second},
		{"a date past", clock.Now().Add(-time.Hour).Format(http.TimeFormat), 500 * time.Millisecond},
		{"zero waits the first backoff", "0", 500 * time.Millisecond},
		{"none leaves the wait to resty's backoff", "", 0},
		{"garbage leaves the wait to resty's backoff", "soon", 0},
		{"no answer leaves the wait to resty's backoff", "-", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := &resty.Response{Request: &resty.Request{Attempt: 1}}
			if tt.retryAfter != "-" {
				resp.RawResponse = &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {tt.retryAfter}}}
			}
			if got, err := c.retryAfter(nil, resp); got != tt.want || err != nil {
				t.Errorf("retryAfter = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestNew_retriesAsTheContractSays(t *testing.T) {
	c := newTestClient(t, "http://127.0.0.1:1", func(o *Options) { o.Timeout, o.RetryWait = 0, 0 })
	if c.rc.RetryCount != 3 || c.rc.RetryWaitTime != 500*time.Millisecond || c.rc.RetryMaxWaitTime != 30*time.Second {
		t.Errorf("resty retries %d times, waiting from %s up to %s", c.rc.RetryCount, c.rc.RetryWaitTime, c.rc.RetryMaxWaitTime)
	}
}

func TestParseRetryAfter_readsSecondsAndDates(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{in: "", ok: false},
		{in: "5", want: 5 * time.Second, ok: true},
		{in: " 2 ", want: 2 * time.Second, ok: true},
		{in: "-1", ok: false},
		{in: "1.5", ok: false},
		{in: "Wed, 04 Mar 2026 05:06:17 GMT", want: 10 * time.Second, ok: true},
		{in: "99999999999999", want: 24 * time.Hour, ok: true},
	}
	for _, tc := range tests {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSend_cancelStopsTheBackoff(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Retry-After", "30")
		answer(w, http.StatusServiceUnavailable, `{"code":14,"message":"down"}`)
	})
	c := newTestClient(t, svc.URL, func(o *Options) { o.Timeout = time.Minute })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, _, err := c.GetReviewConfig(ctx, "x")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("cancel took %s to stop the backoff", elapsed)
	}
}

// loginService answers logins with numbered tokens and accepts only the
// latest token on other routes, answering 401 to any other.
type loginService struct {
	*fakeService
	logins  atomic.Int32
	current atomic.Value // string
}

func newLoginService(t *testing.T, expireFirstToken bool) *loginService {
	s := &loginService{}
	s.current.Store("")
	s.fakeService = newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.URL.Path == loginPath {
			n := s.logins.Add(1)
			token := testLoginToken + "-" + string(rune('0'+n))
			s.current.Store(token)
			answer(w, http.StatusOK, `{"token": "`+token+`", "expiresIn": 3600}`)
			if expireFirstToken && n == 1 {
				s.current.Store("expired")
			}
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+s.current.Load().(string) {
			answer(w, http.StatusUnauthorized, `{"code":16,"message":"token expired"}`)
			return
		}
		answer(w, http.StatusOK, `{"name":"users/a@x.com"}`)
	})
	return s
}

// loginBodies decodes the bodies of the logins received.
func (s *loginService) loginBodies(t *testing.T) []LoginRequest {
	var out []LoginRequest
	for _, r := range s.Requests() {
		if r.EscapedPath == loginPath {
			var body LoginRequest
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatalf("login body %s: %v", r.Body, err)
			}
			out = append(out, body)
		}
	}
	return out
}

func TestServiceAccount_logsInOnceAndUsesTheToken(t *testing.T) {
	s := newLoginService(t, false)
	c := newTestClient(t, s.URL, func(o *Options) {
		o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey
	})
	for range 2 {
		if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err != nil {
			t.Fatal(err)
		}
	}
	bodies := s.loginBodies(t)
	if len(bodies) != 1 || bodies[0] != (LoginRequest{Email: testAccount, Password: testKey}) {
		t.Errorf("logins = %+v, want one with the account and key", bodies)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[0].Method != http.MethodPost || reqs[0].Header.Get("Authorization") != "" {
		t.Fatalf("requests = %+v", reqs)
	}
	for _, r := range reqs[1:] {
		if r.Header.Get("Authorization") != "Bearer "+testLoginToken+"-1" {
			t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
		}
	}
}

func TestServiceAccount_401LogsInAgainAndResendsOnce(t *testing.T) {
	s := newLoginService(t, true)
	c := newTestClient(t, s.URL, func(o *Options) {
		o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey
	})
	u, _, err := c.UndeleteUser(context.Background(), "a@x.com")
	if err != nil || u.Name != "users/a@x.com" {
		t.Fatalf("got %+v, %v", u, err)
	}
	var paths []string
	for _, r := range s.Requests() {
		paths = append(paths, r.Method+" "+r.EscapedPath)
	}
	want := []string{"POST /v1/auth/login", "POST /v1/users/a@x.com:undelete", "POST /v1/auth/login", "POST /v1/users/a@x.com:undelete"}
	if strings.Join(paths, ", ") != strings.Join(want, ", ") {
		t.Errorf("requests = %v, want %v", paths, want)
	}
}

func TestServiceAccount_a401AfterTheNewLoginIsReturned(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.URL.Path == loginPath {
			answer(w, http.StatusOK, `{"token":"`+testLoginToken+`"}`)
			return
		}
		answer(w, http.StatusUnauthorized, `{"code":16,"message":"no"}`)
	})
	c := newTestClient(t, svc.URL, func(o *Options) {
		o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey
	})
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	var e *APIError
	if !errors.As(err, &e) || e.HTTPStatus != 401 {
		t.Fatalf("err = %v", err)
	}
	if n := len(svc.Requests()); n != 4 {
		t.Errorf("%d requests, want login, call, login, call", n)
	}
}

func TestServiceAccount_failedLoginIsReported(t *testing.T) {
	tests := []struct {
		name, body string
		status     int
		check      func(error) bool
	}{
		{name: "wrong key", status: 401, body: `{"code":16,"message":"the email or password is not valid"}`, check: func(err error) bool {
			var e *APIError
			return errors.As(err, &e) && e.HTTPStatus == 401
		}},
		{name: "no token in the answer", status: 200, body: `{"user":"x"}`, check: func(err error) bool {
			var e *InvalidResponseError
			return errors.As(err, &e) && strings.Contains(err.Error(), "holds no token")
		}},
		{name: "a token that cannot be a header", status: 200, body: `{"token":"abc\r\nX-Injected: yes"}`, check: func(err error) bool {
			var e *InvalidResponseError
			return errors.As(err, &e) && strings.Contains(err.Error(), "characters a header cannot carry") &&
				!strings.Contains(err.Error(), "X-Injected")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := newFakeService(t, answerWith(tc.status, tc.body))
			c := newTestClient(t, svc.URL, func(o *Options) {
				o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey
			})
			_, _, err := c.GetReviewConfig(context.Background(), "x")
			if !tc.check(err) || !strings.Contains(err.Error(), "log in as service account "+testAccount) {
				t.Fatalf("err = %v", err)
			}
			if n := len(svc.Requests()); n != 1 {
				t.Errorf("%d requests, want only the login", n)
			}
		})
	}
}

func TestToken_givenDirectlyIsNeverRefreshed(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusUnauthorized, `{"code":16,"message":"expired"}`))
	c := newTestClient(t, svc.URL, func(o *Options) {
		o.ServiceAccount, o.ServiceKey = testAccount, testKey // the token wins
	})
	_, _, err := c.UndeleteUser(context.Background(), "a@x.com")
	var e *APIError
	if !errors.As(err, &e) || e.HTTPStatus != 401 {
		t.Fatalf("err = %v", err)
	}
	reqs := svc.Requests()
	if len(reqs) != 1 || reqs[0].EscapedPath == loginPath {
		t.Errorf("requests = %+v, want the one call and no login", reqs)
	}
}

func TestRedirect_sameHostKeepsCredentials(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			http.Redirect(w, r, "/v1/reviewConfigs/y", http.StatusFound)
			return
		}
		answer(w, http.StatusOK, `{"name":"reviewConfigs/y"}`)
	})
	c := newTestClient(t, svc.URL, func(o *Options) { o.Headers = http.Header{"X-Proxy-Auth": {testProxyValue}} })
	cfg, _, err := c.GetReviewConfig(context.Background(), "x")
	if err != nil || cfg.Name != "reviewConfigs/y" {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	r := svc.Requests()[1]
	if r.Header.Get("Authorization") != "Bearer "+testToken || r.Header.Get("X-Proxy-Auth") != testProxyValue {
		t.Errorf("after a same-host redirect the headers are %v", r.Header)
	}
}

func TestRedirect_otherHostDropsCredentials(t *testing.T) {
	other := newFakeService(t, answerWith(http.StatusOK, `{"name":"reviewConfigs/elsewhere"}`))
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Redirect(w, r, other.URL+"/v1/reviewConfigs/elsewhere", http.StatusTemporaryRedirect)
	})
	c := newTestClient(t, svc.URL, func(o *Options) {
		o.Headers = http.Header{"X-Proxy-Auth": {testProxyValue}, "Cookie": {"session=" + testProxyValue}}
	})
	cfg, _, err := c.GetReviewConfig(context.Background(), "x")
	if err != nil || cfg.Name != "reviewConfigs/elsewhere" {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	if got := svc.Requests()[0].Header.Get("X-Proxy-Auth"); got != testProxyValue {
		t.Fatalf("the first host did not get the extra header: %q", got)
	}
	r := other.Requests()[0]
	for _, name := range []string{"Authorization", "Cookie", "X-Proxy-Auth"} {
		if v := r.Header.Get(name); v != "" {
			t.Errorf("the other host got %s: %q", name, v)
		}
	}
	if r.Header.Get("User-Agent") != "dbgov/test" {
		t.Errorf("User-Agent = %q", r.Header.Get("User-Agent"))
	}
}

func TestRedirect_stopsAfterTen(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Redirect(w, r, "/v1/reviewConfigs/loop", http.StatusFound)
	})
	c := newTestClient(t, svc.URL) // a loop is not retried
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	var invalid *InvalidResponseError // the service's answer is at fault, not the network
	if !errors.As(err, &invalid) || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Fatalf("err = %v", err)
	}
	if n := len(svc.Requests()); n != 11 {
		t.Errorf("%d requests, want 11", n)
	}
}

func TestTLS_selfSignedFailsWithoutCAAndWorksWithIt(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusOK, `{"identityProviders":[{"name":"idps/a"}]}`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	t.Cleanup(srv.Close)

	c := newTestClient(t, srv.URL)
	_, _, err := c.ListIdentityProviders(context.Background())
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(te.Hint, "--ca-cert") || !strings.Contains(te.Hint, "--insecure-skip-tls-verify") {
		t.Fatalf("err = %#v, want a TransportError with a hint", err)
	}
	if !strings.Contains(te.Error(), "TLS certificate") {
		t.Errorf("message = %q", te.Error())
	}

	caFile := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	c = newTestClient(t, srv.URL, func(o *Options) { o.CACertFile = caFile })
	list, _, err := c.ListIdentityProviders(context.Background())
	if err != nil || len(list.IdentityProviders) != 1 {
		t.Fatalf("with the CA: %+v, %v", list, err)
	}

	c = newTestClient(t, srv.URL, func(o *Options) { o.InsecureSkipTLSVerify = true })
	if _, _, err := c.ListIdentityProviders(context.Background()); err != nil {
		t.Fatalf("insecure: %v", err)
	}
}

func TestTLS_plainHTTPServerIsExplained(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
	c := newTestClient(t, strings.Replace(svc.URL, "http://", "https://", 1))
	_, _, err := c.ListIdentityProviders(context.Background())
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(te.Error(), "does not speak TLS") {
		t.Fatalf("err = %v", err)
	}
	if len(svc.Requests()) != 0 {
		t.Errorf("requests reached the handler")
	}
}

func TestNew_refusesBadOptions(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{name: "no URL", opts: Options{}, want: "no service URL"},
		{name: "no scheme", opts: Options{BaseURL: "gov.example.com"}, want: "must begin with http:// or https://"},
		{name: "ftp", opts: Options{BaseURL: "ftp://gov.example.com"}, want: "must begin with http:// or https://"},
		{name: "no host", opts: Options{BaseURL: "https://"}, want: "has no host"},
		{name: "query", opts: Options{BaseURL: "https://gov.example.com/?a=1"}, want: "may not hold a query"},
		{name: "missing CA", opts: Options{BaseURL: "https://gov.example.com", CACertFile: filepath.Join(dir, "none.pem")}, want: "read CA bundle"},
		{name: "invalid CA", opts: Options{BaseURL: "https://gov.example.com", CACertFile: notPEM}, want: "holds no PEM certificate"},
		{name: "bad header name", opts: Options{BaseURL: "https://gov.example.com", Headers: http.Header{"X Bad": {"v"}}}, want: "header name"},
		{name: "token with a line break", opts: Options{BaseURL: "https://gov.example.com", Token: "abc\nX-A: b"}, want: "the token holds"},
		{name: "header value with newline", opts: Options{BaseURL: "https://gov.example.com", Headers: http.Header{"X-A": {"a\r\nX-B: b"}}}, want: "control character"},
	}
	for _, tc := range tests {
		c, err := New(tc.opts)
		if !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: New = %v, %v; want an error containing %q", tc.name, c, err, tc.want)
		}
	}
}

func TestURL_toleratesTrailingSlashAndV1(t *testing.T) {
	r := &Request{Method: http.MethodGet, Path: "/v1/users:batchGet", Query: map[string][]string{"names": {"users/a@x.com", "users/b@x.com"}}}
	const wantSuffix = "/v1/users:batchGet?names=users%2Fa%40x.com&names=users%2Fb%40x.com"
	for base, prefix := range map[string]string{
		"https://gov.example.com":           "https://gov.example.com",
		"https://gov.example.com/":          "https://gov.example.com",
		"https://gov.example.com/v1":        "https://gov.example.com",
		"https://gov.example.com/v1/":       "https://gov.example.com",
		" https://gov.example.com/api/v1/ ": "https://gov.example.com/api",
		"http://127.0.0.1:8080":             "http://127.0.0.1:8080",
	} {
		c, err := New(Options{BaseURL: base})
		if err != nil {
			t.Fatalf("New(%q): %v", base, err)
		}
		if got := c.URL(r); got != prefix+wantSuffix {
			t.Errorf("URL with base %q = %q, want %q", base, got, prefix+wantSuffix)
		}
	}
}

func TestSend_largeBodyIsReadWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("a 40 MB answer")
	}
	var big bytes.Buffer
	big.WriteString(`{"users":[`)
	for i := 0; big.Len() < 40<<20; i++ {
		if i > 0 {
			big.WriteByte(',')
		}
		big.WriteString(`{"name":"users/u` + strings.Repeat("x", 200) + `@example.com","state":"ACTIVE","userType":"USER"}`)
	}
	big.WriteString(`]}`)
	svc := newFakeService(t, answerWith(http.StatusOK, big.String()))
	c := newTestClient(t, svc.URL, func(o *Options) { o.Timeout = time.Minute })
	list, raw, err := batchGetUsers(context.Background(), c, []string{"a@x.com"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, big.Bytes()) {
		t.Errorf("raw body differs from what was sent (%d vs %d bytes)", len(raw), big.Len())
	}
	if len(list.Users) < 150000 || list.Users[len(list.Users)-1].State != UserStateActive {
		t.Errorf("decoded %d users", len(list.Users))
	}
}
