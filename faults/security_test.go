package faults

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Distinctive credentials: none of them may ever be printed.
const (
	leakToken      = "tok-LEAK-a1b2c3d4"
	leakServiceKey = "key-LEAK-e5f6a7b8"
	leakIssued     = "issued-LEAK-c9d0e1f2" // the token the login answers with
	leakHeader     = "hdr-LEAK-a3b4c5d6"
	leakURLPass    = "pw-LEAK-e7f8a9b0"
	serviceAccount = "ci-bot@service.example.com"
)

// leaks lists the forms in which a credential may show: itself, and the
// base64 of a basic authorization holding it.
func leaks() []string {
	return []string{
		leakToken, leakServiceKey, leakIssued, leakHeader, leakURLPass,
		base64.StdEncoding.EncodeToString([]byte("admin:" + leakURLPass)),
	}
}

// expectNoLeak fails the test when stdout or stderr shows a credential.
func expectNoLeak(t *testing.T, res result) {
	t.Helper()
	for _, secret := range leaks() {
		for name, out := range map[string]string{"stdout": res.stdout, "stderr": res.stderr} {
			if i := strings.Index(out, secret); i >= 0 {
				from, to := max(i-200, 0), min(i+len(secret)+100, len(out))
				t.Errorf("dbgov %s: %s shows the credential %q:\n...%s...", quoteArgs(res.args), name, secret, out[from:to])
			}
		}
	}
}

// leakyService is a fake service that knows the test credentials, logs a
// service account in, and answers each route with success or a failure
// whose body quotes the request as a careless service might.
func leakyService(t *testing.T) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		auth := r.Header.Get("Authorization")
		authorized := auth == "Bearer "+leakToken || auth == "Bearer "+leakIssued
		switch {
		case r.URL.Path == "/v1/auth/login":
			var body struct{ Email, Password string }
			json.NewDecoder(r.Body).Decode(&body)
			if body.Password != leakServiceKey {
				respond(w, http.StatusUnauthorized, apiError(16, "wrong password for "+body.Email))
				return
			}
			respond(w, http.StatusOK, fmt.Sprintf(`{"token": %q, "refreshToken": %q, "expiresIn": "3600s"}`, leakIssued, leakIssued+"-refresh"))
		case !authorized:
			respond(w, http.StatusUnauthorized, apiError(16, "the token is not valid"))
		case r.URL.Path == "/v1/reviewConfigs/x":
			respond(w, http.StatusOK, reviewConfigBody)
		case r.URL.Path == "/v1/reviewConfigs/missing":
			respond(w, http.StatusNotFound, apiError(5, "review config missing not found"))
		case r.URL.Path == "/v1/reviewConfigs/broken":
			respond(w, http.StatusInternalServerError, apiError(13, "internal error"))
		case r.URL.Path == "/v1/reviewConfigs/denied":
			respond(w, http.StatusForbidden, apiError(7, "permission svc.reviewConfigs.get denied"))
		case strings.HasSuffix(r.URL.Path, ":undelete"):
			respond(w, http.StatusBadRequest, apiError(3, "user is active"))
		case r.URL.Path == "/v1/users:batchGet":
			respond(w, http.StatusOK, `{"users": [`+userBody+`]}`)
		default:
			respond(w, http.StatusNotFound, apiError(5, "no route "+r.URL.Path))
		}
	})
}

