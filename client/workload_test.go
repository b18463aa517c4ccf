package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dbgov/dbgov/internal/exitcode"
)

const testIdentity = "deploy@workload.bytebase.com"

// workloadService answers exchanges with numbered access tokens and accepts
// only the latest on other routes; the first is refused when expireFirst.
// An exchange is answered status with message when status is not 200.
type workloadService struct {
	*fakeService
	exchanges atomic.Int32
	current   atomic.Value // string
}

func newWorkloadService(t *testing.T, expireFirst bool, status int, message string) *workloadService {
	s := &workloadService{}
	s.current.Store("")
	s.fakeService = newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.URL.Path == exchangePath {
			n := s.exchanges.Add(1)
			if status != http.StatusOK {
				answer(w, status, `{"code":16,"message":"`+message+`"}`)
				return
			}
			token := "access-tok-SECRET-" + strconv.Itoa(int(n))
			s.current.Store(token)
			if expireFirst && n == 1 {
				s.current.Store("expired")
			}
			answer(w, http.StatusOK, `{"accessToken": "`+token+`"}`)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+s.current.Load().(string) {
			answer(w, http.StatusUnauthorized, `{"code":16,"message":"token expired"}`)
			return
		}
		answer(w, http.StatusOK, `{"name":"users/`+testIdentity+`"}`)
	})
	return s
}

// exchangeBodies decodes the bodies of the exchanges received, and fails
// the test when one carried an Authorization header.
func (s *workloadService) exchangeBodies(t *testing.T) []ExchangeTokenRequest {
	t.Helper()
	var out []ExchangeTokenRequest
	for _, r := range s.Requests() {
		if r.EscapedPath != "/v1/auth:exchangeToken" {
			continue
		}
		var body ExchangeTokenRequest
		if err := json.Unmarshal(r.Body, &body); err != nil || r.Method != http.MethodPost || r.Header.Get("Authorization") != "" {
			t.Fatalf("exchange %s %s (Authorization %q): %v", r.Method, r.Body, r.Header.Get("Authorization"), err)
		}
		out = append(out, body)
	}
	return out
}

// oidcSource returns numbered OIDC tokens, counting the calls.
type oidcSource struct{ calls atomic.Int32 }

func (o *oidcSource) token(context.Context) (string, error) {
	return "oidc-jwt-SECRET-" + strconv.Itoa(int(o.calls.Add(1))), nil
}

// withWorkload gives the client the workload identity, its OIDC tokens
// from src, and no cache unless caches does.
func withWorkload(src *oidcSource, caches func(string) TokenCache) func(*Options) {
	return func(o *Options) {
		o.Token, o.WorkloadIdentity, o.OIDCToken, o.WorkloadTokenCache = "", testIdentity, src.token, caches
	}
}

// getMe sends GET /v1/users/me, n at once, and returns their errors.
func getMe(c *Client, n int) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, errs[i] = c.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/users/me"}, nil)
		})
	}
	wg.Wait()
	return errs
}

func TestWorkloadIdentity_oneExchangeForManyConcurrentRequests(t *testing.T) {
	s := newWorkloadService(t, false, http.StatusOK, "")
	src := &oidcSource{}
	var log bytes.Buffer
	c := newTestClient(t, s.URL, withWorkload(src, nil), func(o *Options) { o.Debug = &log })
	for _, err := range getMe(c, 200) {
		if err != nil {
			t.Fatal(err)
		}
	}
	bodies := s.exchangeBodies(t)
	if len(bodies) != 1 || src.calls.Load() != 1 {
		t.Fatalf("%d exchanges and %d OIDC tokens asked for 200 requests, want one each", len(bodies), src.calls.Load())
	}
	if want := (ExchangeTokenRequest{Token: "oidc-jwt-SECRET-1", Email: testIdentity}); bodies[0] != want {
		t.Errorf("exchange body %+v, want %+v", bodies[0], want)
	}
	if strings.Contains(log.String(), "SECRET") {
		t.Errorf("the debug log shows a token:\n%s", log.String())
	}
}

