package auth_test

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/credstore"
	"github.com/dbgov/dbgov/internal/devserver"
	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestMain(m *testing.M) {
	// Every test runs on go-keyring's in-memory keyring, never the machine's,
	// which needs no bus: the address only stops dbgov looking for one.
	keyring.MockInit()
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
	os.Exit(m.Run())
}

const (
	account = "ci-bot@example.com"
	key     = "dev-ci-bot-key"
)

// service is the reference server, recording "METHOD PATH" of each request.
type service struct {
	url  string
	mu   sync.Mutex
	seen []string
}

func newService(t *testing.T, opts devserver.Options) *service {
	t.Helper()
	srv, err := devserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &service{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	s.url = hs.URL
	return s
}

// requests returns the requests since the last call.
func (s *service) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.seen
	s.seen = nil
	return out
}

// user is one person's machine: a config file and a cache directory that
// last across runs, and a fresh in-memory keyring.
type user struct {
	env map[string]string
	dir string
}

func newUser(t *testing.T, url string) *user {
	keyring.MockInit()
	dir := t.TempDir()
	return &user{dir: dir, env: map[string]string{
		"DBGOV_URL":      url,
		"DBGOV_CONFIG":   filepath.Join(dir, "config.yaml"),
		"XDG_CACHE_HOME": filepath.Join(dir, "cache"),
	}}
}

func (u *user) run(t *testing.T, stdin string, args ...string) cmdtest.Result {
	t.Helper()
	return cmdtest.Run(t, cmdtest.Options{Env: u.env, Token: "-", Stdin: stdin}, args...)
}

func (u *user) with(kv ...string) *user {
	out := &user{dir: u.dir, env: map[string]string{}}
	for k, v := range u.env {
		out.env[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.env[kv[i]] = kv[i+1]
	}
	return out
}

func keyringEntry(t *testing.T, user string) string {
	t.Helper()
	v, err := keyring.Get("dbgov", user)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		t.Fatal(err)
	}
	return v
}

func expectRequests(t *testing.T, s *service, want ...string) {
	t.Helper()
	if got := s.requests(); !slices.Equal(got, want) {
		t.Errorf("requests = %q, want %q", got, want)
	}
}

func TestLogin_tokenIsCheckedAndKeptInTheKeyring(t *testing.T) {
	s := newService(t, devserver.Options{})
	u := newUser(t, s.url)
	res := u.run(t, "dev-readonly-token\n", "auth", "login", "--token", "-").Expect(t, 0)
	expectRequests(t, s, "GET /v1/users/me")
	res.StderrHas(t, "viewer@example.com", "keyring")
	if res.Stdout != "" {
		t.Errorf("stdout %q", res.Stdout)
	}
	if got := keyringEntry(t, "profile:default"); !strings.Contains(got, `"token":"dev-readonly-token"`) || !strings.Contains(got, s.url) {
		t.Errorf("keyring holds %q", got)
	}
	if _, err := os.Stat(u.env["DBGOV_CONFIG"]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("login wrote the config file: %v", err)
	}

	u.run(t, "", "users", "batch-get", "alice@example.com", "-o", "name").Expect(t, 0).StdoutHas(t, "users/alice@example.com")
	expectRequests(t, s, "GET /v1/users:batchGet")
}

func TestLogin_serviceAccountLogsInOnceForLaterRuns(t *testing.T) {
	s := newService(t, devserver.Options{})
	u := newUser(t, s.url)
	u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-").Expect(t, 0).
		StderrHas(t, account, "SERVICE_ACCOUNT")
	expectRequests(t, s, "POST /v1/auth/login", "GET /v1/users/me")
	for range 2 {
		u.run(t, "", "users", "batch-get", "alice@example.com", "-o", "name").Expect(t, 0)
	}
	expectRequests(t, s, "GET /v1/users:batchGet", "GET /v1/users:batchGet")
	if credstore.NewTokenCache(true, "", s.url, account, key).Get() == "" {
		t.Error("no token of the service account in the keyring")
	}
	if entries, _ := os.ReadDir(filepath.Join(u.dir, "cache")); len(entries) != 0 {
		t.Errorf("with the keyring in use, tokens went to files too: %v", entries)
	}
}