func TestSecurity_credentialsNeverPrinted(t *testing.T) {
	t.Parallel()
	srv := leakyService(t)
	catalog := writeFile(t, "catalog.json", []byte(goodCatalog))
	withToken := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_TOKEN": leakToken}
	withAccount := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": serviceAccount, "DBGOV_SERVICE_KEY": leakServiceKey}
	withWrongKey := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": serviceAccount, "DBGOV_SERVICE_KEY": leakServiceKey + "-old"}
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("admin", leakURLPass)
	withURLPassword := map[string]string{"DBGOV_URL": u.String(), "DBGOV_TOKEN": leakToken}
	refused := map[string]string{"DBGOV_URL": "http://" + closedPort(t), "DBGOV_TOKEN": leakToken}
	hanging, _ := hangingListener(t)
	noAnswer := map[string]string{"DBGOV_URL": "http://" + hanging, "DBGOV_TOKEN": leakToken, "DBGOV_TIMEOUT": "1s"}
	tlsSrv := newTLSServer(t, always(http.StatusOK, reviewConfigBody))
	untrusted := map[string]string{"DBGOV_URL": tlsSrv.URL, "DBGOV_TOKEN": leakToken}
	header := []string{"--header", "X-Proxy-Auth: " + leakHeader}

	noLeaks(t, []leakCase{
		{"success", withToken, []string{"review-configs", "get", "x"}, 0},
		{"success json", withToken, []string{"review-configs", "get", "x", "-o", "json"}, 0},
		{"success debug", withToken, []string{"review-configs", "get", "x", "--debug"}, 0},
		{"success debug from env", mergeEnv(withToken, map[string]string{"DBGOV_DEBUG": "1"}), []string{"users", "batch-get", "a@x.com", "-o", "yaml"}, 0},
		{"token flag debug", map[string]string{"DBGOV_URL": srv.URL}, []string{"review-configs", "get", "x", "--debug", "--token", leakToken}, 0},
		{"header debug", withToken, append([]string{"review-configs", "get", "x", "--debug"}, header...), 0},
		{"header debug json", withToken, append([]string{"review-configs", "get", "x", "--debug", "-o", "json"}, header...), 0},
		{"not found debug json", withToken, append([]string{"review-configs", "get", "missing", "--debug", "-o", "json"}, header...), 5},
		{"service error debug", withToken, append([]string{"review-configs", "get", "broken", "--debug"}, header...), 7},
		{"permission denied", withToken, []string{"review-configs", "get", "denied", "--jq", ".name"}, 4},
		{"rejected POST debug", withToken, append([]string{"users", "undelete", "a@x.com", "--debug"}, header...), 6},
		{"dry run POST debug", withToken, append([]string{"users", "undelete", "a@x.com", "--dry-run", "--debug"}, header...), 0},
		{"dry run PATCH json", withToken, append([]string{"catalog", "update", "--instance", "i", "--database", "d", "-f", catalog, "--dry-run", "-o", "json"}, header...), 0},
		{"api debug", withToken, append([]string{"api", "GET", "/v1/reviewConfigs/x", "--debug"}, header...), 0},
		{"api error json", withToken, []string{"api", "GET", "/v1/nowhere", "-o", "json", "--debug"}, 5},
		{"service account", withAccount, []string{"review-configs", "get", "x"}, 0},
		{"service account debug", withAccount, []string{"review-configs", "get", "x", "--debug"}, 0},
		{"service account debug json", withAccount, []string{"users", "batch-get", "a@x.com", "--debug", "-o", "json"}, 0},
		{"service account flags debug", map[string]string{"DBGOV_URL": srv.URL}, []string{"review-configs", "get", "x", "--debug",
			"--service-account", serviceAccount, "--service-key", leakServiceKey}, 0},
		{"service account failure debug", withAccount, []string{"review-configs", "get", "missing", "--debug"}, 5},
		{"wrong service key debug", withWrongKey, []string{"review-configs", "get", "x", "--debug"}, 3},
		{"wrong service key json", withWrongKey, []string{"review-configs", "get", "x", "-o", "json"}, 3},
		{"password in URL debug", withURLPassword, []string{"review-configs", "get", "x", "--debug"}, 0},
		{"password in URL refused", mergeEnv(withURLPassword, map[string]string{"DBGOV_URL": strings.Replace(u.String(), u.Host, closedPort(t), 1)}), []string{"review-configs", "get", "x", "--debug"}, 8},
		{"connection refused debug", refused, append([]string{"users", "undelete", "a@x.com", "--debug"}, header...), 8},
		{"no answer debug", noAnswer, append([]string{"review-configs", "get", "x", "--debug", "-o", "json"}, header...), 8},
		{"untrusted certificate debug", untrusted, append([]string{"review-configs", "get", "x", "--debug"}, header...), 8},
		{"bad flag", withToken, append([]string{"review-configs", "get", "x", "--output", "xml", "--debug"}, header...), 2},
		{"bad header name", withToken, []string{"review-configs", "get", "x", "--header", "X Proxy: " + leakHeader}, 2},
	}, func(t *testing.T, tt leakCase, res result) {
		if strings.Contains(strings.Join(tt.args, " "), "--debug") && tt.code != 2 && !strings.Contains(res.stderr, "> ") && !strings.Contains(tt.name, "dry run") {
			t.Errorf("--debug logged no exchange:\n%s", clip(res.stderr))
		}
	})
}

// leakCase is a run of dbgov that must print no credential: its
// environment, arguments and exit code.
type leakCase struct {
	name string
	env  map[string]string
	args []string
	code int
}

// noLeaks runs each case in parallel: it must exit with its code, without a
// crash, printing no credential; check, when not nil, checks more.
func noLeaks(t *testing.T, cases []leakCase, check func(t *testing.T, tt leakCase, res result)) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, opts{env: tt.env}, tt.args...).expect(t, tt.code).noPanic(t)
			expectNoLeak(t, res)
			if check != nil {
				check(t, tt, res)
			}
		})
	}
}

// mergeEnv returns a copy of base with more set over it.
func mergeEnv(base, more map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(more))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

