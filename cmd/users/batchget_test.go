package users_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// threeUsers answers a batch get of alice, carol and deploy, spaced oddly as
// the service sometimes does, with a field this version does not know, a
// user type it does not know, secrets and a hostile title.
const threeUsers = `{"users": [
 {"name": "users/alice@example.com", "state": "ACTIVE", "email": "alice@example.com", "title": "Alice Anders",
  "userType": "USER", "mfaEnabled": true, "phone": "+442079460000",
  "profile": {"lastLoginTime": "2024-05-30T21:03:09Z", "source": "LDAP"},
  "groups": ["groups/dba@example.com", "groups/platform@example.com"]} ,
 {"name": "users/carol@example.com", "state": "ACTIVE", "email": "carol@example.com",
  "title": "Carol \u001b[2J(setting up MFA)", "userType": "USER",
  "tempOtpSecret": "JBSWY3DPEHPK3PXP", "tempRecoveryCodes": ["a1b2-c3d4", "e5f6-g7h8"],
  "tempOtpSecretCreatedTime": "2024-06-02T10:15:00Z", "groups": ["groups/analysts@example.com"]},
 {"name": "users/deploy@workload.example.com", "state": "DELETED", "email": "deploy@workload.example.com",
  "title": "GitHub deploy workflow", "userType": "ROBOT_OF_THE_FUTURE",
  "workloadIdentityConfig": {"providerType": "GITHUB", "issuerUrl": "https://token.actions.githubusercontent.com"},
  "futureField": {"x": 1}}
]}`

// threeUsersQuery is the query that selects them.
const threeUsersQuery = "names=users%2Falice%40example.com&names=users%2Fcarol%40example.com&names=users%2Fdeploy%40workload.example.com"

// Secrets that threeUsers holds; they may never reach a table, and reach
// the other formats only with --show-secrets.
var userSecrets = []string{"JBSWY3DPEHPK3PXP", "a1b2-c3d4", "e5f6-g7h8"}

// batchGet is `dbgov users batch-get` of alice, carol and deploy, answered
// with threeUsers.
var batchGet = cmdtest.Command{
	Args: []string{"users", "batch-get", "alice@example.com", "users/carol@example.com", "deploy@workload.example.com"},
	Serve: func(reg *httpmock.Registry, _ bool) {
		reg.Register(http.MethodGet, "/v1/users:batchGet", 200, threeUsers).Query(threeUsersQuery)
	},
	JQ:       `.users[] | [.email, .tempOtpSecret // "-"] | @tsv`,
	Template: `{{range .users}}{{.email}}: {{.state}}{{with .tempOtpSecret}}, OTP secret {{.}}{{end}}{{"\n"}}{{end}}`,
}

func TestBatchGet_formats(t *testing.T) {
	batchGet.Goldens(t, "batch_get_", "table", "table_tty", "table_colour_always", "wide_tty", "no_headers",
		"json", "json_show_secrets", "yaml", "name", "jq", "template")
}

func TestBatchGet_answerNotMatchingTheRequestIsInvalid(t *testing.T) {
	tests := []struct {
		name, body, want string
		asked            []string
	}{
		{"empty answer", `{}`, "the answer lacks 1 of the 1 users asked for (users/alice@example.com)", []string{"alice@example.com"}},
		{"one missing", `{"users": [{"name": "users/alice@example.com"}]}`,
			"the answer lacks 1 of the 2 users asked for (users/bob@example.com)", []string{"alice@example.com", "bob@example.com"}},
		{"one not asked for", `{"users": [{"name": "users/alice@example.com"}, {"name": "users/mallory@example.com"}]}`,
			"the answer holds 1 not asked for (users/mallory@example.com)", []string{"alice@example.com"}},
		{"one given twice", `{"users": [{"name": "users/alice@example.com"}, {"name": "users/alice@example.com"}]}`,
			"the answer holds 1 not asked for (users/alice@example.com)", []string{"alice@example.com"}},
		{"one without a name", `{"users": [{"email": "alice@example.com"}]}`,
			"the answer lacks 1 of the 1 users asked for (users/alice@example.com) and holds 1 not asked for (a user without a name)", []string{"alice@example.com"}},
		{"many missing", `{"users": []}`,
			"the answer lacks 5 of the 5 users asked for (users/a@x.com, users/b@x.com, users/c@x.com and 2 more)", []string{"a@x.com", "b@x.com", "c@x.com", "d@x.com", "e@x.com"}},
	}
	for _, tt := range tests {
		invalidInEveryFormat(t, tt.name, tt.body, append([]string{"users", "batch-get"}, tt.asked...), "invalid response: "+tt.want)
	}
}