func TestLogin_secretsNeverComeFromArguments(t *testing.T) {
	s := newService(t, devserver.Options{})
	const token = "dev-admin-token\n"
	tests := []struct {
		name        string
		args        []string
		stdin, want string
	}{
		{"token as an argument", []string{"--token", "dev-admin-token"}, token, "never from an argument"},
		{"key as an argument", []string{"--service-account", account, "--service-key", key}, token, "never from an argument"},
		{"nothing to log in with", nil, token, "--token -"},
		{"token and service account", []string{"--token", "-", "--service-account", account}, token, "either"},
		{"service account without its key", []string{"--service-account", account}, token, "--service-key -"},
		{"token and key", []string{"--token", "-", "--service-key", "-"}, token, "either"},
		{"an argument", []string{"--token", "-", "dev-admin-token"}, token, "no arguments"},
		{"empty standard input for the token", []string{"--token", "-"}, "", "no value for token on standard input"},
		{"empty standard input for the key", []string{"--service-account", account, "--service-key", "-"}, "", "no value for service key on standard input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUser(t, s.url)
			res := u.run(t, tt.stdin, append([]string{"auth", "login"}, tt.args...)...).Expect(t, 2).StderrHas(t, tt.want)
			if strings.Contains(res.Stderr, "dev-admin-token") || strings.Contains(res.Stderr, key) {
				t.Errorf("stderr repeats the secret: %s", res.Stderr)
			}
			expectRequests(t, s)
			if got := keyringEntry(t, "profile:default"); got != "" {
				t.Errorf("keyring holds %q", got)
			}
		})
	}
}

func TestLogin_failsClosedWithoutAKeyring(t *testing.T) {
	s := newService(t, devserver.Options{})
	u := newUser(t, s.url)
	keyring.MockInitWithError(errors.New("no D-Bus session bus"))
	t.Cleanup(keyring.MockInit)

	res := u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-").Expect(t, 1)
	res.StderrHas(t, "no keyring can be reached", "no keyring is running on this machine", "--insecure-storage")
	if strings.Contains(res.Stderr, "D-Bus") {
		t.Errorf("the D-Bus detail is shown without --debug: %s", res.Stderr)
	}
	u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-", "--debug").Expect(t, 1).
		StderrHas(t, "no keyring is running on this machine", "no D-Bus session bus")
	expectRequests(t, s)
	if _, err := os.Stat(u.env["DBGOV_CONFIG"]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the config file was written: %v", err)
	}

	u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-", "--insecure-storage").Expect(t, 0).
		StderrHas(t, "plain text", u.env["DBGOV_CONFIG"])
	expectRequests(t, s, "POST /v1/auth/login", "GET /v1/users/me")
	data, err := os.ReadFile(u.env["DBGOV_CONFIG"])
	if err != nil || !strings.Contains(string(data), "service_key: "+key) {
		t.Fatalf("config file %q (%v) does not hold the key", data, err)
	}
	if info, _ := os.Stat(u.env["DBGOV_CONFIG"]); info.Mode().Perm() != 0o600 {
		t.Errorf("config file mode %o, want 600", info.Mode().Perm())
	}
	u.run(t, "", "users", "batch-get", "alice@example.com").Expect(t, 0)
	expectRequests(t, s, "GET /v1/users:batchGet")
	if entries, _ := os.ReadDir(filepath.Join(u.dir, "cache", "dbgov")); len(entries) != 1 {
		t.Errorf("the token went to %d cache files, want one", len(entries))
	}

	res = u.run(t, "", "auth", "status", "-o", "json").Expect(t, 0)
	var st map[string]any
	if err := json.Unmarshal([]byte(res.Stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st["insecureStorage"] != true || !strings.Contains(st["storage"].(string), "plain text") || st["credentialSource"] != "profile" {
		t.Errorf("status = %v, want plain-text storage named", st)
	}
}

func TestLogin_aRefusedCredentialIsNotKept(t *testing.T) {
	s := newService(t, devserver.Options{})
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"token", "not-a-token\n", []string{"--token", "-"}},
		{"service key", "wrong-key\n", []string{"--service-account", account, "--service-key", "-"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := newUser(t, s.url)
			u.run(t, tt.stdin, append([]string{"auth", "login"}, tt.args...)...).Expect(t, 3).StderrHas(t, "HTTP 401")
			if got := keyringEntry(t, "profile:default"); got != "" {
				t.Errorf("keyring holds %q", got)
			}
		})
	}
}