func TestSecurity_credentialsQuotedByDbgovItselfNeverPrinted(t *testing.T) {
	t.Parallel()
	// Messages made by dbgov, not the service, may quote what the user gave:
	// a value, a file, an expression. A credential of the run in them is masked.
	srv := leakyService(t)
	withToken := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_TOKEN": leakToken}
	badTimeout := writeFile(t, "config.yaml", []byte("profiles:\n  default:\n    timeout: "+leakToken+"\n"))
	noSuchProfile := writeFile(t, "config.yaml", []byte("profiles:\n  default: {}\n"))
	catalog := writeFile(t, "catalog.json", []byte(`{"schemas": [], "`+leakServiceKey+`": 1}`))
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("admin", leakURLPass)
	cases := []leakCase{
		{"config error", mergeEnv(withToken, map[string]string{"DBGOV_CONFIG": badTimeout}), []string{"review-configs", "get", "x"}, 2},
		{"bad --header value", withToken, []string{"review-configs", "get", "x", "--header", "X-Proxy-Auth " + leakHeader + ": x"}, 2},
		{"input file quoting its content", map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": serviceAccount, "DBGOV_SERVICE_KEY": leakServiceKey},
			[]string{"catalog", "update", "--instance", "i", "--database", "d", "-f", catalog}, 2},
		{"jq error", withToken, []string{"review-configs", "get", "x", "--jq", `"Bearer ` + leakToken + `" | keys`}, 1},
		{"warning", mergeEnv(withToken, map[string]string{"DBGOV_CONFIG": noSuchProfile}), []string{"review-configs", "get", "x", "--profile", leakToken}, 0},
		{"usage error, the client never made", map[string]string{"DBGOV_URL": srv.URL}, []string{"review-configs", "get", "bad name " + leakToken, "--token", leakToken}, 2},
		{"flag error after the token", map[string]string{"DBGOV_URL": srv.URL}, []string{"review-configs", "get", "x", "--token", leakToken, "--timeout", leakToken}, 2},
		{"password of the URL", map[string]string{"DBGOV_URL": u.String()}, []string{"review-configs", "get", "bad name " + leakURLPass}, 2},
	}
	for _, c := range cases[:len(cases):len(cases)] {
		c.name, c.args = c.name+" json", append([]string{"-o", "json"}, c.args...)
		cases = append(cases, c)
	}
	noLeaks(t, cases, func(t *testing.T, tt leakCase, res result) {
		if !strings.Contains(res.stderr, "********") {
			t.Errorf("stderr shows no masked credential:\n%s", clip(res.stderr))
		}
		for _, line := range strings.Split(strings.TrimSuffix(res.stderr, "\n"), "\n") {
			if strings.HasSuffix(tt.name, " json") && !json.Valid([]byte(line)) {
				t.Errorf("stderr line %q is not JSON", line)
			}
		}
	})
}

func TestSecurity_credentialsFromConfigFileNeverPrinted(t *testing.T) {
	t.Parallel()
	srv := leakyService(t)
	home := t.TempDir()
	cfg := filepath.Join(home, "cfg", "config.yaml")
	env := map[string]string{"DBGOV_CONFIG": cfg}
	run(t, opts{home: home, env: env}, "config", "set", "url", srv.URL).expect(t, 0)
	run(t, opts{home: home, env: env, stdin: leakToken + "\n"}, "config", "set", "token", "-").expect(t, 0)
	run(t, opts{home: home, env: env, stdin: leakServiceKey + "\n"}, "config", "set", "service_key", "-").expect(t, 0)
	run(t, opts{home: home, env: env}, "config", "set", "headers", "X-Proxy-Auth: "+leakHeader).expect(t, 0)
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), leakToken) {
		t.Fatalf("the config file does not hold the token set with `config set token -`:\n%s", data)
	}
	for _, args := range [][]string{
		{"config", "view"},
		{"config", "view", "--debug"},
		{"config", "view", "-o", "json"},
		{"config", "get", "token"},
		{"config", "get", "service_key"},
		{"config", "get", "headers"},
		{"review-configs", "get", "x", "--debug"},
		{"review-configs", "get", "missing", "--debug", "-o", "json"},
		{"users", "undelete", "a@x.com", "--dry-run"},
	} {
		res := run(t, opts{home: home, env: env}, args...).noPanic(t)
		if res.code != 0 && res.code != 5 {
			t.Errorf("dbgov %s: exit %d\n%s", quoteArgs(args), res.code, res.stderr)
		}
		expectNoLeak(t, res)
	}
}

// secretService answers identity providers and users that carry secrets.
const (
	secretClient   = "cs-SECRET-1a2b"
	secretOIDC     = "oidc-SECRET-3c4d"
	secretBind     = "bind-SECRET-5e6f"
	secretOTP      = "otp-SECRET-7a8b"
	secretRecovery = "rc-SECRET-9c0d"
	secretKey      = "sk-SECRET-1e2f"
)

var allSecrets = []string{secretClient, secretOIDC, secretBind, secretOTP, secretRecovery, secretKey}

func secretService(t *testing.T) *server {
	idps := fmt.Sprintf(`{"identityProviders": [
 {"name": "idps/google", "title": "Google", "domain": "example.com", "type": "OAUTH2", "config": {"oauth2Config": {
   "authUrl": "https://accounts.example.com/auth", "tokenUrl": "https://oauth.example.com/token", "clientId": "cid",
   "clientSecret": %q, "scopes": ["email"], "authStyle": "IN_PARAMS"}}},
 {"name": "idps/okta", "title": "Okta", "type": "OIDC", "config": {"oidcConfig": {"issuer": "https://okta.example.com",
   "clientId": "oid", "clientSecret": %q}}},
 {"name": "idps/ldap", "title": "Corp LDAP", "type": "LDAP", "config": {"ldapConfig": {"host": "ldap.example.com", "port": 636,
   "bindDn": "cn=admin", "bindPassword": %q, "securityProtocol": "LDAPS"}}}]}`, secretClient, secretOIDC, secretBind)
	user := fmt.Sprintf(`{"name": "users/a@x.com", "email": "a@x.com", "title": "Ann", "state": "ACTIVE", "userType": "SERVICE_ACCOUNT",
 "tempOtpSecret": %q, "tempRecoveryCodes": [%q, %q], "serviceKey": %q}`, secretOTP, secretRecovery, secretRecovery+"-2", secretKey)
	return newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch {
		case r.URL.Path == "/v1/idps":
			respond(w, http.StatusOK, idps)
		case r.URL.Path == "/v1/users:batchGet":
			respond(w, http.StatusOK, `{"users": [`+user+`]}`)
		case strings.HasSuffix(r.URL.Path, ":undelete"):
			respond(w, http.StatusOK, user)
		default:
			respond(w, http.StatusNotFound, apiError(5, "no route"))
		}
	})
}