// invalidInEveryFormat runs args against the answer body in every format, a
// subtest each: each run must exit 1 with stderr holding want, and print
// nothing.
func invalidInEveryFormat(t *testing.T, name, body string, args []string, want ...string) {
	for _, format := range [][]string{nil, {"-o", "name"}, {"-o", "json"}, {"-o", "yaml"}, {"--jq", ".users"}, {"--template", "{{.users}}"}} {
		t.Run(name+"/"+strings.Join(format, " "), func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/users:batchGet", 200, body)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, append(slices.Clone(args), format...)...).Expect(t, 1).StderrHas(t, want...)
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
		})
	}
}

func TestBatchGet_emailsMatchWhateverTheirCase(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/users:batchGet", 200, `{"users": [{"name": "users/alice@example.com"}]}`)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "users", "batch-get", "Alice@Example.com", "-o", "name").
		Expect(t, 0).StdoutHas(t, "users/alice@example.com")
}

func TestBatchGet_request(t *testing.T) {
	tests := []struct {
		name         string
		args         []string
		stdin, query string
	}{
		{"one email", []string{"alice@example.com"}, "", "names=users%2Falice%40example.com"},
		{"full names", []string{"users/alice@example.com", "users/bob@example.com"}, "",
			"names=users%2Falice%40example.com&names=users%2Fbob%40example.com"},
		{"order kept", []string{"zed@example.com", "alice@example.com"}, "",
			"names=users%2Fzed%40example.com&names=users%2Falice%40example.com"},
		{"repeats sent once", []string{"alice@example.com", "bob@example.com", "users/alice@example.com", "bob@example.com"}, "",
			"names=users%2Falice%40example.com&names=users%2Fbob%40example.com"},
		{"plus and non-ascii escaped", []string{"a+b@example.com", "josé@example.com"}, "",
			"names=users%2Fa%2Bb%40example.com&names=users%2Fjos%C3%A9%40example.com"},
		{"comma is no separator", []string{"a,b@example.com"}, "", "names=users%2Fa%2Cb%40example.com"},
		{"stdin alone", []string{"-"}, "alice@example.com\nusers/bob@example.com\n",
			"names=users%2Falice%40example.com&names=users%2Fbob%40example.com"},
		{"stdin blank lines and spaces skipped", []string{"-"}, "\n  alice@example.com  \n\n\t\r\nbob@example.com\r\n   \ncarol@example.com",
			"names=users%2Falice%40example.com&names=users%2Fbob%40example.com&names=users%2Fcarol%40example.com"},
		{"stdin among names, in place", []string{"a@example.com", "-", "d@example.com"}, "b@example.com\nc@example.com\n",
			"names=users%2Fa%40example.com&names=users%2Fb%40example.com&names=users%2Fc%40example.com&names=users%2Fd%40example.com"},
		{"stdin repeats sent once", []string{"a@example.com", "-"}, "users/a@example.com\nb@example.com\nb@example.com\n",
			"names=users%2Fa%40example.com&names=users%2Fb%40example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/users:batchGet", 200, answerTo(t, tt.query)).Query(tt.query)
			args := append([]string{"users", "batch-get"}, tt.args...)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: tt.stdin}, args...).Expect(t, 0)
			req := reg.Only()
			if got := req.Header.Get("Authorization"); got != "Bearer test-token" {
				t.Errorf("Authorization %q, want the token", got)
			}
			if len(req.Body) != 0 {
				t.Errorf("GET sent a body: %s", req.Body)
			}
		})
	}
}

// answerTo is the answer to a batch get of the users in query.
func answerTo(t *testing.T, query string) string {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, name := range q["names"] {
		users = append(users, fmt.Sprintf(`{"name": %q}`, name))
	}
	return `{"users": [` + strings.Join(users, ", ") + `]}`
}