func TestLogin_keepsTheCredentialForItsServiceOnly(t *testing.T) {
	s := newService(t, devserver.Options{})
	other := newService(t, devserver.Options{})
	u := newUser(t, s.url)
	u.run(t, "dev-admin-token\n", "auth", "login", "--token", "-").Expect(t, 0)
	s.requests()
	u.with("DBGOV_URL", other.url).run(t, "", "users", "batch-get", "alice@example.com").Expect(t, 3)
	expectRequests(t, other)
}

func TestStatus_namesTheSourceOfEachSetting(t *testing.T) {
	s := newService(t, devserver.Options{})
	tests := []struct {
		name      string
		login     bool
		env       []string
		args      []string
		want      map[string]any
		wantLines []string
	}{
		{
			name: "environment", env: []string{"DBGOV_TOKEN", "dev-readonly-token"},
			want: map[string]any{"urlSource": "environment", "credential": "token", "credentialSource": "environment",
				"storage": "none", "insecureStorage": false, "email": "viewer@example.com", "userType": "USER"},
			wantLines: []string{"Logged in as:  viewer@example.com (USER)", "Credential:    token (environment)", "Storage:       none"},
		},
		{
			name: "flags", args: []string{"--token", "dev-admin-token", "--url", s.url},
			want: map[string]any{"urlSource": "flag", "credentialSource": "flag", "email": "admin@example.com"},
		},
		{
			name: "keyring", login: true,
			want: map[string]any{"credential": "service account " + account, "credentialSource": "keyring",
				"storage": "keyring", "insecureStorage": false, "profile": "default"},
			wantLines: []string{"Credential:    service account ci-bot@example.com (keyring)", "Storage:       keyring", "Token expires: "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUser(t, s.url).with(tt.env...)
			if tt.login {
				u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-").Expect(t, 0)
			}
			res := u.run(t, "", append([]string{"auth", "status", "-o", "json"}, tt.args...)...).Expect(t, 0)
			var got map[string]any
			if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil {
				t.Fatalf("%v: %s", err, res.Stdout)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %v, want %v", k, got[k], v)
				}
			}
			if got["url"] != s.url {
				t.Errorf("url = %v", got["url"])
			}
			u.run(t, "", append([]string{"auth", "status"}, tt.args...)...).Expect(t, 0).StdoutHas(t, tt.wantLines...)
		})
	}
}

func TestStatus_showsTheExpiryOfTheToken(t *testing.T) {
	now := time.Now()
	s := newService(t, devserver.Options{TokenLifetime: 2 * time.Hour})
	u := newUser(t, s.url)
	u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-").Expect(t, 0)
	res := u.run(t, "", "auth", "status", "--jq", ".tokenExpires").Expect(t, 0)
	exp, err := time.Parse(time.RFC3339, strings.TrimSpace(res.Stdout))
	if err != nil || exp.Sub(now) < 2*time.Hour-time.Minute || exp.Sub(now) > 2*time.Hour+time.Minute {
		t.Errorf("tokenExpires = %q (%v), want two hours from now", res.Stdout, err)
	}
}

func TestStatus_exitCodes(t *testing.T) {
	s := newService(t, devserver.Options{})
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	tests := []struct {
		name string
		env  []string
		code int
		want string
	}{
		{"accepted", []string{"DBGOV_TOKEN", "dev-admin-token"}, 0, ""},
		{"refused", []string{"DBGOV_TOKEN", "not-a-token"}, 3, "HTTP 401"},
		{"no credential", nil, 3, "auth login"},
		{"unreachable", []string{"DBGOV_TOKEN", "dev-admin-token", "DBGOV_URL", closedURL}, 8, "refused"},
		{"no URL", []string{"DBGOV_URL", ""}, 2, "no service URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := newUser(t, s.url).with(tt.env...).run(t, "", "auth", "status").Expect(t, tt.code).StderrHas(t, tt.want)
			if tt.code == 3 || tt.code == 8 {
				res.StdoutHas(t, "URL:", "Credential:")
			}
		})
	}
}