func TestWorkloadIdentity_a401ExchangesOnceMoreWithAFreshOIDCToken(t *testing.T) {
	s := newWorkloadService(t, true, http.StatusOK, "")
	src := &oidcSource{}
	c := newTestClient(t, s.URL, withWorkload(src, nil))
	for _, err := range getMe(c, 50) {
		if err != nil {
			t.Fatal(err)
		}
	}
	var tokens []string
	for _, b := range s.exchangeBodies(t) {
		tokens = append(tokens, b.Token)
	}
	if got, want := strings.Join(tokens, ", "), "oidc-jwt-SECRET-1, oidc-jwt-SECRET-2"; got != want {
		t.Errorf("exchanged OIDC tokens %s, want %s: one exchange, then one more with a fresh token", got, want)
	}
}

func TestWorkloadIdentity_exchangeFailuresKeepTheServiceMessage(t *testing.T) {
	tests := []struct {
		name, message string
		status, code  int
	}{
		{"unknown identity", `workload identity \"x\" not found`, http.StatusNotFound, exitcode.NotFound},
		{"audience mismatch", "token validation failed: audience mismatch", http.StatusUnauthorized, exitcode.Auth},
		{"deactivated", "workload identity has been deactivated", http.StatusUnauthorized, exitcode.Auth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWorkloadService(t, false, tt.status, tt.message)
			c := newTestClient(t, s.URL, withWorkload(&oidcSource{}, nil))
			for _, err := range getMe(c, 20) {
				r := exitcode.Classify(err)
				if r.Code != tt.code || !strings.Contains(err.Error(), strings.ReplaceAll(tt.message, `\"`, `"`)) ||
					!strings.Contains(err.Error(), "workload identity "+testIdentity) || strings.Contains(err.Error(), "SECRET") {
					t.Fatalf("error %q (exit %d), want exit %d with the service's message", err, r.Code, tt.code)
				}
			}
			if n := s.exchanges.Load(); n != 1 {
				t.Errorf("%d exchanges for 20 requests, want one: a refusal is remembered", n)
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("%d requests sent, want the exchange alone", n)
			}
		})
	}
}

func TestWorkloadIdentity_cacheIsKeyedByTheOIDCToken(t *testing.T) {
	s := newWorkloadService(t, false, http.StatusOK, "")
	caches := map[string]*memoryCache{}
	var mu sync.Mutex
	cacheFor := func(oidc string) TokenCache {
		mu.Lock()
		defer mu.Unlock()
		if caches[oidc] == nil {
			caches[oidc] = &memoryCache{}
		}
		return caches[oidc]
	}
	fixed := func(token string) func(*Options) {
		return func(o *Options) { o.OIDCToken = func(context.Context) (string, error) { return token, nil } }
	}
	for i, oidc := range []string{"oidc-of-job-A", "oidc-of-job-A", "oidc-of-job-B"} {
		c := newTestClient(t, s.URL, withWorkload(&oidcSource{}, cacheFor), fixed(oidc))
		if err := getMe(c, 1)[0]; err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	if n := s.exchanges.Load(); n != 2 {
		t.Errorf("%d exchanges, want 2: job A's second run finds its token, job B does not", n)
	}
	for oidc, want := range map[string]string{"oidc-of-job-A": "get, put access-tok-SECRET-1, get", "oidc-of-job-B": "get, put access-tok-SECRET-2"} {
		if got := caches[oidc].record(); got != want {
			t.Errorf("cache of %s: %s, want %s", oidc, got, want)
		}
	}
}

func TestWorkloadIdentity_noOIDCTokenSendsNothing(t *testing.T) {
	s := newWorkloadService(t, false, http.StatusOK, "")
	noToken := exitcode.Usagef("no OIDC token")
	c := newTestClient(t, s.URL, withWorkload(&oidcSource{}, nil), func(o *Options) {
		o.OIDCToken = func(context.Context) (string, error) { return "", noToken }
	})
	if err := getMe(c, 1)[0]; !errors.Is(err, noToken) || exitcode.Classify(err).Code != exitcode.Usage {
		t.Errorf("error %v, want the token source's, exit 2", err)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}
