package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCodeName_namesEveryGRPCCode(t *testing.T) {
	want := []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
		"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
		"OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}
	for code, name := range want {
		if got := CodeName(code); got != name {
			t.Errorf("CodeName(%d) = %q, want %q", code, got, name)
		}
	}
	for code, name := range map[int]string{17: "CODE_17", -1: "CODE_-1", 99: "CODE_99"} {
		if got := CodeName(code); got != name {
			t.Errorf("CodeName(%d) = %q, want %q", code, got, name)
		}
	}
}

func TestParseErrorBody_readsTheServiceErrorOrDescribesTheBody(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		wantCode    int
		wantName    string
		wantMessage string
		wantDetails int
	}{
		{name: "service error with details", status: 404, contentType: "application/json",
			body:     `{"code": 5, "message": "user \"users/a@x.com\" not found", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "X"}]}`,
			wantCode: 5, wantName: "NOT_FOUND", wantMessage: `user "users/a@x.com" not found`, wantDetails: 1},
		{name: "service error without details, odd spacing, extra fields", status: 400, contentType: "application/json; charset=utf-8",
			body:     "{ \"code\" :9 ,\n \"message\" : \"database is not ready\" , \"error\": \"x\" }",
			wantCode: 9, wantName: "FAILED_PRECONDITION", wantMessage: "database is not ready"},
		{name: "unknown route: 404 with code 2", status: 404, contentType: "application/json",
			body: `{"code":2,"message":"Not Found"}`, wantCode: 2, wantName: "UNKNOWN", wantMessage: "Not Found"},
		{name: "unknown code number", status: 500, contentType: "application/json",
			body: `{"code":42,"message":"new failure"}`, wantCode: 42, wantName: "CODE_42", wantMessage: "new failure"},
		{name: "message without code", status: 403, contentType: "application/json",
			body: `{"message":"denied"}`, wantCode: 7, wantName: "PERMISSION_DENIED", wantMessage: "denied"},
		{name: "code without message", status: 409, contentType: "application/json",
			body: `{"code":6}`, wantCode: 6, wantName: "ALREADY_EXISTS", wantMessage: "service answered 409 Conflict without a message"},
		{name: "details of the wrong type are dropped", status: 400, contentType: "application/json",
			body: `{"code":3,"message":"bad","details":"oops"}`, wantCode: 3, wantName: "INVALID_ARGUMENT", wantMessage: "bad"},
		{name: "HTML page of a proxy", status: 502, contentType: "text/html",
			body:     "<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>",
			wantCode: 14, wantName: "UNAVAILABLE", wantMessage: "service answered 502 Bad Gateway with a text/html page instead of an error body"},
		{name: "HTML without a content type", status: 503, contentType: "",
			body:     "<!DOCTYPE html><html><p>down for maintenance</p></html>",
			wantCode: 14, wantName: "UNAVAILABLE", wantMessage: "service answered 503 Service Unavailable with a text/html page instead of an error body"},
		{name: "plain text", status: 504, contentType: "text/plain; charset=utf-8",
			body:     "upstream request timeout",
			wantCode: 4, wantName: "DEADLINE_EXCEEDED", wantMessage: "service answered 504 Gateway Timeout with text/plain content instead of an error body"},
		{name: "empty body", status: 401, contentType: "",
			body: "", wantCode: 16, wantName: "UNAUTHENTICATED", wantMessage: "service answered 401 Unauthorized with an empty body"},
		{name: "truncated JSON", status: 500, contentType: "application/json",
			body:     `{"code": 13, "message": "inter`,
			wantCode: 13, wantName: "INTERNAL", wantMessage: "service answered 500 Internal Server Error with a malformed JSON body (content type application/json) instead of an error body"},
		{name: "JSON of another shape", status: 429, contentType: "application/problem+json",
			body:     `{"title":"Too Many Requests","status":429}`,
			wantCode: 8, wantName: "RESOURCE_EXHAUSTED", wantMessage: "service answered 429 Too Many Requests with JSON that is not an error body (content type application/problem+json)"},
		{name: "JSON array", status: 499, contentType: "application/json",
			body: `["x"]`, wantCode: 1, wantName: "CANCELLED", wantMessage: "service answered HTTP 499 with JSON that is not an error body (content type application/json)"},
		{name: "unmapped status", status: 418, contentType: "text/plain",
			body: "teapot", wantCode: 2, wantName: "UNKNOWN", wantMessage: "service answered 418 I'm a teapot with text/plain content instead of an error body"},
		{name: "status without text", status: 599, contentType: "text/plain",
			body: "x", wantCode: 2, wantName: "UNKNOWN", wantMessage: "service answered HTTP 599 with text/plain content instead of an error body"},
		{name: "501", status: 501, contentType: "text/plain", body: "no",
			wantCode: 12, wantName: "UNIMPLEMENTED", wantMessage: "service answered 501 Not Implemented with text/plain content instead of an error body"},
		{name: "a hostile content type is not echoed", status: 502, contentType: "text/x-\x1b[31mred",
			body:     "x",
			wantCode: 14, wantName: "UNAVAILABLE", wantMessage: "service answered 502 Bad Gateway with unrecognized content instead of an error body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := parseErrorBody(tc.status, tc.contentType, []byte(tc.body))
			if e.HTTPStatus != tc.status || e.Code != tc.wantCode || e.CodeName != tc.wantName || e.Message != tc.wantMessage {
				t.Errorf("got {%d %d %s %q}, want {%d %d %s %q}", e.HTTPStatus, e.Code, e.CodeName, e.Message,
					tc.status, tc.wantCode, tc.wantName, tc.wantMessage)
			}
			if len(e.Details) != tc.wantDetails {
				t.Errorf("got %d details, want %d", len(e.Details), tc.wantDetails)
			}
		})
	}
}

