package users_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// bobRestored is the answer of undeleting bob: the user, active again, with
// a temporary OTP secret to mask.
const bobRestored = `{"name": "users/bob@example.com", "state": "ACTIVE", "email": "bob@example.com", "title": "Bob Builder",
 "userType": "USER", "profile": {"lastLoginTime": "2023-11-02T12:00:00Z"}, "tempOtpSecret": "NB2HI4DTHIXS6ZDF",
 "groups": ["groups/build@example.com"], "futureField": true}`

func TestUndelete_formats(t *testing.T) {
	tests := []struct {
		name string
		args []string
		tty  bool
	}{
		{"table", nil, false},
		{"table_tty", nil, true},
		{"json", []string{"-o", "json"}, false},
		{"yaml", []string{"-o", "yaml"}, false},
		{"name", []string{"-o", "name"}, false},
		{"jq", []string{"--jq", `.state, .tempOtpSecret`}, false},
		{"template", []string{"--template", `{{.email}} is {{.state}}{{"\n"}}`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, "/v1/users/bob@example.com:undelete", 200, bobRestored).
				Query("").JSONBody(`{"name": "users/bob@example.com"}`)
			args := append([]string{"users", "undelete", "users/bob@example.com"}, tt.args...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: tt.tty}, args...).Expect(t, 0)
			if res.Stderr != "" {
				t.Errorf("stderr: %s", res.Stderr)
			}
			if strings.Contains(res.Stdout, "NB2HI4DTHIXS6ZDF") {
				t.Errorf("the OTP secret was printed:\n%s", res.Stdout)
			}
			cmdtest.Golden(t, "undelete_"+tt.name, res.Stdout)
		})
	}
}

func TestUndelete_request(t *testing.T) {
	tests := []struct {
		name string
		arg  string
		path string
		body string
	}{
		{"email", "bob@example.com", "/v1/users/bob@example.com:undelete", `{"name": "users/bob@example.com"}`},
		{"full name", "users/bob@example.com", "/v1/users/bob@example.com:undelete", `{"name": "users/bob@example.com"}`},
		{"plus kept literal", "a+b@example.com", "/v1/users/a+b@example.com:undelete", `{"name": "users/a+b@example.com"}`},
		{"non-ascii escaped", "josé@example.com", "/v1/users/jos%C3%A9@example.com:undelete", `{"name": "users/josé@example.com"}`},
		{"colon escaped", "odd:name@example.com", "/v1/users/odd%3Aname@example.com:undelete", `{"name": "users/odd:name@example.com"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, tt.path, 200, `{"name": "users/x"}`).Query("").JSONBody(tt.body)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "users", "undelete", tt.arg).Expect(t, 0)
			reqs := reg.Requests()
			if len(reqs) != 1 {
				t.Fatalf("sent %d requests, want 1", len(reqs))
			}
			if got := reqs[0].Header.Get("Content-Type"); !strings.HasPrefix(got, "application/json") {
				t.Errorf("Content-Type %q", got)
			}
		})
	}
}

func TestUndelete_dryRunSendsNothing(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"table", nil},
		{"json", []string{"-o", "json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			args := append([]string{"users", "undelete", "a+b@example.com", "--dry-run"}, tt.args...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 0)
			if n := len(reg.Requests()); n != 0 {
				t.Errorf("dry run sent %d requests", n)
			}
			got := strings.ReplaceAll(res.Stdout, reg.URL(), "http://dbgov.test")
			cmdtest.Golden(t, "undelete_dry_run_"+tt.name, got)
		})
	}
}

func TestUndelete_errors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		code     int
		wantLine string
		wantJSON string
		requests int
	}{
		{"already active", 400, `{"code": 9, "message": "user \"users/bob@example.com\" is not deleted: it is already active"}`, 6,
			`dbgov: undelete user bob@example.com: user "users/bob@example.com" is not deleted: it is already active (HTTP 400 FAILED_PRECONDITION)`,
			`{"error":{"httpStatus":400,"code":"FAILED_PRECONDITION","message":"user \"users/bob@example.com\" is not deleted: it is already active","exitCode":6}}`, 1},
		{"already active, as the service answers it", 400, `{"code": 3, "message": "user is already active"}`, 6,
			`dbgov: undelete user bob@example.com: user is already active (HTTP 400 INVALID_ARGUMENT)`,
			`{"error":{"httpStatus":400,"code":"INVALID_ARGUMENT","message":"user is already active","exitCode":6}}`, 1},
		{"unknown user", 404, `{"code": 5, "message": "user \"users/bob@example.com\" not found"}`, 5,
			`dbgov: undelete user bob@example.com: user "users/bob@example.com" not found (HTTP 404 NOT_FOUND)`,
			`{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"user \"users/bob@example.com\" not found","exitCode":5}}`, 1},
		{"permission denied", 403, `{"code": 7, "message": "permission denied: svc.users.undelete"}`, 4,
			`dbgov: undelete user bob@example.com: permission denied: svc.users.undelete (HTTP 403 PERMISSION_DENIED)`,
			`"code":"PERMISSION_DENIED"`, 1},
		{"unauthenticated", 401, `{"code": 16, "message": "token expired"}`, 3,
			`(HTTP 401 UNAUTHENTICATED)`, `"code":"UNAUTHENTICATED"`, 1},
		{"unavailable is not retried", 503, `{"code": 14, "message": "try later"}`, 7,
			`dbgov: undelete user bob@example.com: try later (HTTP 503 UNAVAILABLE)`, `"code":"UNAVAILABLE"`, 1},
		{"proxy page", 502, `<html><body>Bad Gateway</body></html>`, 7, `(HTTP 502`, `"httpStatus":502`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, "/v1/users/bob@example.com:undelete", tt.status, tt.body).Header("Retry-After", "0")
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "users", "undelete", "bob@example.com").Expect(t, tt.code).StderrHas(t, tt.wantLine)
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
			if n := len(reg.Requests()); n != tt.requests {
				t.Errorf("sent %d requests, want %d", n, tt.requests)
			}
			res = cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "users", "undelete", "bob@example.com", "-o", "json").Expect(t, tt.code).StderrHas(t, tt.wantJSON)
			if lines := strings.Count(res.Stderr, "\n"); lines != 1 || !strings.HasPrefix(res.Stderr, `{"error":`) {
				t.Errorf("stderr is not one JSON line: %q", res.Stderr)
			}
		})
	}
}

func TestUndelete_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no name", nil, "takes one user NAME"},
		{"two names", []string{"a@example.com", "b@example.com"}, "takes one user NAME (got 2 arguments)"},
		{"empty name", []string{""}, `user id "" is empty`},
		{"slash", []string{"users/a/b"}, `"a/b" may not contain "/"`},
		{"dry-run takes no value", []string{"a@example.com", "--dry-run=maybe"}, "invalid argument"},
		{"unknown flag", []string{"a@example.com", "--force"}, "unknown flag: --force"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			args := append([]string{"users", "undelete"}, tt.args...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 2).StderrHas(t, tt.want)
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
			if n := len(reg.Requests()); n != 0 {
				t.Errorf("sent %d requests", n)
			}
		})
	}
}

func TestUndelete_fitsTheTerminal(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		reg := httpmock.New(t)
		reg.Register(http.MethodPost, "/v1/users/bob@example.com:undelete", 200, bobRestored).
			Query("").JSONBody(`{"name": "users/bob@example.com"}`)
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: true, Width: width}, "users", "undelete", "bob@example.com").Expect(t, 0)
		cmdtest.Golden(t, fmt.Sprintf("undelete_tty_%d", width), res.Stdout)
	}
}
