package configcmd_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// session runs config commands against one config file, as a user would
// in one shell.
type session struct {
	t    *testing.T
	path string
	env  map[string]string
}

func newSession(t *testing.T) *session {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dbgov", "config.yaml")
	return &session{t: t, path: path, env: map[string]string{"DBGOV_CONFIG": path}}
}

func (s *session) run(stdin string, args ...string) cmdtest.Result {
	s.t.Helper()
	return cmdtest.Run(s.t, cmdtest.Options{Env: s.env, Stdin: stdin, Token: "-"}, args...)
}

// ok runs args, expects success and silence on stderr, and returns stdout.
func (s *session) ok(stdin string, args ...string) string {
	s.t.Helper()
	res := s.run(stdin, args...).Expect(s.t, 0)
	if res.Stderr != "" {
		s.t.Errorf("%s: stderr %q", strings.Join(args, " "), res.Stderr)
	}
	return res.Stdout
}

func (s *session) file() string {
	s.t.Helper()
	b, err := os.ReadFile(s.path)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

func TestConfig_setGetUnsetRoundTrip(t *testing.T) {
	s := newSession(t)
	tests := []struct {
		key, value, want string
	}{
		{"url", "https://gov.example.com", "https://gov.example.com\n"},
		{"service_account", "ci@service.example.com", "ci@service.example.com\n"},
		{"output", "json", "json\n"},
		{"timeout", "2m", "2m\n"},
		{"insecure_skip_tls_verify", "TRUE", "true\n"},
		{"headers", "X-Proxy-Auth:  abc", "X-Proxy-Auth: ********\n"},
		{"token", "tok-123", "********\n"},
	}
	for _, tt := range tests {
		if out := s.ok("", "config", "set", tt.key, tt.value); out != "" {
			t.Errorf("set %s printed %q", tt.key, out)
		}
		if got := s.ok("", "config", "get", tt.key); got != tt.want {
			t.Errorf("get %s = %q, want %q", tt.key, got, tt.want)
		}
	}
	for _, tt := range tests {
		s.ok("", "config", "unset", tt.key)
		res := s.run("", "config", "get", tt.key).Expect(t, 1)
		if res.Stdout != "" || !strings.Contains(res.Stderr, tt.key+" is not set in profile default of "+s.path) {
			t.Errorf("get %s after unset: stdout %q, stderr %q", tt.key, res.Stdout, res.Stderr)
		}
	}
	// Unsetting what is not set does nothing.
	s.ok("", "config", "unset", "url")
}

func TestConfig_caCertIsStoredAbsolute(t *testing.T) {
	s := newSession(t)
	s.ok("", "config", "set", "ca_cert", "ca.pem")
	got := strings.TrimSpace(s.ok("", "config", "get", "ca_cert"))
	if !filepath.IsAbs(got) || filepath.Base(got) != "ca.pem" {
		t.Errorf("ca_cert %q, want an absolute path to ca.pem", got)
	}
}

func TestConfig_secretsAreMaskedUnlessAsked(t *testing.T) {
	s := newSession(t)
	s.ok("", "config", "set", "url", "https://gov.example.com")
	s.ok("", "config", "set", "token", "tok:with-colon")
	s.ok("", "config", "set", "service_key", "key-456")
	s.ok("", "config", "set", "headers", "X-Proxy-Auth: abc")
	s.ok("", "config", "--profile", "staging", "set", "url", "https://staging.example.com")
	s.ok("", "config", "--profile", "staging", "set", "token", "tok-staging")

	view := s.ok("", "config", "view")
	cmdtest.Golden(t, "view_masked", view)
	for _, secret := range []string{"tok", "key-456", "abc", "tok-staging"} {
		if strings.Contains(view, ": "+secret) || strings.Contains(view, secret+"\n") {
			t.Errorf("view shows secret %q:\n%s", secret, view)
		}
	}
	cmdtest.Golden(t, "view_show_secrets", s.ok("", "config", "view", "--show-secrets"))

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"config", "get", "token"}, "********\n"},
		{[]string{"config", "get", "service_key"}, "********\n"},
		{[]string{"config", "get", "headers"}, "X-Proxy-Auth: ********\n"},
		{[]string{"config", "get", "url"}, "https://gov.example.com\n"},
		{[]string{"config", "get", "token", "--show-secrets"}, "tok:with-colon\n"},
		{[]string{"config", "get", "service_key", "--show-secrets"}, "key-456\n"},
		{[]string{"config", "get", "headers", "--show-secrets"}, "X-Proxy-Auth: abc\n"},
		{[]string{"--profile", "staging", "config", "get", "token", "--show-secrets"}, "tok-staging\n"},
	}
	for _, tt := range tests {
		if got := s.ok("", tt.args...); got != tt.want {
			t.Errorf("%s = %q, want %q", strings.Join(tt.args, " "), got, tt.want)
		}
	}
}

