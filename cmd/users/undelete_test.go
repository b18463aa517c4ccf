package users_test

import (
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

// undelete is `dbgov users undelete` of bob, answered with bobRestored.
var undelete = cmdtest.Command{
	Args: []string{"users", "undelete", "users/bob@example.com"},
	Serve: func(reg *httpmock.Registry, _ bool) {
		reg.Register(http.MethodPost, "/v1/users/bob@example.com:undelete", 200, bobRestored).
			Query("").JSONBody(`{"name": "users/bob@example.com"}`)
	},
	JQ:       `.state, .tempOtpSecret`,
	Template: `{{.email}} is {{.state}}{{"\n"}}`,
	Check: func(t *testing.T, _ bool, res cmdtest.Result) {
		if res.Stderr != "" {
			t.Errorf("stderr: %s", res.Stderr)
		}
		if strings.Contains(res.Stdout, "NB2HI4DTHIXS6ZDF") {
			t.Errorf("the OTP secret was printed:\n%s", res.Stdout)
		}
	},
}

func TestUndelete_formats(t *testing.T) {
	undelete.Goldens(t, "undelete_", "table", "table_tty", "json", "yaml", "name", "jq", "template")
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
			req := reg.Only()
			if got := req.Header.Get("Content-Type"); !strings.HasPrefix(got, "application/json") {
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
	undelete.Failures(t, http.MethodPost, "/v1/users/bob@example.com:undelete", []cmdtest.Failure{
		{Name: "already active", Status: 400, Body: `{"code": 9, "message": "user \"users/bob@example.com\" is not deleted: it is already active"}`, Code: 6,
			Line: `dbgov: undelete user bob@example.com: user "users/bob@example.com" is not deleted: it is already active (HTTP 400 FAILED_PRECONDITION)`,
			JSON: `{"error":{"httpStatus":400,"code":"FAILED_PRECONDITION","message":"user \"users/bob@example.com\" is not deleted: it is already active","exitCode":6}}`},
		{Name: "already active, as the service answers it", Status: 400, Body: `{"code": 3, "message": "user is already active"}`, Code: 6,
			Line: `dbgov: undelete user bob@example.com: user is already active (HTTP 400 INVALID_ARGUMENT)`,
			JSON: `{"error":{"httpStatus":400,"code":"INVALID_ARGUMENT","message":"user is already active","exitCode":6}}`},
		{Name: "unknown user", Status: 404, Body: `{"code": 5, "message": "user \"users/bob@example.com\" not found"}`, Code: 5,
			Line: `dbgov: undelete user bob@example.com: user "users/bob@example.com" not found (HTTP 404 NOT_FOUND)`,
			JSON: `{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"user \"users/bob@example.com\" not found","exitCode":5}}`},
		{Name: "permission denied", Status: 403, Body: `{"code": 7, "message": "permission denied: svc.users.undelete"}`, Code: 4,
			Line: `dbgov: undelete user bob@example.com: permission denied: svc.users.undelete (HTTP 403 PERMISSION_DENIED)`,
			JSON: `"code":"PERMISSION_DENIED"`},
		{Name: "unauthenticated", Status: 401, Body: `{"code": 16, "message": "token expired"}`, Code: 3,
			Line: `(HTTP 401 UNAUTHENTICATED)`, JSON: `"code":"UNAUTHENTICATED"`},
		{Name: "unavailable is not retried", Status: 503, Body: `{"code": 14, "message": "try later"}`, Code: 7,
			Line: `dbgov: undelete user bob@example.com: try later (HTTP 503 UNAVAILABLE)`, JSON: `"code":"UNAVAILABLE"`},
		{Name: "proxy page", Status: 502, Body: `<html><body>Bad Gateway</body></html>`, Code: 7, Line: `(HTTP 502`, JSON: `"httpStatus":502`},
	})
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
			cmdtest.Refused(t, cmdtest.Options{}, append([]string{"users", "undelete"}, tt.args...), tt.want)
		})
	}
}

func TestUndelete_fitsTheTerminal(t *testing.T) {
	short := undelete
	short.Args = []string{"users", "undelete", "bob@example.com"}
	short.Goldens(t, "undelete_", "tty_60", "tty_80", "tty_120")
}