func TestSecurity_secretsMaskedInEveryFormat(t *testing.T) {
	t.Parallel()
	srv := secretService(t)
	type command struct {
		name    string
		args    []string
		jq      string
		tmpl    string
		secrets []string // those the answer holds
	}
	idpSecrets := []string{secretClient, secretOIDC, secretBind}
	userSecrets := []string{secretOTP, secretRecovery, secretKey}
	commands := []command{
		{"idps list", []string{"idps", "list"},
			`.identityProviders[].config | .oauth2Config.clientSecret, .oidcConfig.clientSecret, .ldapConfig.bindPassword`,
			`{{range .identityProviders}}{{.config}}{{"\n"}}{{end}}`, idpSecrets},
		{"users batch-get", []string{"users", "batch-get", "a@x.com"},
			`.users[] | .tempOtpSecret, .tempRecoveryCodes, .serviceKey`,
			`{{range .users}}{{.tempOtpSecret}} {{.tempRecoveryCodes}} {{.serviceKey}}{{end}}`, userSecrets},
		{"users undelete", []string{"users", "undelete", "a@x.com"},
			`.tempOtpSecret, .tempRecoveryCodes, .serviceKey`,
			`{{.tempOtpSecret}} {{.tempRecoveryCodes}} {{.serviceKey}}`, userSecrets},
		{"api idps", []string{"api", "GET", "/v1/idps"},
			`.identityProviders[].config | .oauth2Config.clientSecret, .oidcConfig.clientSecret, .ldapConfig.bindPassword`,
			`{{range .identityProviders}}{{.config}}{{"\n"}}{{end}}`, idpSecrets},
		{"api users", []string{"api", "GET", "/v1/users:batchGet?names=users/a@x.com"},
			`.users[] | .tempOtpSecret, .tempRecoveryCodes, .serviceKey`,
			`{{range .users}}{{.tempOtpSecret}} {{.tempRecoveryCodes}} {{.serviceKey}}{{end}}`, userSecrets},
	}
	for _, c := range commands {
		formats := []struct {
			name     string
			args     []string
			wantMask bool
		}{
			{"table", nil, false},
			{"json", []string{"-o", "json"}, true},
			{"yaml", []string{"-o", "yaml"}, true},
			{"name", []string{"-o", "name"}, false},
			{"jq", []string{"--jq", c.jq}, true},
			{"jq whole", []string{"--jq", "."}, true},
			{"jq recursive", []string{"--jq", `[.. | strings] | join(" ")`}, true},
			{"template", []string{"--template", c.tmpl}, true},
			{"debug", []string{"-o", "json", "--debug"}, true},
			{"DBGOV_OUTPUT", nil, true},
		}
		for _, f := range formats {
			if strings.HasPrefix(c.name, "api") && (f.name == "table" || f.name == "name") {
				continue // api prints JSON in those modes
			}
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				env := withURL(srv, nil)
				if f.name == "DBGOV_OUTPUT" {
					env["DBGOV_OUTPUT"] = "yaml"
				}
				args := append(append([]string(nil), c.args...), f.args...)
				res := run(t, opts{env: env}, args...).expect(t, 0).noPanic(t)
				for _, s := range allSecrets {
					if strings.Contains(res.stdout, s) || strings.Contains(res.stderr, s) {
						t.Errorf("dbgov %s shows the secret %q:\nstdout: %s\nstderr: %s", quoteArgs(args), s, clip(res.stdout), clip(res.stderr))
					}
				}
				if f.wantMask {
					if n := strings.Count(res.stdout, "********"); n < len(c.secrets) {
						t.Errorf("dbgov %s: %d masks in stdout, want one for each of the %d secrets:\n%s", quoteArgs(args), n, len(c.secrets), clip(res.stdout))
					}
				}
			})
		}
		t.Run(c.name+"/show-secrets", func(t *testing.T) {
			t.Parallel()
			for _, f := range [][]string{{"-o", "json"}, {"-o", "yaml"}, {"--jq", c.jq}} {
				args := append(append(append([]string(nil), c.args...), "--show-secrets"), f...)
				res := run(t, opts{env: withURL(srv, nil)}, args...).expect(t, 0)
				for _, s := range c.secrets {
					if !strings.Contains(res.stdout, s) {
						t.Errorf("dbgov %s does not show the secret %q:\n%s", quoteArgs(args), s, clip(res.stdout))
					}
				}
			}
		})
	}
}

