package api_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// alice is a user as the service sends it: oddly spaced, with an int64 as a
// string, a field this version does not know and a secret.
const alice = `{"name": "users/alice@example.com" , "state": "ACTIVE", "email": "alice@example.com",
 "title": "Alice Anders", "userType": "USER", "tempOtpSecret": "JBSWY3DPEHPK3PXP",
 "profile": {"lastLoginTime": "2024-05-30T21:03:09Z", "loginCount": "9007199254740993"}, "futureField": [1, 2.50]}`

func TestAPI_getFormats(t *testing.T) {
	var reg *httpmock.Registry // the fake service of the run
	get := cmdtest.Command{
		Args: []string{"api", "GET", "/v1/users/alice@example.com"},
		Serve: func(r *httpmock.Registry, _ bool) {
			reg = r
			reg.Register(http.MethodGet, "/v1/users/alice@example.com", 200, alice).Query("")
		},
		JQ:       `.profile.loginCount`,
		Template: `{{.email}} is {{.state}}{{"\n"}}`,
		Check: func(t *testing.T, _ bool, res cmdtest.Result) {
			if res.Stderr != "" {
				t.Errorf("stderr: %s", res.Stderr)
			}
			if got := reg.Requests()[0].Header.Get("Authorization"); got != "Bearer test-token" {
				t.Errorf("Authorization %q, want the configured token", got)
			}
		},
	}
	get.Goldens(t, "get_", "table", "json", "json_show_secrets", "yaml", "name", "jq", "template")
}

func TestAPI_requests(t *testing.T) {
	// Sent as written: key order, spacing and a number beyond float64.
	jsonBody := `{"parent": "instances/prod-pg/databases/orders", "requests": [{"revision": {"version": "v7", "size": 12345678901234567890}}]}`
	jsonFile := cmdtest.WriteFile(t, "body.json", jsonBody)
	yamlBody := "# the whole catalog\nname: instances/prod-pg/databases/orders/catalog\nschemas:\n  - name: public\n    tables:\n      - name: orders\n        size: 12345678901234567890\n        pii: true\n        ratio: 0.5\n        note: null\n"
	yamlFile := cmdtest.WriteFile(t, "catalog.yaml", yamlBody)
	tests := []struct {
		name     string
		args     []string
		stdin    string
		method   string
		path     string
		query    string
		body     string // as JSON; "" for no body
		exact    string // the body's exact text, when it matters
		response string
		want     string
	}{
		{
			name:   "lower-case method and path without its slash, with a query",
			args:   []string{"api", "get", "v1/instances/prod-pg/databases/orders/policies?policyType=MASKING_RULE&showDeleted=true"},
			method: http.MethodGet, path: "/v1/instances/prod-pg/databases/orders/policies",
			query: "policyType=MASKING_RULE&showDeleted=true", response: `{}`, want: "{}\n",
		},
		{
			name:   "repeated query parameters are kept",
			args:   []string{"api", "GET", "/v1/users:batchGet?names=users/a@x.com&names=users/b@x.com"},
			method: http.MethodGet, path: "/v1/users:batchGet",
			query: "names=users/a@x.com&names=users/b@x.com", response: `{"users": []}`, want: "{\n  \"users\": []\n}\n",
		},
		{
			name:   "the query is sent as typed, in its order",
			args:   []string{"api", "GET", "/v1/x?z=1&a=2&z=0&e=%2F"},
			method: http.MethodGet, path: "/v1/x",
			query: "z=1&a=2&z=0&e=%2F", response: `{}`, want: "{}\n",
		},
		{
			name:   "POST with a JSON file sends it as written",
			args:   []string{"api", "POST", "/v1/instances/prod-pg/databases/orders/revisions:batchCreate", "--input", jsonFile},
			method: http.MethodPost, path: "/v1/instances/prod-pg/databases/orders/revisions:batchCreate",
			body: jsonBody, exact: jsonBody, response: `{"revisions": [{"name": "r/1"}]}`,
			want: "{\n  \"revisions\": [\n    {\n      \"name\": \"r/1\"\n    }\n  ]\n}\n",
		},
		{
			name:   "PATCH with a YAML file sends the same JSON",
			args:   []string{"api", "Patch", "/v1/instances/prod-pg/databases/orders/catalog?allowMissing=true", "--input", yamlFile},
			method: http.MethodPatch, path: "/v1/instances/prod-pg/databases/orders/catalog", query: "allowMissing=true",
			body:     `{"name": "instances/prod-pg/databases/orders/catalog", "schemas": [{"name": "public", "tables": [{"name": "orders", "size": 12345678901234567890, "pii": true, "ratio": 0.5, "note": null}]}]}`,
			exact:    `{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"public","tables":[{"name":"orders","size":12345678901234567890,"pii":true,"ratio":0.5,"note":null}]}]}`,
			response: `{"name": "instances/prod-pg/databases/orders/catalog"}`,
			want:     "{\n  \"name\": \"instances/prod-pg/databases/orders/catalog\"\n}\n",
		},
		{
			name:   "POST with YAML from standard input",
			args:   []string{"api", "post", "/v1/users/bob@example.com:undelete", "--input", "-"},
			stdin:  "name: users/bob@example.com\n",
			method: http.MethodPost, path: "/v1/users/bob@example.com:undelete",
			body: `{"name": "users/bob@example.com"}`, response: `{"name": "users/bob@example.com", "state": "ACTIVE"}`,
			want: "{\n  \"name\": \"users/bob@example.com\",\n  \"state\": \"ACTIVE\"\n}\n",
		},
		{
			name:   "PUT with JSON from standard input",
			args:   []string{"api", "PUT", "/v1/settings/x", "--input", "-"},
			stdin:  `{"value": {"s": "a"}}`,
			method: http.MethodPut, path: "/v1/settings/x",
			body: `{"value": {"s": "a"}}`, response: `{"name": "settings/x"}`, want: "{\n  \"name\": \"settings/x\"\n}\n",
		},
		{
			name:   "DELETE with an empty answer prints the empty message",
			args:   []string{"api", "delete", "/v1/users/bob@example.com"},
			method: http.MethodDelete, path: "/v1/users/bob@example.com", response: ``, want: "{}\n",
		},
		{
			name:   "escaped path segments are sent as given",
			args:   []string{"api", "GET", "/v1/reviewConfigs/a%20b"},
			method: http.MethodGet, path: "/v1/reviewConfigs/a%20b", response: `{"name": "reviewConfigs/a b"}`,
			want: "{\n  \"name\": \"reviewConfigs/a b\"\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			stub := reg.Register(tt.method, tt.path, 200, tt.response).Query(tt.query)
			if tt.body != "" {
				stub.JSONBody(tt.body)
			}
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: tt.stdin}, tt.args...).Expect(t, 0)
			if res.Stdout != tt.want {
				t.Errorf("stdout %q, want %q", res.Stdout, tt.want)
			}
			req := reg.Only()
			if tt.body == "" && len(req.Body) != 0 {
				t.Errorf("sent body %q, want none", req.Body)
			}
			if tt.exact != "" && string(req.Body) != tt.exact {
				t.Errorf("sent body %s, want exactly %s", req.Body, tt.exact)
			}
			if tt.body != "" && !strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") {
				t.Errorf("Content-Type %q", req.Header.Get("Content-Type"))
			}
		})
	}
}

