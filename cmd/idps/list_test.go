package idps_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// threeIdps holds one provider of each type with its secrets, spaced oddly
// as the service sometimes does, plus one of a type this version does not
// know and one with no configuration.
const threeIdps = `{"identityProviders": [
 {"name": "idps/google", "title": "Google", "domain": "example.com", "type": "OAUTH2",
  "config": {"oauth2Config": {"authUrl": "https://accounts.google.com/o/oauth2/v2/auth", "tokenUrl": "https://oauth2.googleapis.com/token",
   "userInfoUrl": "https://www.googleapis.com/oauth2/v2/userinfo", "clientId": "1234567890.apps.googleusercontent.com",
   "clientSecret": "oauth2-client-secret-value", "scopes": ["openid", "email"], "fieldMapping": {"identifier": "email"}, "authStyle": "IN_PARAMS"}}} ,
 {"name": "idps/okta", "title": "Okta", "domain": "example.com", "type": "OIDC",
  "config": {"oidcConfig": {"issuer": "https://example.okta.com", "clientId": "0oaclient", "clientSecret": "oidc-client-secret-value",
   "scopes": ["openid", "groups"], "authStyle": "IN_HEADER", "authEndpoint": "https://example.okta.com/oauth2/v1/authorize"}}},
 {"name": "idps/corp-ldap", "title": "Corporate LDAP", "domain": "corp.example.com", "type": "LDAP",
  "config": {"ldapConfig": {"host": "ldap.corp.example.com", "port": 636, "bindDn": "cn=readonly,dc=corp,dc=example,dc=com",
   "bindPassword": "ldap-bind-password-value", "baseDn": "ou=people,dc=corp,dc=example,dc=com", "securityProtocol": "LDAPS"}}},
 {"name": "idps/v6-ldap", "title": "LDAP over IPv6", "type": "LDAP", "config": {"ldapConfig": {"host": "fd00::10", "port": 389}}},
 {"name": "idps/saml", "title": "Future \u001b]0;pwned\u0007SAML", "domain": "example.com", "type": "SAML", "config": {"samlConfig": {"serviceKey": "saml-service-key-value"}}}
]}`

// idpSecrets are the secrets threeIdps holds; they may never reach a table,
// and reach the other formats only with --show-secrets.
var idpSecrets = []string{"oauth2-client-secret-value", "oidc-client-secret-value", "ldap-bind-password-value", "saml-service-key-value"}

func TestList_formats(t *testing.T) {
	tests := []struct {
		name string
		args []string
		tty  bool
	}{
		{"table", nil, false},
		{"table_tty", nil, true},
		{"no_headers", []string{"--no-headers"}, false},
		{"json", []string{"-o", "json"}, false},
		{"json_show_secrets", []string{"-o", "json", "--show-secrets"}, false},
		{"yaml", []string{"-o", "yaml"}, false},
		{"name", []string{"-o", "name"}, false},
		{"jq", []string{"--jq", `.identityProviders[] | [.name, .config.oidcConfig.clientSecret // .config.oauth2Config.clientSecret // .config.ldapConfig.bindPassword // "-"] | @tsv`}, false},
		{"template", []string{"--template", `{{range .identityProviders}}{{.name}} {{.type}}{{"\n"}}{{end}}`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/idps", 200, threeIdps).Query("")
			args := append([]string{"idps", "list"}, tt.args...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: tt.tty}, args...).Expect(t, 0)
			if res.Stderr != "" {
				t.Errorf("stderr: %s", res.Stderr)
			}
			cmdtest.Golden(t, "list_"+tt.name, res.Stdout)
		})
	}
}