// fileMode returns the permission bits of path.
func fileMode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestSecurity_configFileCreatedPrivate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		umask string
		path  func(home string) (file, dir string)
		env   func(file string) map[string]string
	}{
		{"DBGOV_CONFIG in a new directory", "", func(home string) (string, string) {
			return filepath.Join(home, "new", "dir", "config.yaml"), filepath.Join(home, "new", "dir")
		}, func(file string) map[string]string { return map[string]string{"DBGOV_CONFIG": file} }},
		{"--config in a new directory, umask 000", "000", func(home string) (string, string) {
			return filepath.Join(home, "cfg", "config.yaml"), filepath.Join(home, "cfg")
		}, nil},
		{"default path", "", func(home string) (string, string) {
			return filepath.Join(home, ".config", "dbgov", "config.yaml"), filepath.Join(home, ".config", "dbgov")
		}, nil},
		{"default path, umask 000", "000", func(home string) (string, string) {
			return filepath.Join(home, ".config", "dbgov", "config.yaml"), filepath.Join(home, ".config", "dbgov")
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			file, dir := tt.path(home)
			var env map[string]string
			args := []string{"config", "set", "url", "http://127.0.0.1:1"}
			switch {
			case tt.env != nil:
				env = tt.env(file)
			case strings.HasPrefix(tt.name, "--config"):
				args = append(args, "--config", file)
			}
			run(t, opts{home: home, env: env, umask: tt.umask}, args...).expect(t, 0)
			if m := fileMode(t, file); m != 0o600 {
				t.Errorf("config file created %#o, want 0600", m)
			}
			if m := fileMode(t, dir); m != 0o700 {
				t.Errorf("config directory created %#o, want 0700", m)
			}
			// Writing a token keeps the file private.
			run(t, opts{home: home, env: env, umask: tt.umask, stdin: "t0k\n"}, append([]string{"config", "set", "token", "-"}, args[4:]...)...).expect(t, 0)
			if m := fileMode(t, file); m != 0o600 {
				t.Errorf("config file %#o after setting a token, want 0600", m)
			}
		})
	}
}

func TestSecurity_configFileReadableByOthersWarns(t *testing.T) {
	t.Parallel()
	srv := newServer(t, always(http.StatusOK, reviewConfigBody))
	for _, mode := range []fs.FileMode{0o644, 0o604, 0o640, 0o600} {
		t.Run(fmt.Sprintf("%#o", mode), func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			file := filepath.Join(home, "config.yaml")
			content := fmt.Sprintf("current_profile: default\nprofiles:\n  default:\n    url: %s\n    token: t0k\n", srv.URL)
			if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(file, mode); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"DBGOV_CONFIG": file}
			res := run(t, opts{home: home, env: env}, "review-configs", "get", "x").expect(t, 0)
			if mode == 0o600 { // draws no warning
				if res.stderr != "" {
					t.Errorf("stderr: %q, want nothing", res.stderr)
				}
				return
			}
			res.stderrHas(t, "warning", file)
			if !strings.Contains(res.stdout, "Production review") {
				t.Errorf("stdout lacks the review config:\n%s", res.stdout)
			}
			// Rewriting the file makes it private.
			run(t, opts{home: home, env: env}, "config", "set", "timeout", "5s").expect(t, 0)
			if m := fileMode(t, file); m != 0o600 {
				t.Errorf("config file %#o after config set, want 0600", m)
			}
		})
	}
}