func TestBatchGet_usage(t *testing.T) {
	tests := []struct {
		name        string
		args        []string
		stdin, want string
	}{
		{"no names", nil, "", "takes at least one user NAME"},
		{"empty name", []string{""}, "", `user id "" is empty`},
		{"space in name", []string{"alice@example.com", "bob smith@example.com"}, "", `"bob smith@example.com" may not contain spaces`},
		{"slash in name", []string{"users/a/b@example.com"}, "", `"a/b@example.com" may not contain "/"`},
		{"other resource", []string{"groups/dba@example.com"}, "", `"groups/dba@example.com"`},
		{"bad name on stdin", []string{"-"}, "alice@example.com\n\nbob?@example.com\n", `stdin line 3: invalid name: user id "bob?@example.com"`},
		{"nothing on stdin", []string{"-"}, "\n  \n", "no user names: stdin held none"},
		{"stdin twice", []string{"-", "a@example.com", "-"}, "b@example.com\n", "- may be given only once"},
		{"unknown flag", []string{"a@example.com", "--bogus"}, "", "unknown flag: --bogus"},
		{"bad output", []string{"a@example.com", "-o", "xml"}, "", `"xml" is not one of table, json, yaml, name`},
		{"jq and template", []string{"a@example.com", "--jq", ".", "--template", "x"}, "", "cannot be used together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmdtest.Refused(t, cmdtest.Options{Stdin: tt.stdin}, append([]string{"users", "batch-get"}, tt.args...), tt.want)
		})
	}
}