func TestList_worksWithoutCredentials(t *testing.T) {
	tests := []struct {
		name string
		opts cmdtest.Options
	}{
		{"no token", cmdtest.Options{Token: "-"}},
		{"token given", cmdtest.Options{}},
		{"service account given", cmdtest.Options{Token: "-", Env: map[string]string{
			"DBGOV_SERVICE_ACCOUNT": "ci-bot@example.com", "DBGOV_SERVICE_KEY": "key"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/idps", 200, threeIdps).Query("")
			tt.opts.URL = reg.URL()
			cmdtest.Run(t, tt.opts, "idps", "list", "-o", "name").Expect(t, 0).StdoutHas(t, "idps/okta\n")
			reqs := reg.Requests()
			if len(reqs) != 1 {
				t.Fatalf("sent %d requests, want only GET /v1/idps (no login)", len(reqs))
			}
			if got := reqs[0].Header.Get("Authorization"); got != "" {
				t.Errorf("sent credentials to a call that needs none: Authorization %q", got)
			}
		})
	}
}

func TestList_secretsNeverInTables(t *testing.T) {
	for _, args := range [][]string{nil, {"--show-secrets"}, {"--show-secrets", "--no-headers"}} {
		for _, tty := range []bool{false, true} {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/idps", 200, threeIdps)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: tty}, append([]string{"idps", "list"}, args...)...).
				Expect(t, 0).StdoutHas(t, "corp-ldap")
			for _, s := range idpSecrets {
				if strings.Contains(res.Stdout, s) {
					t.Errorf("%v (tty %t): table shows the secret %q:\n%s", args, tty, s, res.Stdout)
				}
			}
		}
	}
}

func TestList_secretsMaskedUnlessShown(t *testing.T) {
	formats := [][]string{
		{"-o", "json"},
		{"-o", "yaml"},
		{"--jq", ".identityProviders[].config"},
		{"--template", `{{range .identityProviders}}{{.config}}{{"\n"}}{{end}}`},
	}
	for _, format := range formats {
		for _, show := range []bool{false, true} {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/idps", 200, threeIdps)
			args := append([]string{"idps", "list"}, format...)
			if show {
				args = append(args, "--show-secrets")
			}
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 0)
			for _, s := range idpSecrets {
				if got := strings.Contains(res.Stdout, s); got != show {
					t.Errorf("%v show-secrets=%t: secret %q printed: %t\n%s", format, show, s, got, res.Stdout)
				}
			}
			if got := strings.Count(res.Stdout, "********"); show && got != 0 || !show && got != len(idpSecrets) {
				t.Errorf("%v show-secrets=%t: %d masks printed\n%s", format, show, got, res.Stdout)
			}
		}
	}
}

func TestList_emptyAnswer(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"table", nil, "NAME   TITLE   DOMAIN   TYPE   ENDPOINT\n"},
		{"json", []string{"-o", "json"}, "{\n  \"identityProviders\": []\n}\n"},
		{"yaml", []string{"-o", "yaml"}, "identityProviders: []\n"},
		{"name", []string{"-o", "name"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/idps", 200, `{}`)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Token: "-"}, append([]string{"idps", "list"}, tt.args...)...).Expect(t, 0)
			if res.Stdout != tt.want {
				t.Errorf("stdout %q, want %q", res.Stdout, tt.want)
			}
		})
	}
}

func TestList_errors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		code     int
		wantLine string
		wantJSON string
		requests int
	}{
		{"unknown route", 404, `{"code": 2, "message": "Not Found"}`, 5,
			`dbgov: list identity providers: Not Found (HTTP 404 UNKNOWN)`,
			`{"error":{"httpStatus":404,"code":"UNKNOWN","message":"Not Found","exitCode":5}}`, 1},
		{"internal", 500, `{"code": 13, "message": "boom"}`, 7,
			`dbgov: list identity providers: boom (HTTP 500 INTERNAL)`,
			`{"error":{"httpStatus":500,"code":"INTERNAL","message":"boom","exitCode":7}}`, 1},
		{"unavailable, retried", 503, `{"code": 14, "message": "down"}`, 7,
			`dbgov: list identity providers: down (HTTP 503 UNAVAILABLE)`, `"code":"UNAVAILABLE"`, 4},
		{"forbidden by a proxy", 403, `<html>Forbidden</html>`, 4, `(HTTP 403 PERMISSION_DENIED)`, `"httpStatus":403`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/idps", tt.status, tt.body).Header("Retry-After", "0")
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Token: "-"}, "idps", "list").Expect(t, tt.code).StderrHas(t, tt.wantLine)
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
			if n := len(reg.Requests()); n != tt.requests {
				t.Errorf("sent %d requests, want %d", n, tt.requests)
			}
			res = cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Token: "-"}, "idps", "list", "-o", "json").Expect(t, tt.code).StderrHas(t, tt.wantJSON)
			if lines := strings.Count(res.Stderr, "\n"); lines != 1 || !strings.HasPrefix(res.Stderr, `{"error":`) {
				t.Errorf("stderr is not one JSON line: %q", res.Stderr)
			}
		})
	}
}

func TestList_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"argument", []string{"idps/okta"}, "takes no arguments (got 1 argument)"},
		{"unknown flag", []string{"--all"}, "unknown flag: --all"},
		{"show-secrets takes no value", []string{"--show-secrets=please"}, "invalid argument"},
		{"bad template", []string{"--template", "{{.x"}, "template"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, append([]string{"idps", "list"}, tt.args...)...).Expect(t, 2).StderrHas(t, tt.want)
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
			if n := len(reg.Requests()); n != 0 {
				t.Errorf("sent %d requests", n)
			}
		})
	}
}

func TestList_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{Token: "-"}, "idps", "list").Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestList_fitsTheTerminal(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		reg := httpmock.New(t)
		reg.Register(http.MethodGet, "/v1/idps", 200, threeIdps).Query("")
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: true, Width: width}, "idps", "list").Expect(t, 0)
		cmdtest.Golden(t, fmt.Sprintf("list_tty_%d", width), res.Stdout)
	}
}