// TestSend_errorShapes checks what each kind of failing answer becomes,
// through a real exchange.
func TestSend_errorShapes(t *testing.T) {
	tests := []struct {
		name, ctype, body string
		status            int
		check             func(t *testing.T, err error)
		retries           bool
	}{
		{name: "JSON error with details", status: 404, ctype: "application/json",
			body: `{"code":5,"message":"review config not found","details":[{"a":1},{"b":2}]}`,
			check: func(t *testing.T, err error) {
				var e *APIError
				if !errors.As(err, &e) || e.HTTPStatus != 404 || e.CodeName != "NOT_FOUND" || len(e.Details) != 2 ||
					err.Error() != "review config not found (HTTP 404 NOT_FOUND)" {
					t.Errorf("err = %#v", err)
				}
				if string(e.Details[1]) != `{"b":2}` {
					t.Errorf("details[1] = %s", e.Details[1])
				}
			}},
		{name: "JSON error without details", status: 500, ctype: "application/json",
			body: `{"code":13,"message":"failed to find database"}`,
			check: func(t *testing.T, err error) {
				var e *APIError
				if !errors.As(err, &e) || e.Details != nil || err.Error() != "failed to find database (HTTP 500 INTERNAL)" {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "HTML 502", status: 502, ctype: "text/html; charset=utf-8", retries: true,
			body: "<html><title>Bad Gateway</title><body>nginx secret-internal-host</body></html>",
			check: func(t *testing.T, err error) {
				var e *APIError
				if !errors.As(err, &e) || e.CodeName != "UNAVAILABLE" || strings.Contains(err.Error(), "nginx") || strings.Contains(err.Error(), "<") {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "plain text 403", status: 403, ctype: "text/plain", body: "Forbidden by policy",
			check: func(t *testing.T, err error) {
				var e *APIError
				if !errors.As(err, &e) || e.CodeName != "PERMISSION_DENIED" || strings.Contains(e.Message, "policy") {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "empty 401", status: 401, ctype: "", body: "",
			check: func(t *testing.T, err error) {
				var e *APIError
				if !errors.As(err, &e) || e.CodeName != "UNAUTHENTICATED" || e.HTTPStatus != 401 {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "truncated JSON on 200", status: 200, ctype: "application/json", body: `{"name":"reviewConfigs/x","ti`,
			check: wantInvalidResponse},
		{name: "empty 200", status: 200, ctype: "application/json", body: "",
			check: wantInvalidResponse},
		{name: "array on 200", status: 200, ctype: "application/json", body: `[]`,
			check: wantInvalidResponse},
		{name: "null on 200", status: 200, ctype: "application/json", body: `null`,
			check: wantInvalidResponse},
		{name: "wrong field type on 200", status: 200, ctype: "application/json", body: `{"title": 5}`,
			check: func(t *testing.T, err error) {
				wantInvalidResponse(t, err)
				if !strings.Contains(err.Error(), "field title holds a JSON number") {
					t.Errorf("err = %v", err)
				}
			}},
		{name: "HTML on 200", status: 200, ctype: "text/html", body: "<html>login page</html>",
			check: wantInvalidResponse},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := newFakeService(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.body)
			})
			c := newTestClient(t, svc.URL)
			got, raw, err := c.GetReviewConfig(context.Background(), "x")
			if err == nil {
				t.Fatalf("got %+v, %s; want an error", got, raw)
			}
			if got != nil || raw != nil {
				t.Errorf("a failed call returned a value: %+v, %q", got, raw)
			}
			tc.check(t, err)
			wantRequests := 1
			if tc.retries {
				wantRequests = 4
			}
			if n := len(svc.Requests()); n != wantRequests {
				t.Errorf("%d requests, want %d", n, wantRequests)
			}
		})
	}
}

func wantInvalidResponse(t *testing.T, err error) {
	t.Helper()
	var e *InvalidResponseError
	if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "invalid response") {
		t.Errorf("err = %v, want an InvalidResponseError", err)
	}
}

func TestBatchGetUsers_wrongShapeIsInvalidResponse(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{"users":"x"}`))
	c := newTestClient(t, svc.URL)
	_, _, err := batchGetUsers(context.Background(), c, []string{"a@x.com"})
	wantInvalidResponse(t, err)
}

func TestDo_returnsAnyJSONBodyAndRefusesOthers(t *testing.T) {
	tests := []struct {
		body    string
		wantErr bool
	}{
		{body: `{"a":1}`},
		{body: `[1,2]`},
		{body: ``},
		{body: `{"a":`, wantErr: true},
		{body: `<html>`, wantErr: true},
	}
	for _, tc := range tests {
		svc := newFakeService(t, answerWith(http.StatusOK, tc.body))
		c := newTestClient(t, svc.URL)
		r, err := NewRawRequest("get", "/v1/things?x=1&x=2", nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := c.Send(context.Background(), r, nil)
		if tc.wantErr {
			wantInvalidResponse(t, err)
			continue
		}
		if err != nil || string(raw) != tc.body {
			t.Errorf("Do with answer %q = %q, %v", tc.body, raw, err)
		}
		if q := svc.Requests()[0].RawQuery; q != "x=1&x=2" {
			t.Errorf("query = %q", q)
		}
	}
}

func TestSend_refusedConnectionIsTransportError(t *testing.T) {
	addr := closedAddr(t)
	c := newTestClient(t, "http://"+addr)
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	var te *TransportError
	if !errors.As(err, &te) || te.Timeout {
		t.Fatalf("err = %#v, want a TransportError", err)
	}
	if want := "connection to " + addr + " refused"; te.Error() != want {
		t.Errorf("message = %q, want %q", te.Error(), want)
	}
}

func TestSend_unresolvableHostIsTransportError(t *testing.T) {
	// .invalid never resolves (RFC 2606); the lookup fails without leaving the machine
	// when the resolver knows the name is reserved, or quickly with NXDOMAIN.
	c := newTestClient(t, "http://dbgov-test.invalid", func(o *Options) { o.Timeout = 2 * time.Second })
	_, _, err := c.GetReviewConfig(context.Background(), "x")
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err = %#v, want a TransportError", err)
	}
}

// TestSend_timeoutBoundsEachAttempt stops an attempt at the time limit
// whether the answer never starts, stops midway or trickles in: a timed-out
// TransportError, and the attempt is not retried.
func TestSend_timeoutBoundsEachAttempt(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		serve   func(w http.ResponseWriter, r *http.Request)
	}{
		{"no answer", 100 * time.Millisecond, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }},
		{"a body that stops", 100 * time.Millisecond, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"name":`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}},
		{"a trickling body", 300 * time.Millisecond, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			for r.Context().Err() == nil {
				w.Write([]byte(" "))
				w.(http.Flusher).Flush()
				time.Sleep(10 * time.Millisecond)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) { tt.serve(w, r) })
			c := newTestClient(t, svc.URL, func(o *Options) { o.Timeout = tt.timeout })
			start := time.Now()
			_, _, err := c.GetReviewConfig(context.Background(), "x")
			var te *TransportError
			if !errors.As(err, &te) || !te.Timeout {
				t.Fatalf("err = %#v, want a timed-out TransportError", err)
			}
			if want := "within " + tt.timeout.String(); !strings.Contains(te.Error(), want) {
				t.Errorf("message = %q, want it to say %q", te.Error(), want)
			}
			if n := len(svc.Requests()); n != 1 {
				t.Errorf("%d requests, want 1: a timed-out attempt is not retried", n)
			}
			if elapsed := time.Since(start); elapsed > 3*time.Second {
				t.Errorf("took %s for a %s time limit", elapsed, tt.timeout)
			}
		})
	}
}

