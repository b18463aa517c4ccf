package client

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestLogin_redirectIsNeverFollowed(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			other := newFakeService(t, answerWith(http.StatusOK, `{"token":"other-host-token"}`))
			svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				http.Redirect(w, r, other.URL+r.URL.Path, status)
			})
			c := newTestClient(t, svc.URL, func(o *Options) { o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey })
			_, _, err := c.GetReviewConfig(context.Background(), "x")
			var invalid *InvalidResponseError
			if !errors.As(err, &invalid) || !strings.Contains(err.Error(), "redirected the login") {
				t.Fatalf("err = %v, want an invalid response saying the login was redirected", err)
			}
			if n := len(other.Requests()); n != 0 {
				t.Errorf("the other host got %d requests", n)
			}
			if n := len(svc.Requests()); n != 1 {
				t.Errorf("%d requests, want the login alone", n)
			}
		})
	}
}

func TestRedirect_noCredentialOnAnyHopAfterAnotherOrigin(t *testing.T) {
	var svc *fakeService
	other := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Redirect(w, r, svc.URL+"/v1/reviewConfigs/back", http.StatusFound)
	})
	svc = newFakeService(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			http.Redirect(w, r, other.URL+"/v1/reviewConfigs/away", http.StatusFound)
			return
		}
		answer(w, http.StatusOK, `{"name":"reviewConfigs/back"}`)
	})
	c := newTestClient(t, svc.URL, func(o *Options) { o.Headers = http.Header{"X-Env": {"prod"}} })
	if _, _, err := c.GetReviewConfig(context.Background(), "x"); err != nil {
		t.Fatal(err)
	}
	hops := append(other.Requests(), svc.Requests()[1:]...)
	for _, r := range hops {
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-Env") != "" {
			t.Errorf("%s after another origin got %v", r.EscapedPath, r.Header)
		}
	}
}

// gzipped returns body compressed.
func gzipped(t *testing.T, body []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(body); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return b.Bytes()
}

func TestSend_answerLargerThanTheLimitIsRefused(t *testing.T) {
	const limit = 1 << 20
	bomb := gzipped(t, bytes.Repeat([]byte(" "), 64<<20))
	tests := []struct {
		name   string
		handle func(w http.ResponseWriter, r *http.Request, n int)
	}{
		{"declared length", func(w http.ResponseWriter, _ *http.Request, _ int) {
			w.Header().Set("Content-Length", "2000000")
			w.WriteHeader(http.StatusOK)
		}},
		{"endless body", func(w http.ResponseWriter, r *http.Request, _ int) {
			chunk := bytes.Repeat([]byte(" "), 64<<10)
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}},
		{"gzip bomb", func(w http.ResponseWriter, _ *http.Request, _ int) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		}},
		{"error body", func(w http.ResponseWriter, _ *http.Request, _ int) {
			w.WriteHeader(http.StatusBadGateway)
			w.Write(bytes.Repeat([]byte("x"), limit+1))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := newFakeService(t, tt.handle)
			c := newTestClient(t, svc.URL, func(o *Options) { o.MaxResponseSize = limit })
			_, _, err := c.GetReviewConfig(context.Background(), "x")
			var invalid *InvalidResponseError
			if !errors.As(err, &invalid) || err.Error() != "invalid response: answer larger than 1MiB" {
				t.Fatalf("err = %v, want the answer refused as too large", err)
			}
			if n := len(svc.Requests()); n != 1 {
				t.Errorf("%d requests, want 1: a too large answer is not asked for again", n)
			}
		})
	}
}

func TestDebugLog_secretFieldsInAnySpelling(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK,
		`{"identityProviders":[{"config":{"client_secret":"s1-SECRET","ClientSecret":"s2-SECRET","BIND_PASSWORD":"s3-SECRET"}}]}`))
	var log bytes.Buffer
	c := newTestClient(t, svc.URL, func(o *Options) { o.Debug = &log })
	if _, _, err := c.ListIdentityProviders(context.Background()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "SECRET") || !strings.Contains(log.String(), `"BIND_PASSWORD":"********"`) {
		t.Errorf("debug log:\n%s", log.String())
	}
}