func TestLogout_removesTheCredentialAndItsTokens(t *testing.T) {
	s := newService(t, devserver.Options{})
	u := newUser(t, s.url)
	u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-").Expect(t, 0)
	u.run(t, "", "auth", "logout").Expect(t, 0).StderrHas(t, "Logged out of profile default")
	expectRequests(t, s, "POST /v1/auth/login", "GET /v1/users/me")
	if got := keyringEntry(t, "profile:default"); got != "" {
		t.Errorf("keyring still holds %q", got)
	}
	if got := credstore.NewTokenCache(true, "", s.url, account, key).Get(); got != "" {
		t.Errorf("keyring still holds the token")
	}
	u.run(t, "", "users", "batch-get", "alice@example.com").Expect(t, 3)
}

func TestLogout_removesAPlainTextCredential(t *testing.T) {
	s := newService(t, devserver.Options{})
	u := newUser(t, s.url)
	keyring.MockInitWithError(errors.New("no keyring"))
	t.Cleanup(keyring.MockInit)
	u.run(t, key+"\n", "auth", "login", "--service-account", account, "--service-key", "-", "--insecure-storage").Expect(t, 0)
	u.run(t, "", "auth", "logout").Expect(t, 0).StderrHas(t, "cannot be reached")
	data, _ := os.ReadFile(u.env["DBGOV_CONFIG"])
	if strings.Contains(string(data), key) || strings.Contains(string(data), account) {
		t.Errorf("config file still holds the credential:\n%s", data)
	}
	if entries, _ := os.ReadDir(filepath.Join(u.dir, "cache", "dbgov")); len(entries) != 0 {
		t.Errorf("cached tokens left: %v", entries)
	}
}

func TestTokenCache_anExpiredTokenEndsAfterOneMoreLogin(t *testing.T) {
	s := newService(t, devserver.Options{TokenLifetime: time.Nanosecond})
	u := newUser(t, s.url).with("DBGOV_SERVICE_ACCOUNT", account, "DBGOV_SERVICE_KEY", key)
	u.run(t, "", "users", "batch-get", "alice@example.com").Expect(t, 3).
		StderrHas(t, "token expired", "hint: the token has expired: log in again with `dbgov auth login`")
	expectRequests(t, s, "POST /v1/auth/login", "GET /v1/users:batchGet", "POST /v1/auth/login", "GET /v1/users:batchGet")
}

func TestTokenCache_offWithTheEnvironment(t *testing.T) {
	s := newService(t, devserver.Options{})
	u := newUser(t, s.url).with("DBGOV_SERVICE_ACCOUNT", account, "DBGOV_SERVICE_KEY", key, "DBGOV_NO_TOKEN_CACHE", "1")
	for range 2 {
		u.run(t, "", "users", "batch-get", "alice@example.com").Expect(t, 0)
	}
	expectRequests(t, s, "POST /v1/auth/login", "GET /v1/users:batchGet", "POST /v1/auth/login", "GET /v1/users:batchGet")
	if entries, _ := os.ReadDir(filepath.Join(u.dir, "cache")); len(entries) != 0 {
		t.Errorf("cache files written: %v", entries)
	}
}