func TestSend_cancelledContextIsCanceled(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		<-r.Context().Done()
	})
	c := newTestClient(t, svc.URL)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, _, err := c.GetReviewConfig(ctx, "x")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var te *TransportError
	if errors.As(err, &te) {
		t.Errorf("a cancelled call reported no answer: %v", err)
	}
}

func TestSend_noCredentialsSendsNothing(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Options)
		wantMsg string
	}{
		{name: "nothing", edit: func(o *Options) { o.Token = "" }, wantMsg: "needs a token"},
		{name: "account without key", edit: func(o *Options) { o.Token, o.ServiceAccount = "", testAccount }, wantMsg: "has no service key"},
		{name: "key without account", edit: func(o *Options) { o.Token, o.ServiceKey = "", testKey }, wantMsg: "without its service account"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
			c := newTestClient(t, svc.URL, tc.edit)
			_, _, err := c.GetReviewConfig(context.Background(), "x")
			if !errors.Is(err, ErrNoCredentials) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("err = %v, want ErrNoCredentials saying %q", err, tc.wantMsg)
			}
			if n := len(svc.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestSend_extraAuthorizationHeaderStandsInForCredentials(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
	c := newTestClient(t, svc.URL, func(o *Options) {
		o.Token = ""
		o.Headers = http.Header{"authorization": {"Basic abc"}}
	})
	if _, _, err := c.GetReviewConfig(context.Background(), "x"); err != nil {
		t.Fatal(err)
	}
	if a := svc.Requests()[0].Header.Get("Authorization"); a != "Basic abc" {
		t.Errorf("Authorization = %q", a)
	}
}

func TestInvalidResponseError_keepsTheCause(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{"diff": 1}`))
	c := newTestClient(t, svc.URL)
	_, _, err := diffSchema(context.Background(), c, DatabaseName{"i", "d"}, "c", &DiffSchemaRequest{Schema: "x"})
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) {
		t.Errorf("err = %v, want it to wrap the decoding error", err)
	}
}

func TestAPIError_hidesCredentialsTheServiceEchoes(t *testing.T) {
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.URL.Path == loginPath {
			answer(w, http.StatusUnauthorized, `{"code":16,"message":"login with password `+testKey+` refused"}`)
			return
		}
		details, _ := json.Marshal([]map[string]any{
			{"@type": "debug", "headers": r.Header, "request": `{"password": "hunter22"}`},
			{"clientSecret": "oauth-SECRET", "count": json.Number("12345678901234567890")},
		})
		answer(w, http.StatusBadRequest, `{"code":3,"message":"bad request from `+r.Header.Get("Authorization")+` via `+
			r.Header.Get("X-Proxy-Auth")+`: cannot decode {\"bindPassword\": \"bind-SECRET\"}","details":`+string(details)+`}`)
	})
	c := newTestClient(t, svc.URL, func(o *Options) { o.Headers = http.Header{"X-Proxy-Auth": {testProxyValue}} })
	_, _, err := c.UndeleteUser(context.Background(), "a@x.com")
	var e *APIError
	if !errors.As(err, &e) {
		t.Fatalf("err = %v", err)
	}
	all := e.Error()
	for _, d := range e.Details {
		all += string(d)
		if !json.Valid(d) {
			t.Errorf("detail %s is not JSON", d)
		}
	}
	for _, secret := range []string{testToken, testProxyValue, "bind-SECRET", "oauth-SECRET", "hunter22"} {
		if strings.Contains(all, secret) {
			t.Errorf("the error shows %q: %s", secret, all)
		}
	}
	if want := `bad request from Bearer ******** via ********: cannot decode {"bindPassword": "********"}`; e.Message != want {
		t.Errorf("message = %q, want %q", e.Message, want)
	}
	if !strings.Contains(string(e.Details[1]), `"count":12345678901234567890`) {
		t.Errorf("a number was changed: %s", e.Details[1])
	}

	c = newTestClient(t, svc.URL, func(o *Options) { o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey })
	_, _, err = c.GetReviewConfig(context.Background(), "x")
	if err == nil || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "login with password ******** refused") {
		t.Errorf("login failure = %v", err)
	}
}
