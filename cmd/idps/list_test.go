package idps_test

import (
	"net/http"
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

// list is `dbgov idps list` answered with threeIdps.
var list = cmdtest.Command{
	Args: []string{"idps", "list"},
	Serve: func(reg *httpmock.Registry, _ bool) {
		reg.Register(http.MethodGet, "/v1/idps", 200, threeIdps).Query("")
	},
	JQ:       `.identityProviders[] | [.name, .config.oidcConfig.clientSecret // .config.oauth2Config.clientSecret // .config.ldapConfig.bindPassword // "-"] | @tsv`,
	Template: `{{range .identityProviders}}{{.name}} {{.type}}{{"\n"}}{{end}}`,
}

func TestList_formats(t *testing.T) {
	list.Goldens(t, "list_", "table", "table_tty", "no_headers", "json", "json_show_secrets", "yaml", "name", "jq", "template")
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
			req := reg.Only()
			if got := req.Header.Get("Authorization"); got != "" {
				t.Errorf("sent credentials to a call that needs none: Authorization %q", got)
			}
		})
	}
}

func TestList_secretsNeverInTables(t *testing.T) {
	list.SecretsNeverInTables(t, "corp-ldap", idpSecrets)
}

func TestList_secretsMaskedUnlessShown(t *testing.T) {
	list.SecretsMaskedUnlessShown(t, idpSecrets, len(idpSecrets),
		[]string{"-o", "json"},
		[]string{"-o", "yaml"},
		[]string{"--jq", ".identityProviders[].config"},
		[]string{"--template", `{{range .identityProviders}}{{.config}}{{"\n"}}{{end}}`})
}

func TestList_emptyAnswer(t *testing.T) {
	empty := cmdtest.Command{
		Args:    []string{"idps", "list"},
		Options: cmdtest.Options{Token: "-"},
		Serve:   func(reg *httpmock.Registry, _ bool) { reg.Register(http.MethodGet, "/v1/idps", 200, `{}`) },
	}
	empty.Prints(t, map[string]string{
		"table": "NAME   TITLE   DOMAIN   TYPE   ENDPOINT\n",
		"json":  "{\n  \"identityProviders\": []\n}\n",
		"yaml":  "identityProviders: []\n",
		"name":  "",
	})
}

func TestList_errors(t *testing.T) {
	noToken := list
	noToken.Options.Token = "-"
	noToken.Failures(t, http.MethodGet, "/v1/idps", []cmdtest.Failure{
		{Name: "unknown route", Status: 404, Body: `{"code": 2, "message": "Not Found"}`, Code: 5,
			Line: `dbgov: list identity providers: Not Found (HTTP 404 UNKNOWN)`,
			JSON: `{"error":{"httpStatus":404,"code":"UNKNOWN","message":"Not Found","exitCode":5}}`},
		{Name: "internal", Status: 500, Body: `{"code": 13, "message": "boom"}`, Code: 7,
			Line: `dbgov: list identity providers: boom (HTTP 500 INTERNAL)`,
			JSON: `{"error":{"httpStatus":500,"code":"INTERNAL","message":"boom","exitCode":7}}`},
		{Name: "unavailable, retried", Status: 503, Body: `{"code": 14, "message": "down"}`, Code: 7,
			Line: `dbgov: list identity providers: down (HTTP 503 UNAVAILABLE)`, JSON: `"code":"UNAVAILABLE"`, Sent: 4},
		{Name: "forbidden by a proxy", Status: 403, Body: `<html>Forbidden</html>`, Code: 4, Line: `(HTTP 403 PERMISSION_DENIED)`, JSON: `"httpStatus":403`},
	})
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
			cmdtest.Refused(t, cmdtest.Options{}, append([]string{"idps", "list"}, tt.args...), tt.want)
		})
	}
}

func TestList_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{Token: "-"}, "idps", "list").Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestList_fitsTheTerminal(t *testing.T) {
	list.Goldens(t, "list_", "tty_60", "tty_80", "tty_120")
}