func TestConfig_setFromStandardInput(t *testing.T) {
	tests := []struct {
		name  string
		key   string
		stdin string
		want  string
	}{
		{"token without newline", "token", "tok-123", "tok-123"},
		{"token with newline", "token", "tok-123\n", "tok-123"},
		{"token with CRLF", "token", "tok-123\r\n", "tok-123"},
		{"first line only", "service_key", "key-1\nkey-2\n", "key-1"},
		{"any key", "url", "https://gov.example.com\n", "https://gov.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			s.ok(tt.stdin, "config", "set", tt.key, "-")
			if got := s.ok("", "config", "get", tt.key, "--show-secrets"); got != tt.want+"\n" {
				t.Errorf("get %s = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
}

func TestConfig_setFromEmptyStandardInputIsRefused(t *testing.T) {
	for _, stdin := range []string{"", "\n", "  \n", "\nsecond-line\n"} {
		s := newSession(t)
		s.run(stdin, "config", "set", "token", "-").Expect(t, 2).StderrHas(t, "no value for token on standard input")
		if _, err := os.Stat(s.path); !os.IsNotExist(err) {
			t.Errorf("stdin %q: the file was written (%v)", stdin, err)
		}
	}
}

func TestConfig_fileIsPrivate(t *testing.T) {
	s := newSession(t)
	s.ok("tok-123\n", "config", "set", "token", "-")
	st, err := os.Stat(s.path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("config file mode %o, want 600", perm)
	}
	dir, err := os.Stat(filepath.Dir(s.path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := dir.Mode().Perm(); perm != 0o700 {
		t.Errorf("config directory mode %o, want 700", perm)
	}
	if !strings.Contains(s.file(), "token: tok-123") {
		t.Errorf("file:\n%s", s.file())
	}
}

func TestConfig_useProfile(t *testing.T) {
	s := newSession(t)
	s.ok("", "config", "set", "url", "https://gov.example.com")
	s.ok("", "config", "--profile", "staging", "set", "url", "https://staging.example.com")
	if got := s.ok("", "config", "get", "url"); got != "https://gov.example.com\n" {
		t.Errorf("default profile url %q", got)
	}

	s.ok("", "config", "use-profile", "staging")
	if !strings.HasPrefix(s.file(), "current_profile: staging\n") {
		t.Errorf("file:\n%s", s.file())
	}
	if got := s.ok("", "config", "get", "url"); got != "https://staging.example.com\n" {
		t.Errorf("url after use-profile staging = %q", got)
	}
	// set and unset follow the current profile too.
	s.ok("", "config", "set", "timeout", "5s")
	s.run("", "config", "--profile", "default", "get", "timeout").Expect(t, 1).StderrHas(t, "timeout is not set in profile default")
	// The flag and the environment override the current profile.
	if got := s.ok("", "config", "--profile", "default", "get", "url"); got != "https://gov.example.com\n" {
		t.Errorf("--profile default: url %q", got)
	}
	s.env["DBGOV_PROFILE"] = "default"
	if got := s.ok("", "config", "get", "url"); got != "https://gov.example.com\n" {
		t.Errorf("DBGOV_PROFILE=default: url %q", got)
	}
	delete(s.env, "DBGOV_PROFILE")

	cmdtest.Golden(t, "view_profiles", s.ok("", "config", "view"))

	s.ok("", "config", "use-profile", "default")
	if got := s.ok("", "config", "get", "url"); got != "https://gov.example.com\n" {
		t.Errorf("url after use-profile default = %q", got)
	}
}

func TestConfig_useProfileWarnings(t *testing.T) {
	s := newSession(t)
	s.run("", "config", "use-profile", "prod").Expect(t, 2).StderrHas(t, "profile prod is not in config file "+s.path, "config list-profiles", "--create")
	s.run("", "config", "use-profile", "--create", "prod").Expect(t, 0).StderrHas(t, "warning: profile prod has no settings yet")
	s.env["DBGOV_PROFILE"] = "staging"
	s.ok("", "config", "set", "url", "https://staging.example.com")
	s.run("", "config", "use-profile", "staging").Expect(t, 0)
	s.run("", "config", "use-profile", "prod").Expect(t, 0).StderrHas(t, "warning: DBGOV_PROFILE=staging is set and overrides the current profile")
}

func TestConfig_usage(t *testing.T) {
	keys := "the keys are url, token, service_account, service_key, workload_identity, headers, output, timeout, insecure_skip_tls_verify, ca_cert, max_response_size"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"get unknown key", []string{"config", "get", "password"}, keys},
		{"set unknown key", []string{"config", "set", "password", "x"}, keys},
		{"unset unknown key", []string{"config", "unset", "password"}, keys},
		{"bad url", []string{"config", "set", "url", "gov.example.com"}, "http:// or https://"},
		{"bad timeout", []string{"config", "set", "timeout", "soon"}, "not a duration"},
		{"bad output", []string{"config", "set", "output", "xml"}, "table, json, yaml, name"},
		{"bad bool", []string{"config", "set", "insecure_skip_tls_verify", "perhaps"}, "not true or false"},
		{"bad header", []string{"config", "set", "headers", "no colon"}, "Name: value"},
		{"empty value", []string{"config", "set", "url", ""}, "empty value"},
		{"bad profile name", []string{"config", "use-profile", "my profile"}, "may not contain whitespace"},
		{"empty profile name", []string{"config", "use-profile", ""}, "profile name is empty"},
		{"get without key", []string{"config", "get"}, "takes a KEY"},
		{"set without value", []string{"config", "set", "url"}, "takes a KEY and a VALUE"},
		{"unset without key", []string{"config", "unset"}, "takes a KEY"},
		{"view with an argument", []string{"config", "view", "x"}, "takes no arguments"},
		{"use-profile without name", []string{"config", "use-profile"}, "takes a profile NAME"},
		{"unknown verb", []string{"config", "edit"}, `unknown command "edit" for "dbgov config"`},
		{"misspelt verb", []string{"config", "sett", "url", "x"}, "did you mean one of [\"get\" \"set\"]?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			s.run("", tt.args...).Expect(t, 2).StderrHas(t, tt.want)
			if _, err := os.Stat(s.path); !os.IsNotExist(err) {
				t.Errorf("the file was written (%v)", err)
			}
		})
	}
}

func TestConfig_badValueIsNeverRepeated(t *testing.T) {
	s := newSession(t)
	res := s.run("s3cr3t\x01x\n", "config", "set", "token", "-").Expect(t, 2)
	if strings.Contains(res.Stderr, "s3cr3t") {
		t.Errorf("stderr repeats the secret: %q", res.Stderr)
	}
}

func TestConfig_sendsNothingAndNeedsNoURL(t *testing.T) {
	reg := httpmock.New(t)
	s := newSession(t)
	s.env["DBGOV_URL"] = reg.URL()
	for _, args := range [][]string{
		{"config", "set", "token", "tok-123"},
		{"config", "get", "token"},
		{"config", "view"},
		{"config", "unset", "token"},
		{"config", "use-profile", "default"},
	} {
		s.run("", args...).Expect(t, 0)
	}
	if n := len(reg.Requests()); n != 0 {
		t.Errorf("config commands sent %d requests", n)
	}
	delete(s.env, "DBGOV_URL")
	s.ok("", "config", "set", "url", "https://gov.example.com")
}

func TestConfig_repairsABadSetting(t *testing.T) {
	s := newSession(t)
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		t.Fatal(err)
	}
	bad := "# written by hand\nprofiles:\n  default:\n    url: gov.example.com # no scheme\n    timeout: soon\n    token: tok-123\n"
	if err := os.WriteFile(s.path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	// Other commands refuse the file...
	cmdtest.Run(t, cmdtest.Options{Env: s.env, Token: "-"}, "review-configs", "get", "x").Expect(t, 2).
		StderrHas(t, `url from profile "default" of config file `+s.path)
	// ...the config commands still read and fix it.
	if got := s.ok("", "config", "get", "timeout"); got != "soon\n" {
		t.Errorf("timeout %q", got)
	}
	s.ok("", "config", "set", "url", "https://gov.example.com")
	s.ok("", "config", "unset", "timeout")
	want := "# written by hand\nprofiles:\n  default:\n    url: https://gov.example.com # no scheme\n    token: tok-123\n"
	if got := s.file(); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestConfig_viewOfMissingFile(t *testing.T) {
	s := newSession(t)
	if got := s.ok("", "config", "view"); got != "{}\n" {
		t.Errorf("view %q, want {}", got)
	}
	s.run("", "config", "get", "url").Expect(t, 1).StderrHas(t, "url is not set in profile default")
}

func TestConfig_terminalConfirmsOnStderr(t *testing.T) {
	s := newSession(t)
	res := cmdtest.Run(t, cmdtest.Options{Env: s.env, TTY: true, Token: "-"}, "config", "set", "token", "tok-123").Expect(t, 0)
	if res.Stdout != "" {
		t.Errorf("stdout %q", res.Stdout)
	}
	res.StderrHas(t, "Set token in profile default of "+s.path, "config set token -")
	if strings.Contains(res.Stderr, "tok-123") {
		t.Errorf("stderr shows the token: %q", res.Stderr)
	}
	res = cmdtest.Run(t, cmdtest.Options{Env: s.env, TTY: true, Token: "-"}, "config", "unset", "token").Expect(t, 0)
	res.StderrHas(t, "Unset token in profile default of "+s.path)
}

func TestConfig_viewAsJSON(t *testing.T) {
	s := newSession(t)
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		t.Fatal(err)
	}
	// A bad timeout must not stop the file from being shown in any format.
	content := "current_profile: prod\nprofiles:\n  prod:\n    url: https://gov.example.com\n    token: tok-123\n    timeout: soon\n"
	if err := os.WriteFile(s.path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"current_profile\": \"prod\",\n  \"profiles\": {\n    \"prod\": {\n      \"url\": \"https://gov.example.com\",\n      \"token\": \"********\",\n      \"timeout\": \"soon\"\n    }\n  }\n}\n"
	if got := s.ok("", "config", "view", "-o", "json"); got != want {
		t.Errorf("view -o json:\n%s\nwant:\n%s", got, want)
	}
	if got := s.ok("", "config", "view", "--jq", ".profiles.prod.url"); got != "https://gov.example.com\n" {
		t.Errorf("view --jq %q", got)
	}
	if got := s.ok("", "config", "view", "--show-secrets", "--jq", ".profiles.prod.token"); got != "tok-123\n" {
		t.Errorf("view --show-secrets --jq %q", got)
	}
}

func TestConfig_urlPasswordIsMasked(t *testing.T) {
	s := newSession(t)
	s.ok("", "config", "set", "url", "https://ci:pw-secret@gov.example.com")
	for _, args := range [][]string{{"config", "view"}, {"config", "get", "url"}, {"config", "view", "-o", "json"}} {
		if got := s.ok("", args...); strings.Contains(got, "pw-secret") || !strings.Contains(got, "ci:********@gov.example.com") {
			t.Errorf("%v shows %q", args, got)
		}
	}
	if got := s.ok("", "config", "get", "url", "--show-secrets"); got != "https://ci:pw-secret@gov.example.com\n" {
		t.Errorf("get url --show-secrets %q", got)
	}
}

func TestConfig_listAndDeleteProfiles(t *testing.T) {
	s := newSession(t)
	s.ok("", "config", "set", "url", "https://gov.example.com")
	s.ok("", "config", "--profile", "staging", "set", "url", "https://staging.example.com")
	s.ok("", "config", "--profile", "ci", "set", "timeout", "5s")
	s.ok("", "config", "use-profile", "staging")
	if got := s.ok("", "config", "list-profiles"); got != "  default\n* staging\n  ci\n" {
		t.Errorf("list-profiles:\n%s", got)
	}
	if got := s.ok("", "config", "--profile", "ci", "list-profiles"); got != "  default\n  staging\n* ci\n" {
		t.Errorf("list-profiles --profile ci:\n%s", got)
	}
	if got := s.ok("", "config", "list-profiles", "-o", "name"); got != "default\nstaging\nci\n" {
		t.Errorf("list-profiles -o name:\n%s", got)
	}
	want := "{\n  \"profiles\": [\n    {\n      \"name\": \"default\"\n    },\n    {\n      \"name\": \"staging\",\n      \"current\": true\n    },\n    {\n      \"name\": \"ci\"\n    }\n  ]\n}\n"
	if got := s.ok("", "config", "list-profiles", "-o", "json"); got != want {
		t.Errorf("list-profiles -o json:\n%s", got)
	}
	s.ok("", "config", "delete-profile", "staging")
	if strings.Contains(s.file(), "staging") {
		t.Errorf("file after delete-profile staging:\n%s", s.file())
	}
	if got := s.ok("", "config", "get", "url"); got != "https://gov.example.com\n" {
		t.Errorf("url after deleting the current profile: %q", got)
	}
	s.run("", "config", "delete-profile", "staging").Expect(t, 1).StderrHas(t, "profile staging is not in config file "+s.path)
	s.run("", "config", "delete-profile").Expect(t, 2).StderrHas(t, "takes a profile NAME")
}

func TestConfig_headersAreAddedAndRemovedOneByOne(t *testing.T) {
	s := newSession(t)
	s.ok("", "config", "set", "headers", "X-Proxy-Auth: abc")
	s.ok("", "config", "set", "headers", "X-Team: db")
	s.ok("", "config", "set", "headers", "x-team: data")
	if got := s.ok("", "config", "get", "headers", "--show-secrets"); got != "X-Proxy-Auth: abc\nx-team: data\n" {
		t.Errorf("headers after three sets: %q", got)
	}
	s.ok("", "config", "unset", "headers", "X-PROXY-AUTH")
	if got := s.ok("", "config", "get", "headers", "--show-secrets"); got != "x-team: data\n" {
		t.Errorf("headers after unset X-PROXY-AUTH: %q", got)
	}
	s.run("", "config", "unset", "url", "X-Team").Expect(t, 2).StderrHas(t, "NAMEs for headers only")
	s.ok("", "config", "unset", "headers")
	s.run("", "config", "get", "headers").Expect(t, 1)
}

func TestConfig_setChecksAsEverySourceIs(t *testing.T) {
	tests := []struct {
		key, value, want string
	}{
		{"token", "tok with space", "token: it contains a space"},
		{"token", "tök", "not ASCII"},
		{"url", "http://127.0.0.1:65536", "port 65536 is out of range"},
		{"url", "https://gov.example.com/?a=b", "may not hold a query"},
		{"max_response_size", "lots", "not a size such as 256MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			s := newSession(t)
			res := s.run("", "config", "set", tt.key, tt.value).Expect(t, 2).StderrHas(t, tt.want)
			if tt.key == "token" && strings.Contains(res.Stderr, tt.value) {
				t.Errorf("stderr repeats the token: %q", res.Stderr)
			}
		})
	}
	s := newSession(t)
	for _, size := range []string{"256MiB", "10MB", "1048576"} {
		s.ok("", "config", "set", "max_response_size", size)
		if got := s.ok("", "config", "get", "max_response_size"); got != size+"\n" {
			t.Errorf("max_response_size %q", got)
		}
	}
}

func TestConfig_environmentOverridingTheProfileIsNotedOnATerminal(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/x", 200, `{}`)
	s := newSession(t)
	s.ok("", "config", "set", "url", "https://gov.example.com")
	s.ok("", "config", "set", "token", "tok-file")
	env := map[string]string{"DBGOV_CONFIG": s.path, "DBGOV_URL": reg.URL()}
	res := cmdtest.Run(t, cmdtest.Options{Env: env, TTY: true, Token: "tok-env"}, "api", "GET", "/v1/x").Expect(t, 0)
	want := "note: DBGOV_URL overrides the url of profile default in " + s.path + "\n" +
		"note: DBGOV_TOKEN overrides the token of profile default in " + s.path + "\n"
	if res.Stderr != want {
		t.Errorf("stderr on a terminal:\n%s\nwant:\n%s", res.Stderr, want)
	}
	res = cmdtest.Run(t, cmdtest.Options{Env: env, Token: "tok-env"}, "api", "GET", "/v1/x").Expect(t, 0)
	if res.Stderr != "" {
		t.Errorf("stderr when piped: %q", res.Stderr)
	}
	// Nor when the values are the same, nor by config commands, which
	// show the file as it is.
	res = cmdtest.Run(t, cmdtest.Options{Env: map[string]string{"DBGOV_CONFIG": s.path, "DBGOV_URL": "https://gov.example.com"},
		TTY: true, Token: "tok-file"}, "api", "GET", "/v1/x", "--dry-run")
	for _, args := range [][]string{{"config", "get", "timeout"}, {"config", "set", "timeout", "soon"}, {"config", "view"}} {
		if r := cmdtest.Run(t, cmdtest.Options{Env: env, TTY: true, Token: "tok-env"}, args...); strings.Contains(r.Stderr, "note:") {
			t.Errorf("%v: %q", args, r.Stderr)
		}
	}
	if strings.Contains(res.Stderr, "note:") {
		t.Errorf("a note for the same values: %q", res.Stderr)
	}
}

func TestConfig_helpListsEveryKey(t *testing.T) {
	help := newSession(t).ok("", "config", "--help")
	for _, key := range config.Keys() {
		if !strings.Contains(help, key) {
			t.Errorf("config --help does not list %s", key)
		}
	}
}