func TestAPI_nameOfLists(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/users:batchGet", 200,
		`{"users": [{"name": "users/a@x.com"}, {"name": "users/b@x.com"}], "nextPageToken": "t"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "api", "GET", "/v1/users:batchGet", "-o", "name").Expect(t, 0)
	if want := "users/a@x.com\nusers/b@x.com\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
}

func TestAPI_usage(t *testing.T) {
	write := func(name, text string) string { return cmdtest.WriteFile(t, name, text) }
	dir := t.TempDir()
	badJSON := write("bad.json", "{\"name\": \"x\",\n \"title\": }\n")
	badYAML := write("bad.yaml", "name: x\n  title: [\n")
	scalar := write("scalar.yaml", "just a string\n")
	empty := write("empty.json", "  \n")
	tests := []struct {
		name        string
		args        []string
		stdin, want string
	}{
		{"no arguments", []string{"api"}, "", "takes a METHOD and a PATH"},
		{"no path", []string{"api", "GET"}, "", "takes a METHOD and a PATH"},
		{"three arguments", []string{"api", "GET", "/v1/idps", "x"}, "", "takes a METHOD and a PATH"},
		{"unknown method", []string{"api", "FETCH", "/v1/idps"}, "", `method "FETCH" is not one of GET, POST, PATCH, PUT, DELETE`},
		{"HEAD is not offered", []string{"api", "HEAD", "/v1/idps"}, "", "is not one of"},
		{"another version", []string{"api", "GET", "/v2/idps"}, "", "must begin with /v1/"},
		{"no version", []string{"api", "GET", "/idps"}, "", "must begin with /v1/"},
		{"bare v1", []string{"api", "GET", "/v1"}, "", "must begin with /v1/"},
		{"relative path", []string{"api", "GET", "idps"}, "", "must begin with /v1/"},
		{"full URL", []string{"api", "GET", "https://gov.example.com/v1/idps"}, "", "the address comes from --url"},
		{"unescaped space", []string{"api", "GET", "/v1/reviewConfigs/a b"}, "", "must be escaped"},
		{"dot-dot segment", []string{"api", "GET", "/v1/users/../idps"}, "", ". or .. segments"},
		{"fragment", []string{"api", "GET", "/v1/idps#x"}, "", "must be escaped and hold no query or fragment"},
		{"body with GET", []string{"api", "GET", "/v1/idps", "--input", "-"}, "{}", "a GET request has no body"},
		{"invalid JSON", []string{"api", "POST", "/v1/x", "--input", badJSON}, "", "bad.json: line 2"},
		{"invalid YAML", []string{"api", "POST", "/v1/x", "--input", badYAML}, "", "bad.yaml"},
		{"scalar document", []string{"api", "POST", "/v1/x", "--input", scalar}, "", "does not hold a JSON object or list"},
		{"null document", []string{"api", "POST", "/v1/x", "--input", "-"}, "null", "holds no document (null)"},
		{"trailing data", []string{"api", "POST", "/v1/x", "--input", "-"}, "{} {}", "unexpected data after the document"},
		{"empty file", []string{"api", "POST", "/v1/x", "--input", empty}, "", "is empty"},
		{"empty standard input", []string{"api", "POST", "/v1/x", "--input", "-"}, "", "standard input is empty"},
		{"missing file", []string{"api", "POST", "/v1/x", "--input", filepath.Join(dir, "nope.json")}, "", "nope.json"},
		{"directory", []string{"api", "POST", "/v1/x", "--input", dir}, "", "is a directory"},
		{"YAML alias", []string{"api", "POST", "/v1/x", "--input", "-"}, "a: &x 1\nb: *x\n", "aliases"},
		{"bad jq", []string{"api", "GET", "/v1/idps", "--jq", ".["}, "", "jq"},
		{"pages of a POST", []string{"api", "POST", "/v1/x", "--paginate"}, "", "--paginate follows the pages of a GET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { cmdtest.Refused(t, cmdtest.Options{Stdin: tt.stdin}, tt.args, tt.want) })
	}
}

func TestAPI_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{}, "api", "GET", "/v1/idps").Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestAPI_noCredentialsSendsBareAndTheServiceDecides(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/users/alice@example.com", 401, `{"code": 16, "message": "authentication required"}`)
	reg.Register(http.MethodGet, "/v1/idps", 200, `{}`)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Token: "-"}, "api", "GET", "/v1/users/alice@example.com").Expect(t, 3)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Token: "-"}, "api", "GET", "/v1/idps").Expect(t, 0)
	for _, r := range reg.Requests() {
		if h := r.Header.Get("Authorization"); h != "" {
			t.Errorf("%s sent Authorization %q without credentials", r.Path, h)
		}
	}
}

func TestAPI_errors(t *testing.T) {
	tests := []struct {
		name   string
		method string
		status int
		body   string
		code   int
		want   string
	}{
		{"not found", http.MethodGet, 404, `{"code": 5, "message": "user \"x@example.com\" not found"}`,
			5, "dbgov: GET /v1/users/x@example.com: user \"x@example.com\" not found (HTTP 404 NOT_FOUND)\n"},
		{"unknown route", http.MethodGet, 404, `{"code": 2, "message": "Not Found"}`, 5, "(HTTP 404 UNKNOWN)"},
		{"rejected", http.MethodPost, 400, `{"code": 3, "message": "unknown field \"x\""}`, 6, "unknown field \"x\" (HTTP 400 INVALID_ARGUMENT)"},
		{"conflict", http.MethodPost, 409, `{"code": 6, "message": "already exists"}`, 6, "(HTTP 409 ALREADY_EXISTS)"},
		{"permission denied", http.MethodGet, 403, `{"code": 7, "message": "no"}`, 4, "(HTTP 403 PERMISSION_DENIED)"},
		{"unauthenticated", http.MethodGet, 401, `{"code": 16, "message": "token expired"}`, 3, "(HTTP 401 UNAUTHENTICATED)"},
		{"internal", http.MethodGet, 500, `{"code": 13, "message": "boom"}`, 7, "boom (HTTP 500 INTERNAL)"},
		{"proxy page", http.MethodPost, 503, `<html><body>maintenance</body></html>`, 7, "HTTP 503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(tt.method, "/v1/users/x@example.com", tt.status, tt.body)
			args := []string{"api", tt.method, "/v1/users/x@example.com"}
			if tt.method == http.MethodPost {
				args = append(args, "--input", "-")
			}
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: "{}"}, args...).Expect(t, tt.code)
			if res.Stdout != "" {
				t.Errorf("stdout %q", res.Stdout)
			}
			res.StderrHas(t, "dbgov: "+tt.method+" /v1/users/x@example.com: ", tt.want)
		})
	}
}

func TestAPI_errorAsJSON(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/users/x@example.com", 404,
		`{"code": 5, "message": "user not found", "details": [{"@type": "x", "resource": "users/x@example.com"}]}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "api", "GET", "/v1/users/x@example.com", "--jq", ".name").Expect(t, 5)
	want := `{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"user not found","details":[{"@type":"x","resource":"users/x@example.com"}],"exitCode":5}}` + "\n"
	if res.Stdout != "" || res.Stderr != want {
		t.Errorf("stdout %q, stderr %s; want stderr %s", res.Stdout, res.Stderr, want)
	}
}