func TestWarnings_secretsGivenAsArguments(t *testing.T) {
	s := newService(t, devserver.Options{})
	tests := []struct {
		name string
		tty  bool
		args []string
		want int // warning lines
	}{
		{"--token on a terminal", true, []string{"users", "batch-get", "alice@example.com", "--token", "dev-admin-token"}, 1},
		{"--service-key on a terminal", true, []string{"users", "batch-get", "alice@example.com", "--service-account", account, "--service-key", key}, 1},
		{"--token piped", false, []string{"users", "batch-get", "alice@example.com", "--token", "dev-admin-token"}, 0},
		{"the environment", true, []string{"users", "batch-get", "alice@example.com"}, 0},
		{"config set token on a terminal", true, []string{"config", "set", "token", "dev-admin-token"}, 1},
		{"config set token piped", false, []string{"config", "set", "token", "dev-admin-token"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUser(t, s.url)
			res := cmdtest.Run(t, cmdtest.Options{Env: u.env, Token: "dev-readonly-token", TTY: tt.tty}, tt.args...).Expect(t, 0)
			var warnings []string
			for _, l := range strings.Split(res.Stderr, "\n") {
				if strings.HasPrefix(l, "warning:") {
					warnings = append(warnings, l)
				}
			}
			if len(warnings) != tt.want {
				t.Fatalf("warnings = %q, want %d", warnings, tt.want)
			}
			for _, w := range warnings {
				if !strings.Contains(w, "dbgov auth login") || !strings.Contains(w, "environment") {
					t.Errorf("the warning does not point to auth login and the environment: %s", w)
				}
				if strings.Contains(w, "dev-admin-token") || strings.Contains(w, key) {
					t.Errorf("the warning repeats the secret: %s", w)
				}
			}
		})
	}
}

func TestStatus_showsTheReleaseAndATypeTheServiceNoLongerSays(t *testing.T) {
	const sa = "deploy@shop.service.bytebase.com"
	reg := httpmock.New(t)
	reg.Register("POST", "/v1/auth/login", 200, `{"token":"sa-token"}`)
	reg.Register("GET", "/v1/users/me", 200, `{"name":"users/`+sa+`","email":"`+sa+`","workspace":"workspaces/w1"}`)
	reg.Register("GET", "/v1/actuator/info", 200, `{"version":"3.21.1","workspace":"workspaces/w1"}`).Times(1)
	u := newUser(t, reg.URL()).with("DBGOV_SERVER_VERSION", "")
	u.run(t, "bbs_key\n", "auth", "login", "--service-account", sa, "--service-key", "-").Expect(t, 0).
		StderrHas(t, "as "+sa+" (SERVICE_ACCOUNT)")
	res := u.run(t, "", "auth", "status", "-o", "json").Expect(t, 0)
	var got map[string]any
	if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil || got["server"] != "3.21.1" || got["userType"] != "SERVICE_ACCOUNT" {
		t.Errorf("status %v (%v), want server 3.21.1 and userType SERVICE_ACCOUNT", got, err)
	}
	u.run(t, "", "auth", "status").Expect(t, 0).StdoutHas(t, "Service:       3.21.1\n", "Logged in as:  "+sa+" (SERVICE_ACCOUNT)")
}

func TestLogin_onATerminalWithoutAFlagAsksForTheToken(t *testing.T) {
	s := newService(t, devserver.Options{})
	u := newUser(t, s.url)
	res := cmdtest.Run(t, cmdtest.Options{Env: u.env, Token: "-", Stdin: "dev-admin-token\n", InTTY: true}, "auth", "login").Expect(t, 0)
	res.StderrHas(t, "Logged in to "+s.url)
	expectRequests(t, s, "GET /v1/users/me")
	if !strings.Contains(keyringEntry(t, "profile:default"), "dev-admin-token") {
		t.Error("the token asked for was not kept")
	}
	// Piped, a flag still says what stdin holds.
	u.run(t, "dev-admin-token\n", "auth", "login").Expect(t, 2).StderrHas(t, "give either --token -")
}

func TestLogout_warnsOfCredentialsLeftInTheEnvironment(t *testing.T) {
	u := newUser(t, "http://127.0.0.1:1")
	tests := []struct{ env, value string }{{"DBGOV_TOKEN", "tok"}, {"DBGOV_SERVICE_KEY", "key"}}
	for _, tt := range tests {
		res := u.with(tt.env, tt.value).run(t, "", "auth", "logout").Expect(t, 0)
		res.StderrHas(t, "warning: "+tt.env+" is set in the environment: commands still authenticate with it")
	}
	if res := u.run(t, "", "auth", "logout").Expect(t, 0); strings.Contains(res.Stderr, "warning") {
		t.Errorf("a warning with nothing in the environment: %s", res.Stderr)
	}
}