func TestBatchGet_badLineTypedAtATerminalIsSkipped(t *testing.T) {
	stdin := "alice@example.com\nbob?@example.com\nusers/carol@example.com\n"
	tests := []struct {
		name  string
		inTTY bool
		code  int
		want  string // on stderr
	}{
		{"terminal", true, 0, `warning: stdin line 2 skipped: invalid name: user id "bob?@example.com"`},
		{"piped", false, 2, `dbgov: stdin line 2: invalid name: user id "bob?@example.com"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			if tt.inTTY {
				reg.Register(http.MethodGet, "/v1/users:batchGet", 200, answerTo(t, "names=users%2Falice%40example.com&names=users%2Fcarol%40example.com")).
					Query("names=users%2Falice%40example.com&names=users%2Fcarol%40example.com")
			}
			opts := cmdtest.Options{URL: reg.URL(), Stdin: stdin, InTTY: tt.inTTY, TTY: tt.inTTY, Width: 80, Env: map[string]string{"NO_COLOR": "1"}}
			res := cmdtest.Run(t, opts, "users", "batch-get", "-", "-o", "name").Expect(t, tt.code).StderrHas(t, tt.want)
			if tt.inTTY && res.Stdout != "users/alice@example.com\nusers/carol@example.com\n" {
				t.Errorf("stdout %q", res.Stdout)
			}
		})
	}
}

func TestBatchGet_errors(t *testing.T) {
	two := cmdtest.Command{Args: []string{"users", "batch-get", "alice@example.com", "nobody@example.com"}}
	two.Failures(t, http.MethodGet, "/v1/users:batchGet", []cmdtest.Failure{
		{Name: "one user missing", Status: 404, Body: `{"code": 5, "message": "user \"users/nobody@example.com\" not found"}`, Code: 5,
			Line: `dbgov: get 2 users: user "users/nobody@example.com" not found (HTTP 404 NOT_FOUND)`,
			JSON: `{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"user \"users/nobody@example.com\" not found","exitCode":5}}`},
		{Name: "rejected", Status: 400, Body: `{"code": 3, "message": "invalid user name", "details": [{"field": "names"}]}`, Code: 6,
			Line: `dbgov: get 2 users: invalid user name (HTTP 400 INVALID_ARGUMENT)`,
			JSON: `{"error":{"httpStatus":400,"code":"INVALID_ARGUMENT","message":"invalid user name","details":[{"field":"names"}],"exitCode":6}}`},
		{Name: "unauthenticated", Status: 401, Body: `{"code": 16, "message": "token expired"}`, Code: 3,
			Line: `dbgov: get 2 users: token expired (HTTP 401 UNAUTHENTICATED)`, JSON: `"code":"UNAUTHENTICATED"`},
		{Name: "permission denied", Status: 403, Body: `{"code": 7, "message": "permission denied: svc.users.get"}`, Code: 4,
			Line: `dbgov: get 2 users: permission denied: svc.users.get (HTTP 403 PERMISSION_DENIED)`, JSON: `"code":"PERMISSION_DENIED"`},
		{Name: "internal", Status: 500, Body: `{"code": 13, "message": "boom"}`, Code: 7,
			Line: `dbgov: get 2 users: boom (HTTP 500 INTERNAL)`, JSON: `"code":"INTERNAL"`},
	})
}

func TestBatchGet_unavailableIsRetried(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/users:batchGet", 503, `{"code": 14, "message": "try later"}`).Header("Retry-After", "0")
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "users", "batch-get", "alice@example.com").
		Expect(t, 7).StderrHas(t, "dbgov: get user alice@example.com: try later (HTTP 503 UNAVAILABLE)")
	if n := len(reg.Requests()); n != 4 {
		t.Errorf("sent %d requests, want 4 (3 retries)", n)
	}
}

func TestBatchGet_secretsNeverInTables(t *testing.T) {
	batchGet.SecretsNeverInTables(t, "carol@example.com", userSecrets)
}

func TestBatchGet_secretsMaskedUnlessShown(t *testing.T) {
	batchGet.SecretsMaskedUnlessShown(t, userSecrets, 0,
		[]string{"-o", "json"},
		[]string{"-o", "yaml"},
		[]string{"--jq", ".users[1]"},
		[]string{"--template", "{{range .users}}{{.tempOtpSecret}} {{.tempRecoveryCodes}}\n{{end}}"})
}

func TestBatchGet_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{}, "users", "batch-get", "alice@example.com").Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestBatchGet_noCredentials(t *testing.T) {
	reg := httpmock.New(t)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Token: "-"}, "users", "batch-get", "alice@example.com").Expect(t, 3)
	if n := len(reg.Requests()); n != 0 {
		t.Errorf("sent %d requests without credentials", n)
	}
}

func TestBatchGet_invalidAnswerPrintsNothing(t *testing.T) {
	bodies := []struct {
		name, body, want string
	}{
		{"not an object", `["users/alice@example.com"]`, "the body is not a JSON object"},
		{"empty body", ``, "the body is empty, expected a JSON object"},
		{"not JSON", `<html>ok</html>`, "invalid response"},
		{"truncated", `{"users": [{"name": "users/a@example.com"`, "invalid response"},
		{"list a string", `{"users": "x"}`, "field users holds a JSON string, expected an array"},
		{"user a string", `{"users": ["x"]}`, "field users holds a JSON string, expected an object"},
		{"user a list", `{"users": [{"name": "users/a@example.com"}, []]}`, "field users holds a JSON array, expected an object"},
		{"user a number", `{"users": [null, -1]}`, "field users holds a JSON number, expected an object"},
	}
	for _, b := range bodies {
		invalidInEveryFormat(t, b.name, b.body, []string{"users", "batch-get", "a@example.com"},
			"get user a@example.com: invalid response to GET /v1/users:batchGet", b.want)
	}
}

func TestBatchGet_wrongFieldType(t *testing.T) {
	// A field of the wrong type inside a user fails the formats that show
	// that field; the others print the body as the service sent it.
	const body = `{"users": [{"name": "users/a@example.com", "mfaEnabled": "yes"}]}`
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"table", nil, 1},
		{"name", []string{"-o", "name"}, 1},
		{"json", []string{"-o", "json"}, 0},
		{"jq", []string{"--jq", ".users[].mfaEnabled"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/users:batchGet", 200, body)
			args := append([]string{"users", "batch-get", "a@example.com"}, tt.args...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, tt.code)
			if tt.code == 0 {
				res.StdoutHas(t, "yes")
				return
			}
			res.StderrHas(t, "field users.mfaEnabled holds a JSON string, expected a boolean")
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
		})
	}
}

// sixHundred names 600 users, user0001@example.com to user0600@example.com,
// one a line.
var sixHundred = func() string {
	var names strings.Builder
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&names, "user%04d@example.com\n", i)
	}
	return names.String()
}()

// queried returns the user names a batch get asks for, read by hand:
// net/url stops at 10,000 parameters.
func queried(r *http.Request) []string {
	var names []string
	for _, kv := range strings.Split(r.URL.RawQuery, "&") {
		name, _ := url.QueryUnescape(strings.TrimPrefix(kv, "names="))
		names = append(names, name)
	}
	return names
}

func TestBatchGet_longListsGoInSeveralRequests(t *testing.T) {
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		var users []string
		for _, name := range queried(r) {
			users = append(users, fmt.Sprintf(`{"name": %q, "email": %q, "futureField": 1}`, name, strings.TrimPrefix(name, "users/")))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"users": [%s]}`, strings.Join(users, ", "))
	}))
	defer srv.Close()
	var want strings.Builder
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&want, "users/user%04d@example.com\n", i)
	}
	res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: sixHundred}, "users", "batch-get", "-", "-o", "name").Expect(t, 0)
	if res.Stdout != want.String() {
		t.Errorf("names differ from the 600 asked for, in order:\n%s", res.Stdout)
	}
	if len(queries) < 2 {
		t.Fatalf("%d requests, want the list split", len(queries))
	}
	for _, q := range queries {
		if len(q) > 6<<10 {
			t.Errorf("a query of %d bytes", len(q))
		}
	}
	// The joined answer keeps every field of every user, in every format.
	res = cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: sixHundred}, "users", "batch-get", "-", "--jq", "[.users[] | .futureField] | length").Expect(t, 0)
	if res.Stdout != "600\n" {
		t.Errorf("--jq on the joined answer: %q", res.Stdout)
	}
	res = cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: sixHundred}, "users", "batch-get", "-", "--no-headers").Expect(t, 0)
	if n := strings.Count(res.Stdout, "\n"); n != 600 {
		t.Errorf("table of %d rows, want 600", n)
	}
	// -o json prints the joined answer as it prints one answer holding them all.
	var all []string
	for i := 1; i <= 600; i++ {
		all = append(all, fmt.Sprintf(`{"name": "users/user%04d@example.com", "email": "user%04d@example.com", "futureField": 1}`, i, i))
	}
	var whole bytes.Buffer
	if err := json.Indent(&whole, []byte(`{"users": [`+strings.Join(all, ", ")+`]}`), "", "  "); err != nil {
		t.Fatal(err)
	}
	res = cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: sixHundred}, "users", "batch-get", "-", "-o", "json").Expect(t, 0)
	if res.Stdout != whole.String()+"\n" {
		t.Errorf("-o json of the joined answer differs from one answer's")
	}
}