func TestSecurity_plainHTTPWarning(t *testing.T) {
	t.Parallel()
	srv := newServer(t, always(http.StatusOK, reviewConfigBody))
	port := srv.Listener.Addr().String()[strings.LastIndex(srv.Listener.Addr().String(), ":")+1:]
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		warn bool
	}{
		{"--token to a remote host", nil, []string{"--url", "http://gov.invalid", "--token", "t"}, 8, true},
		{"DBGOV_TOKEN to a remote host", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", "http://gov.invalid"}, 8, true},
		{"service key to a remote host", map[string]string{"DBGOV_SERVICE_ACCOUNT": serviceAccount, "DBGOV_SERVICE_KEY": "k"}, []string{"--url", "http://gov.invalid"}, 8, true},
		{"remote host with a port", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", "http://gov.invalid:8080"}, 8, true},
		{"remote host with a path", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", "http://gov.invalid/governance/v1"}, 8, true},
		{"upper case scheme", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", "HTTP://gov.invalid"}, 8, true},
		{"loopback", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", srv.URL}, 0, false},
		{"localhost", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", "http://localhost:" + port}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"review-configs", "get", "x", "--timeout", "1s"}, tt.args...)
			res := run(t, opts{env: tt.env}, args...).expect(t, tt.code).noPanic(t)
			warned := strings.Contains(strings.ToLower(res.stderr), "warning") && strings.Contains(res.stderr, "http://")
			switch {
			case tt.warn && !warned:
				t.Errorf("no warning about credentials over plain http:\n%s", res.stderr)
			case !tt.warn && warned:
				t.Errorf("a warning for a loopback address:\n%s", res.stderr)
			}
			if strings.Contains(res.stdout, "warning") {
				t.Errorf("the warning went to stdout: %q", res.stdout)
			}
		})
	}
}

// hostile holds what a server may put in a value to drive a terminal.
var hostile = []struct {
	name, json, raw string
}{
	{"CSI colour", `\u001b[31m`, "\x1b[31m"},
	{"OSC title", `\u001b]0;pwned\u0007`, "\x1b]0;pwned\x07"},
	{"carriage return", `\r`, "\r"},
	{"clear screen", `\u001b[2J\u001b[H`, "\x1b[2J"},
	{"C1 CSI", `\u009b31m`, "\u009b"},
	{"backspace", `\b\b\b`, "\b"},
}

// rawControl reports the first byte of s that would drive a terminal, other
// than the newlines and tabs of the layout.
func rawControl(s string) (string, bool) {
	for _, h := range []string{"\x1b", "\x07", "\r", "\b", "\u009b", "\x9b"} {
		if strings.Contains(s, h) {
			return h, true
		}
	}
	return "", false
}

func TestSecurity_terminalEscapesShownEscaped(t *testing.T) {
	t.Parallel()
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			v := func(s string) string { return s + h.json + "x" }
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				p := r.URL.Path
				switch {
				case strings.HasSuffix(p, "/missing"):
					respond(w, 404, `{"code": 5, "message": "`+v("not found")+`"}`)
				case strings.HasPrefix(p, "/v1/reviewConfigs/"):
					respond(w, 200, `{"name": "reviewConfigs/`+v("x")+`", "title": "`+v("title")+`", "enabled": true,
 "resources": ["`+v("projects/p")+`"], "rules": [{"type": "`+v("naming.table")+`", "level": "`+v("ERROR")+`", "engine": "`+v("MYSQL")+`"}]}`)
				case p == "/v1/users:batchGet":
					// The name is the user's asked for: another would make the answer invalid.
					respond(w, 200, `{"users": [{"name": "users/a@x.com", "email": "`+v("a@x.com")+`", "title": "`+v("Ann")+`",
 "state": "`+v("ACTIVE")+`", "userType": "`+v("USER")+`", "groups": ["`+v("groups/g")+`"]}]}`)
				case strings.HasSuffix(p, ":undelete"):
					respond(w, 200, `{"name": "users/a@x.com", "email": "`+v("a@x.com")+`", "title": "`+v("Ann")+`"}`)
				case strings.HasSuffix(p, "/catalog"):
					// The name is the catalog's asked for: another would make the answer invalid.
					respond(w, 200, `{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "`+v("public")+`", "tables": [{"name": "`+v("t")+`",
 "classification": "`+v("1")+`", "columns": {"columns": [{"name": "`+v("c")+`", "semanticType": "`+v("email")+`", "labels": {"`+v("k")+`": "`+v("v")+`"}}]}}]}]}`)
				case strings.HasSuffix(p, ":batchCreate"):
					respond(w, 200, `{"revisions": [{"name": "`+v("rev")+`", "version": "`+v("1.0.0")+`", "type": "`+v("VERSIONED")+`",
 "file": "`+v("f.sql")+`", "sheet": "`+v("projects/p/sheets/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b")+`", "statement": "`+v("SELECT 1")+`"}]}`)
				case strings.HasSuffix(p, ":diffSchema"):
					respond(w, 200, `{"diff": "ALTER TABLE t ADD COLUMN c int;\n-- `+v("note")+`\n"}`)
				case strings.HasSuffix(p, "/policies"):
					respond(w, 200, `{"policies": [{"name": "`+v("pol")+`", "type": "`+v("TAG")+`", "resourceType": "`+v("DATABASE")+`",
 "tagPolicy": {"tags": {"`+v("k")+`": "`+v("v")+`"}}}]}`)
				case p == "/v1/idps":
					respond(w, 200, `{"identityProviders": [{"name": "`+v("idps/x")+`", "title": "`+v("X")+`", "domain": "`+v("x.com")+`",
 "type": "`+v("OIDC")+`", "config": {"oidcConfig": {"issuer": "`+v("https://x")+`"}}}]}`)
				default:
					respond(w, 404, apiError(5, "no route"))
				}
			})
			catalog := writeFile(t, "catalog.json", []byte(goodCatalog))
			revisions := writeFile(t, "revisions.json", []byte(goodRevisions))
			schema := writeFile(t, "schema.sql", []byte(goodSchema))
			commands := [][]string{
				{"review-configs", "get", "x"},
				{"users", "batch-get", "a@x.com"},
				{"users", "batch-get", "a@x.com", "--no-headers"},
				{"users", "undelete", "a@x.com"},
				{"catalog", "update", "--instance", "i", "--database", "d", "-f", catalog},
				{"revisions", "batch-create", "--instance", "i", "--database", "d", "-f", revisions},
				{"schema", "diff", "--instance", "i", "--database", "d", "--schema-file", schema},
				{"policies", "list", "--instance", "i", "--database", "d"},
				{"idps", "list"},
			}
			for _, args := range commands {
				for _, tty := range []bool{false, true} {
					res := run(t, opts{env: withURL(srv, nil), tty: tty}, args...).expect(t, 0).noPanic(t)
					if !tty && args[0] == "schema" {
						// A diff is text to apply: piped, it is the service's
						// exactly; only a terminal gets it escaped.
						if !strings.Contains(res.stdout, h.raw) {
							t.Errorf("dbgov %s (piped): the diff is not the service's text:\n%q", quoteArgs(args), res.stdout)
						}
						continue
					}
					if c, ok := rawControl(res.stdout); ok {
						t.Errorf("dbgov %s (terminal: %v): stdout holds a raw %q:\n%q", quoteArgs(args), tty, c, res.stdout)
					}
					if res.stdout == "" || !strings.Contains(res.stdout, "x") {
						t.Errorf("dbgov %s (terminal: %v): stdout shows no value:\n%q", quoteArgs(args), tty, res.stdout)
					}
				}
			}
			// An error message from the service reaches the terminal too.
			for _, args := range [][]string{{"review-configs", "get", "missing"}, {"api", "GET", "/v1/reviewConfigs/missing"}} {
				res := run(t, opts{env: withURL(srv, nil)}, args...).expect(t, 5).noPanic(t)
				if c, ok := rawControl(res.stderr); ok {
					t.Errorf("dbgov %s: stderr holds a raw %q:\n%q", quoteArgs(args), c, res.stderr)
				}
			}
		})
	}
}

