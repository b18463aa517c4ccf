package users_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// release21 runs a command as release 3.21.1.
var release21 = cmdtest.Options{Env: map[string]string{"DBGOV_SERVER_VERSION": "3.21.1"}}

func TestUndelete_accountsOnTheirOwnRoutesFrom315(t *testing.T) {
	const sa, wi = "deploy@shop.service.bytebase.com", "ci@workload.bytebase.com"
	tests := []struct {
		release, email, path, body string
	}{
		{"3.14.1", sa, "/v1/users/" + sa + ":undelete", `{"name": "users/` + sa + `"}`},
		{"3.15.0", sa, "/v1/serviceAccounts/" + sa + ":undelete", `{"name": "serviceAccounts/` + sa + `"}`},
		{"3.21.1", wi, "/v1/workloadIdentities/" + wi + ":undelete", `{"name": "workloadIdentities/` + wi + `"}`},
		{"3.21.1", "bob@example.com", "/v1/users/bob@example.com:undelete", `{"name": "users/bob@example.com"}`},
	}
	for _, tt := range tests {
		t.Run(tt.release+" "+tt.email, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, tt.path, 200, `{"name": "x/`+tt.email+`", "email": "`+tt.email+`", "state": "ACTIVE"}`).JSONBody(tt.body)
			opts := cmdtest.Options{URL: reg.URL(), Env: map[string]string{"DBGOV_SERVER_VERSION": tt.release}}
			cmdtest.Run(t, opts, "users", "undelete", tt.email).Expect(t, 0)
			// --dry-run prints the same request, and sends nothing.
			cmdtest.Run(t, opts, "users", "undelete", tt.email, "--dry-run").Expect(t, 0).StdoutHas(t, "POST "+reg.URL()+tt.path)
			if n := len(reg.Requests()); n != 1 {
				t.Errorf("%d requests, want the undelete alone", n)
			}
		})
	}
}

func TestBatchGet_from315MissingUsersAreNotFoundAndAccountsAreReadApart(t *testing.T) {
	const sa = "deploy@shop.service.bytebase.com"
	reg := httpmock.New(t)
	// The service answers in creation order, leaving out nobody@.
	reg.Register(http.MethodGet, "/v1/users:batchGet", 200,
		`{"users": [{"name": "users/bob@example.com", "email": "bob@example.com"}, {"name": "users/amy@example.com", "email": "amy@example.com"}]}`).
		Query("names=users%2Famy%40example.com&names=users%2Fbob%40example.com")
	reg.Register(http.MethodGet, "/v1/serviceAccounts/"+sa, 200, `{"name": "serviceAccounts/`+sa+`", "email": "`+sa+`", "state": "ACTIVE"}`)
	opts := release21
	opts.URL = reg.URL()
	res := cmdtest.Run(t, opts, "users", "batch-get", "amy@example.com", sa, "bob@example.com", "--no-headers").Expect(t, 0)
	want := []string{"users/amy@example.com amy@example.com USER false", "serviceAccounts/" + sa + " " + sa + " SERVICE_ACCOUNT ACTIVE false",
		"users/bob@example.com bob@example.com USER false"}
	for i, line := range strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n") {
		if got := strings.Join(strings.Fields(line), " "); i >= len(want) || got != want[i] {
			t.Errorf("row %d: %q, want the rows %q", i+1, got, want)
		}
	}

	reg = httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/users:batchGet", 200, `{"users": [{"name": "users/amy@example.com"}]}`)
	reg.Register(http.MethodGet, "/v1/serviceAccounts/gone@service.bytebase.com", 404, `{"code": 5, "message": "not found"}`)
	opts.URL = reg.URL()
	for _, format := range [][]string{nil, {"-o", "json"}} {
		args := append([]string{"users", "batch-get", "amy@example.com", "nobody@example.com", "gone@service.bytebase.com"}, format...)
		cmdtest.Run(t, opts, args...).Expect(t, 5).StderrHas(t, "not found: users/nobody@example.com, users/gone@service.bytebase.com")
	}
}

func TestBatchGet_from315AccountsInEveryFormat(t *testing.T) {
	const sa = "deploy@shop.service.bytebase.com"
	account := `{"name": "serviceAccounts/` + sa + `", "email": "` + sa + `", "state": "ACTIVE"}`
	tests := []struct {
		name   string
		args   []string
		people bool // a person is asked for too: one batch request
		want   string
	}{
		{"with a person, json", []string{"amy@example.com", sa, "-o", "json"}, true, `"serviceAccounts/` + sa + `"`},
		{"with a person, names", []string{"amy@example.com", sa, "-o", "name"}, true, "users/amy@example.com\nserviceAccounts/" + sa + "\n"},
		{"alone, json", []string{sa, "-o", "json"}, false, `"users": [` + "\n    {\n      \"name\": \"serviceAccounts/" + sa + `"`},
		{"alone, names", []string{sa, "-o", "name"}, false, "serviceAccounts/" + sa + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			if tt.people {
				reg.Register(http.MethodGet, "/v1/users:batchGet", 200, `{"users": [{"name": "users/amy@example.com", "email": "amy@example.com"}]}`).
					Query("names=users%2Famy%40example.com")
			}
			reg.Register(http.MethodGet, "/v1/serviceAccounts/"+sa, 200, account)
			opts := release21
			opts.URL = reg.URL()
			cmdtest.Run(t, opts, append([]string{"users", "batch-get"}, tt.args...)...).Expect(t, 0).StdoutHas(t, tt.want)
		})
	}
}