func TestAPI_nonJSONAnswer(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/idps", 200, `<html>login</html>`).Header("Content-Type", "text/html")
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "api", "GET", "/v1/idps").Expect(t, 1)
	if res.Stdout != "" {
		t.Errorf("stdout %q", res.Stdout)
	}
	res.StderrHas(t, "dbgov: GET /v1/idps: invalid response")
}

func TestAPI_nameOfAnAnswerWithoutNamesPrintsNothing(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, "/v1/x:diffSchema", 200, `{"diff": "+a\n"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "api", "POST", "/v1/x:diffSchema", "-o", "name").Expect(t, 0)
	if res.Stdout != "" || res.Stderr != "" {
		t.Errorf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
}

func TestAPI_secretsOfAnAnswerToAWriteAreShownOnceWithAWarning(t *testing.T) {
	const created = `{"name": "users/bot@example.com", "userType": "SERVICE_ACCOUNT", "serviceKey": "bbsa_k3y"}`
	const warning = "the answer holds a secret, serviceKey, which the service shows only once: keep it now"
	tests := []struct {
		name       string
		method     string
		answer     string
		args       []string
		wantStdout string
		wantStderr string
	}{
		{"POST shows the key and warns", http.MethodPost, created, []string{"--jq", ".serviceKey"}, "bbsa_k3y\n", `{"warning":"` + warning + `"}` + "\n"},
		{"POST in a table warns in text", http.MethodPost, created, nil, `"serviceKey": "bbsa_k3y"`, "warning: " + warning + "\n"},
		{"nested secret of a PATCH", http.MethodPatch, `{"name": "idps/x", "config": {"oidcConfig": {"clientSecret": "s3cret"}}}`, []string{"-o", "yaml"}, "clientSecret: s3cret",
			"warning: the answer holds a secret, clientSecret, which the service shows only once: keep it now\n"},
		{"no secret, no warning", http.MethodPost, `{"name": "users/bot@example.com", "serviceKey": ""}`, []string{"-o", "name"}, "users/bot@example.com\n", ""},
		{"GET masks and does not warn", http.MethodGet, created, []string{"--jq", ".serviceKey"}, "********\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(tt.method, "/v1/users", 200, tt.answer)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, append([]string{"api", tt.method, "/v1/users"}, tt.args...)...).Expect(t, 0)
			if !strings.Contains(res.Stdout, tt.wantStdout) || res.Stderr != tt.wantStderr {
				t.Errorf("stdout %q, stderr %q; want stdout with %q, stderr %q", res.Stdout, res.Stderr, tt.wantStdout, tt.wantStderr)
			}
		})
	}
}

func TestAPI_paginateFollowsEveryPage(t *testing.T) {
	list := cmdtest.Command{
		Args: []string{"api", "GET", "/v1/users?filter=state%3D%3D%22ACTIVE%22&pageSize=2", "--paginate"},
		Serve: func(reg *httpmock.Registry, _ bool) {
			reg.Register(http.MethodGet, "/v1/users", 200, `{"users": [{"name": "users/a", "tempOtpSecret": "s"}, {"name": "users/b"}], "nextPageToken": "n"}`).
				Query("filter=state%3D%3D%22ACTIVE%22&pageSize=2").Times(1)
			reg.Register(http.MethodGet, "/v1/users", 200, `{"users": [{"name": "users/c"}]}`).
				Query("filter=state%3D%3D%22ACTIVE%22&pageSize=2&pageToken=n").Times(1)
		},
		JQ: ".users | map(.name) | join(\" \")",
	}
	list.Prints(t, map[string]string{
		"json":  "{\n  \"users\": [\n    {\n      \"name\": \"users/a\",\n      \"tempOtpSecret\": \"********\"\n    },\n    {\n      \"name\": \"users/b\"\n    },\n    {\n      \"name\": \"users/c\"\n    }\n  ]\n}\n",
		"table": "{\n  \"users\": [\n    {\n      \"name\": \"users/a\",\n      \"tempOtpSecret\": \"********\"\n    },\n    {\n      \"name\": \"users/b\"\n    },\n    {\n      \"name\": \"users/c\"\n    }\n  ]\n}\n",
		"jq":    "users/a users/b users/c\n",
	})
}