func TestDebugLog_knownCredentialsInEveryForm(t *testing.T) {
	const token = "ab/cd+ef-SECRET"
	tests := []struct{ name, body string }{
		{"escaped slash", `{"code":3,"message":"token ab\/cd+ef-SECRET refused"}`},
		{"URL-escaped", `{"code":3,"message":"see /v1/x?t=ab%2Fcd%2Bef-SECRET"}`},
		{"cut at the end of the log", `{"code":3,"message":"` + strings.Repeat("x", maxLoggedBody-40) + ` token ab/cd+ef-SECRET"}`},
		{"not JSON", `<html>Bearer ab/cd+ef-SECRET</html>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := newFakeService(t, answerWith(http.StatusBadRequest, tt.body))
			var log bytes.Buffer
			c := newTestClient(t, svc.URL, func(o *Options) { o.Token, o.Debug = token, &log })
			_, _, err := c.GetReviewConfig(context.Background(), "x")
			if err == nil {
				t.Fatal("want the 400")
			}
			for _, part := range []string{"SECRET", "ab/cd", `ab\/cd`, "ab%2Fcd"} {
				if strings.Contains(log.String(), part) || strings.Contains(err.Error(), part) {
					t.Errorf("%q shows:\nerr %v\nlog %s", part, err, log.String())
				}
			}
		})
	}
}

func TestDebugLog_aCutTokenLeavesNoPart(t *testing.T) {
	for shift := 0; shift < 24; shift += 3 {
		body := `{"code":3,"message":"` + strings.Repeat("x", maxLoggedBody-21-shift) + testToken + `"}`
		svc := newFakeService(t, answerWith(http.StatusBadRequest, body))
		var log bytes.Buffer
		c := newTestClient(t, svc.URL, func(o *Options) { o.Debug = &log })
		c.GetReviewConfig(context.Background(), "x")
		if strings.Contains(log.String(), testToken[:6]) {
			t.Errorf("cut %d bytes before the token's end: the log shows its start", shift)
		}
	}
}

func TestMessages_userOnlyURLIsHidden(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusNotFound, `{"code":5,"message":"no"}`))
	base := strings.Replace(svc.URL, "http://", "http://"+testProxyValue+"@", 1)
	var log bytes.Buffer
	c := newTestClient(t, base, func(o *Options) { o.Debug = &log })
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	shown := log.String() + c.DisplayURL(&Request{Method: "GET", Path: "/v1/idps"}) + err.Error()
	if strings.Contains(shown, testProxyValue) {
		t.Errorf("the URL's user shows:\n%s", shown)
	}
}

func TestTransportError_malformedHeaderLineHidesTheToken(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\n" + r.Header.Get("Authorization") + "\r\n\r\n{}")
		buf.Flush()
	})
	c := newTestClient(t, svc.URL)
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	var te *TransportError
	if !errors.As(err, &te) || strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("err = %v", err)
	}
}

func TestNew_refusesAURLThatCannotBeSentTo(t *testing.T) {
	for _, base := range []string{"http://127.0.0.1:65536", "http://127.0.0.1:0", "https://gov.example.com/?", "https://gov.example.com/#", "https://gov.example.com/#top"} {
		if _, err := New(Options{BaseURL: base}); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("New(%q) = %v, want invalid options", base, err)
		}
	}
}

func TestHeaders_onlyCredentialNamedValuesAreSecret(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusBadRequest, `{"code":3,"message":"no access for prod with key-SECRET"}`))
	var log bytes.Buffer
	c := newTestClient(t, svc.URL, func(o *Options) {
		o.Headers = http.Header{"X-Env": {"prod"}, "X-Api-Key": {"key-SECRET"}}
		o.Debug = &log
	})
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	if err == nil || !strings.Contains(err.Error(), "no access for prod with ********") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(log.String(), "> X-Env: prod\n") || !strings.Contains(log.String(), "> X-Api-Key: ********\n") {
		t.Errorf("debug log:\n%s", log.String())
	}
}

func TestAPIError_longMessageIsCut(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusBadRequest, `{"code":3,"message":"`+strings.Repeat("é", 100<<10)+`"}`))
	c := newTestClient(t, svc.URL)
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	var e *APIError
	if !errors.As(err, &e) || len(e.Message) > 4<<10 || !strings.HasSuffix(e.Message, "…") || !strings.HasPrefix(e.Message, "éé") {
		t.Errorf("message of %d bytes ending %q", len(e.Message), e.Message[max(0, len(e.Message)-8):])
	}
}

func TestRetry_aLongWaitIsAnnounced(t *testing.T) {
	for _, tt := range []struct {
		retryAfter string
		want       int
	}{{"1", 0}, {"5", 1}} {
		svc := newFakeService(t, func(w http.ResponseWriter, _ *http.Request, n int) {
			w.Header().Set("Retry-After", tt.retryAfter)
			answer(w, http.StatusTooManyRequests, `{"code":8,"message":"slow down"}`)
		})
		ctx, cancel := context.WithCancel(context.Background())
		var notices []string
		c := newTestClient(t, svc.URL, func(o *Options) {
			o.MaxRetries, o.Timeout = 1, time.Minute
			o.Notice = func(msg string) { notices = append(notices, msg); cancel() }
		})
		go func() { time.Sleep(2 * time.Second); cancel() }()
		c.GetReviewConfig(ctx, "x")
		if len(notices) != tt.want || tt.want > 0 && !strings.Contains(notices[0], "waiting 5s before retry 1 of 1") {
			t.Errorf("Retry-After %s: notices %q", tt.retryAfter, notices)
		}
		cancel()
	}
}

func TestSend_nestingPastMaxDepthIsAnInvalidResponse(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	tests := []struct {
		name string
		body string
		send func(*Client) error
	}{
		{"kept as sent", deep, func(c *Client) error {
			_, err := c.GetCatalog(context.Background(), DatabaseName{Instance: "i", Database: "d"})
			return err
		}},
		{"decoded", `{"name": "reviewConfigs/x", "rules": ` + deep + `}`, func(c *Client) error {
			_, _, err := c.GetReviewConfig(context.Background(), "x")
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := newFakeService(t, answerWith(http.StatusOK, tt.body))
			err := tt.send(newTestClient(t, svc.URL))
			var invalid *InvalidResponseError
			if !errors.As(err, &invalid) || !strings.Contains(err.Error(), "nested deeper than 200") {
				t.Fatalf("err = %v, want an invalid response saying the nesting is too deep", err)
			}
		})
	}
	t.Run("an error body", func(t *testing.T) {
		svc := newFakeService(t, answerWith(http.StatusBadRequest, `{"code": 3, "message": "no", "details": [`+deep+`]}`))
		_, _, err := newTestClient(t, svc.URL).GetReviewConfig(context.Background(), "x")
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.HTTPStatus != 400 || len(apiErr.Details) != 0 || strings.Contains(err.Error(), "[[") {
			t.Fatalf("err = %v, want the 400 without its details", err)
		}
	})
}

func TestServiceAccount_aRefusedLoginIsSentOnce(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.URL.Path == loginPath {
					time.Sleep(10 * time.Millisecond) // the others arrive meanwhile
					answer(w, status, `{"code":16,"message":"the email or password is not valid"}`)
					return
				}
				answer(w, http.StatusOK, `{"name":"reviewConfigs/x"}`)
			})
			c := newTestClient(t, svc.URL, func(o *Options) { o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey })
			errs := make(chan error, 200)
			for range cap(errs) {
				go func() {
					_, _, err := c.GetReviewConfig(context.Background(), "x")
					errs <- err
				}()
			}
			for range cap(errs) {
				var apiErr *APIError
				if err := <-errs; !errors.As(err, &apiErr) || apiErr.HTTPStatus != status || !strings.Contains(err.Error(), "log in as service account") {
					t.Fatalf("err = %v, want the refused login", err)
				}
			}
			if n := len(svc.Requests()); n != 1 {
				t.Errorf("%d requests, want the one login", n)
			}
		})
	}
}

func TestUsersMe_onlyTheServiceItselfAnswers(t *testing.T) {
	other := newFakeService(t, answerWith(http.StatusOK, `{"name":"users/someone@x.com"}`))
	tests := []struct {
		name   string
		target func(r *http.Request) string
		ok     bool
	}{
		{"another origin", func(r *http.Request) string { return other.URL + r.URL.Path }, false},
		{"the same origin", func(*http.Request) string { return "/v1/users/me?moved=1" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 0 {
					http.Redirect(w, r, tt.target(r), http.StatusFound)
					return
				}
				answer(w, http.StatusOK, `{"name":"users/me@x.com"}`)
			})
			var me User
			_, err := newTestClient(t, svc.URL).Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/users/me"}, &me)
			var invalid *InvalidResponseError
			switch {
			case tt.ok && (err != nil || me.Name != "users/me@x.com"):
				t.Fatalf("got %+v, %v", me, err)
			case !tt.ok && (!errors.As(err, &invalid) || !strings.Contains(err.Error(), "redirected users/me to another origin")):
				t.Fatalf("err = %v, want an invalid response saying users/me was redirected", err)
			}
		})
	}
	if n := len(other.Requests()); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

func TestServiceAccount_aBusyLoginIsWaitedOutOnce(t *testing.T) {
	tests := []struct {
		name                   string
		busyLogins, wantLogins int
		ok                     bool
	}{
		{"busy once", 1, 2, true},
		{"busy twice", 2, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logins atomic.Int32
			svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.URL.Path == loginPath {
					if int(logins.Add(1)) <= tt.busyLogins {
						w.Header().Set("Retry-After", "0")
						answer(w, http.StatusTooManyRequests, `{"code":8,"message":"slow down"}`)
						return
					}
					answer(w, http.StatusOK, `{"token":"`+testLoginToken+`"}`)
					return
				}
				answer(w, http.StatusOK, `{"name":"reviewConfigs/x"}`)
			})
			c := newTestClient(t, svc.URL, func(o *Options) { o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey })
			for range 20 {
				_, _, err := c.GetReviewConfig(context.Background(), "x")
				var apiErr *APIError
				if tt.ok && err != nil || !tt.ok && (!errors.As(err, &apiErr) || apiErr.HTTPStatus != http.StatusTooManyRequests) {
					t.Fatalf("err = %v", err)
				}
			}
			if n := int(logins.Load()); n != tt.wantLogins {
				t.Errorf("%d logins, want %d", n, tt.wantLogins)
			}
			for _, r := range svc.Requests() {
				var body LoginRequest
				if r.EscapedPath == loginPath && (json.Unmarshal(r.Body, &body) != nil || body.Email != testAccount) {
					t.Errorf("login body %q, want the account and key each time", r.Body)
				}
			}
		})
	}
}