func TestSecurity_credentialEchoedByServiceNotRepeated(t *testing.T) {
	t.Parallel()
	// A careless service, or a proxy in front of it, quotes the credentials
	// it received in its error: dbgov must not pass them on to a CI log.
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch r.URL.Path {
		case "/v1/auth/login":
			var body struct{ Email, Password string }
			json.NewDecoder(r.Body).Decode(&body)
			respond(w, http.StatusUnauthorized, apiError(16, fmt.Sprintf("login of %s with password %s refused", body.Email, body.Password)))
		case "/v1/reviewConfigs/expired":
			respond(w, http.StatusUnauthorized, apiError(16, "token "+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+" has expired"))
		default:
			details, _ := json.Marshal([]map[string]any{{"@type": "debug", "headers": r.Header}})
			respond(w, http.StatusBadRequest, fmt.Sprintf(`{"code": 3, "message": "bad request with %s", "details": %s}`,
				r.Header.Get("X-Proxy-Auth"), details))
		}
	})
	token := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_TOKEN": leakToken}
	account := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": serviceAccount, "DBGOV_SERVICE_KEY": leakServiceKey}
	header := []string{"--header", "X-Proxy-Auth: " + leakHeader}
	noLeaks(t, []leakCase{
		{"token in a 401", token, []string{"review-configs", "get", "expired"}, 3},
		{"token in a 401 json", token, []string{"review-configs", "get", "expired", "-o", "json"}, 3},
		{"service key in a login failure", account, []string{"review-configs", "get", "x"}, 3},
		{"service key in a login failure json", account, []string{"review-configs", "get", "x", "-o", "json"}, 3},
		{"header in a 400", token, append([]string{"users", "undelete", "a@x.com"}, header...), 6},
		{"headers in details json", token, append([]string{"users", "undelete", "a@x.com", "-o", "json"}, header...), 6},
		{"headers in details api", token, append([]string{"api", "GET", "/v1/anything", "--jq", "."}, header...), 6},
	}, nil)
}