func TestBatchGet_aPartLackingAUserFailsTheWhole(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var users []string
		for _, name := range queried(r) {
			if name != "users/user0400@example.com" {
				users = append(users, fmt.Sprintf(`{"name": %q}`, name))
			}
		}
		fmt.Fprintf(w, `{"users": [%s]}`, strings.Join(users, ", "))
	}))
	defer srv.Close()
	for _, format := range []string{"table", "json"} {
		res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: sixHundred}, "users", "batch-get", "-", "-o", format).
			Expect(t, 1).StderrHas(t, "get 600 users: invalid response: the answer lacks 1 of the 600 users asked for (users/user0400@example.com)")
		if res.Stdout != "" {
			t.Errorf("-o %s: stdout %q", format, res.Stdout)
		}
	}
}

func TestBatchGet_aFailedPartFailsTheWhole(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.Header().Set("Content-Type", "application/json")
		if calls == 2 {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"code": 5, "message": "user \"users/user0400@example.com\" not found"}`)
			return
		}
		fmt.Fprint(w, `{"users": [{"name": "users/x@example.com"}]}`)
	}))
	defer srv.Close()
	res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: sixHundred}, "users", "batch-get", "-").Expect(t, 5)
	if res.Stdout != "" {
		t.Errorf("stdout %q, want nothing: the service answers for all or none", res.Stdout)
	}
	if !strings.Contains(res.Stderr, "get 600 users") {
		t.Errorf("stderr %q", res.Stderr)
	}
}

func TestBatchGet_fitsTheTerminal(t *testing.T) {
	batchGet.Goldens(t, "batch_get_", "tty_60", "tty_80", "tty_120")
}

func TestBatchGet_aPartGivingTheListTwiceIsInvalid(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var users []string
		for _, name := range queried(r) {
			users = append(users, fmt.Sprintf(`{"name": %q}`, name))
		}
		list := strings.Join(users, ", ")
		fmt.Fprintf(w, `{"users": [%s], "users": [%s]}`, list, list)
	}))
	defer srv.Close()
	for _, format := range []string{"table", "json", "yaml"} {
		res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: sixHundred}, "users", "batch-get", "-", "-o", format).
			Expect(t, 1).StderrHas(t, "get 600 users: invalid response: ", "twice")
		if res.Stdout != "" {
			t.Errorf("-o %s: stdout %q", format, res.Stdout)
		}
	}
}

func TestBatchGet_fitsTheTerminalAgainstTheReferenceServer(t *testing.T) {
	opts := cmdtest.ReferenceServer(t)
	for _, width := range []int{80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			opts.TTY, opts.Width = true, width
			res := cmdtest.Run(t, opts, "users", "batch-get", "alice@example.com", "bob@example.com", "ci-bot@example.com").Expect(t, 0)
			cmdtest.Golden(t, fmt.Sprintf("batch_get_reference_server_tty_%d", width), res.Stdout)
		})
	}
}