func TestSecurity_debugLogOfBadAnswersHidesSecrets(t *testing.T) {
	t.Parallel()
	// Answers that are not clean JSON still carry secret fields: the debug
	// log shows the body, so it must hide their values all the same.
	tests := []struct {
		name   string
		status int
		body   string
		code   int
	}{
		{"truncated", 200, `{"identityProviders": [{"config": {"oidcConfig": {"clientSecret": "` + secretOIDC, 1},
		{"truncated after the value", 200, `{"identityProviders": [{"config": {"ldapConfig": {"bindPassword": "` + secretBind + `", "port": `, 1},
		{"escaped key", 200, `{"identityProviders": [{"config": {"oauth2Config": {"client\u0053ecret": "` + secretClient + `"}}}]}`, 0},
		{"in an error's details", 400, `{"code": 3, "message": "bad config", "details": [{"clientSecret": "` + secretClient + `"}]}`, 6},
		{"quoted in an error's message", 500, `{"code": 13, "message": "cannot decode {\"bindPassword\": \"` + secretBind + `\"}"}`, 7},
		// Found by FuzzRedactJSON: a key with a bad escape before a secret field.
		{"bad escape before a secret field", 200, `{"\0":"clientSecret":"` + secretClient + `"}`, 1},
		{"wrong type", 200, `{"identityProviders": [{"title": 7, "config": {"oidcConfig": {"clientSecret": "` + secretOIDC + `"}}}]}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, always(tt.status, tt.body))
			for _, format := range []string{"table", "json"} {
				res := run(t, opts{env: withURL(srv, nil)}, "idps", "list", "--debug", "-o", format).expect(t, tt.code).noPanic(t)
				if !strings.Contains(res.stderr, "< ") {
					t.Fatalf("--debug logged no answer:\n%s", clip(res.stderr))
				}
				for _, s := range allSecrets {
					if strings.Contains(res.stderr, s) || strings.Contains(res.stdout, s) {
						t.Errorf("-o %s: the output shows the secret %q:\nstdout: %s\nstderr: %s", format, s, clip(res.stdout), clip(res.stderr))
					}
				}
			}
		})
	}
}

// unsafeRunes are the characters that must never reach a terminal raw:
// controls (OSC 52 writes the clipboard), C1 controls, bidirectional
// overrides and isolates, line separators and invisible characters.
const unsafeRunes = "\x1b\x07\x00\u0085\u009b\u202e\u2066\u2069\u2028\u200b\ufeff\u2060"

// unsafeJSON is unsafeRunes in a JSON string as a service may send it.
const unsafeJSON = `\u001b]52;c;ZXZpbA==\u0007 \u0000 ` + "\u0085 \u009b \u202e \u2066 \u2069 \u2028 \u200b \ufeff \u2060"

func TestSecurity_everyOutputEscapedOnATerminal(t *testing.T) {
	t.Parallel()
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch p := r.URL.Path; {
		case p == "/v1/users:batchGet":
			respond(w, 200, `{"users": [{"name": "users/a@x.com", "email": "a@x.com", "title": "Ann `+unsafeJSON+`"}]}`)
		case strings.HasSuffix(p, "/missing"):
			respond(w, 404, `{"code": 5, "message": "not found `+unsafeJSON+`"}`)
		case strings.HasPrefix(p, "/v1/reviewConfigs/"):
			respond(w, 200, `{"name": "reviewConfigs/x `+unsafeJSON+`", "title": "t"}`)
		default:
			respond(w, 404, apiError(5, "no route"))
		}
	})
	users := []string{"users", "batch-get", "a@x.com"}
	for _, args := range [][]string{
		users,
		append(users, "-o", "json"),
		append(users, "-o", "yaml"),
		append(users, "--jq", ".users[].title"),
		append(users, "--jq", ".users[]"),
		append(users, "--template", "{{range .users}}{{.title}}{{end}}"),
		{"review-configs", "get", "x", "-o", "name"},
	} {
		onTerminal := run(t, opts{env: withURL(srv, nil), tty: true}, args...).expect(t, 0).noPanic(t)
		if i := strings.IndexAny(onTerminal.stdout, unsafeRunes); i >= 0 {
			t.Errorf("dbgov %s on a terminal: stdout holds a raw %q:\n%q", quoteArgs(args), []rune(onTerminal.stdout[i:])[0], onTerminal.stdout)
		}
		if !strings.Contains(onTerminal.stdout, "\\u202e") {
			t.Errorf("dbgov %s on a terminal: the override is not shown escaped:\n%q", quoteArgs(args), onTerminal.stdout)
		}
	}
	// Piped, what was sent is printed as it was.
	piped := run(t, opts{env: withURL(srv, nil)}, append(users, "--jq", ".users[].title")...).expect(t, 0)
	if want := "Ann \x1b]52;c;ZXZpbA==\x07 \x00 \u0085 \u009b \u202e \u2066 \u2069 \u2028 \u200b \ufeff \u2060\n"; piped.stdout != want {
		t.Errorf("piped --jq: %q, want %q", piped.stdout, want)
	}
	// Error lines, text or JSON, never carry them either.
	for _, args := range [][]string{{"review-configs", "get", "missing"}, {"review-configs", "get", "missing", "-o", "json"}} {
		res := run(t, opts{env: withURL(srv, nil)}, args...).expect(t, 5).noPanic(t)
		if i := strings.IndexAny(res.stderr, unsafeRunes); i >= 0 {
			t.Errorf("dbgov %s: stderr holds a raw %q:\n%q", quoteArgs(args), []rune(res.stderr[i:])[0], res.stderr)
		}
	}
}

func TestSecurity_secretsMaskedWhateverTheNameCase(t *testing.T) {
	t.Parallel()
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		respond(w, 200, `{"identityProviders": [{"name": "idps/a", "config": {"oauth2Config": {"client_secret": "`+secretClient+`"},
 "ldapConfig": {"BIND_PASSWORD": "`+secretBind+`"}, "oidcConfig": {"ClientSecret": "`+secretOIDC+`"}}}]}`)
	})
	for _, format := range [][]string{{"-o", "json"}, {"-o", "yaml"}, {"--jq", "."}, {"--jq", ".identityProviders[]"}, {"--template", "{{.}}"}} {
		args := append([]string{"idps", "list"}, format...)
		res := run(t, opts{env: withURL(srv, nil)}, args...).expect(t, 0)
		for _, s := range []string{secretClient, secretBind, secretOIDC} {
			if strings.Contains(res.stdout, s) {
				t.Errorf("dbgov %s shows the secret %q:\n%s", quoteArgs(args), s, clip(res.stdout))
			}
		}
		if n := strings.Count(res.stdout, "********"); n != 3 {
			t.Errorf("dbgov %s: %d masks, want 3:\n%s", quoteArgs(args), n, clip(res.stdout))
		}
	}
}

func TestFault_ambiguousAnswerIsInvalid(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"users": [{"name": "users/a@x.com", "state": "ACTIVE", "State": "DELETED"}]}`,
		`{"users": [{"name": "users/a@x.com", "state": "ACTIVE", "state": "DELETED"}]}`,
	} {
		srv := newServer(t, always(200, body))
		for _, format := range [][]string{nil, {"-o", "json"}, {"-o", "yaml"}, {"-o", "name"}, {"--jq", ".users[].state"}, {"--template", "{{.}}"}} {
			args := append([]string{"users", "batch-get", "a@x.com"}, format...)
			res := run(t, opts{env: withURL(srv, nil)}, args...).expect(t, 1).noPanic(t).stderrHas(t, "invalid response: ")
			if res.stdout != "" {
				t.Errorf("dbgov %s printed %q", quoteArgs(args), res.stdout)
			}
		}
	}
}
