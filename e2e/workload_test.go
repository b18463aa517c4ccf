package e2e_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/devserver"
)

const (
	deployIdentity = "deploy@workload.bytebase.com"
	exchangeLine   = "POST /v1/auth:exchangeToken 200"
)

// workloadCLI is a cli for srv without a token, its token cache under its
// directory.
func workloadCLI(t *testing.T, srv *server) *cli {
	t.Helper()
	c := newCLI(t, srv).without("DBGOV_TOKEN")
	return c.with("XDG_CACHE_HOME", filepath.Join(c.dir, "cache"))
}

// actionsEnv is what GitHub Actions gives a job allowed OIDC tokens,
// pointing at srv's test issuer.
func actionsEnv(srv *server) []string {
	return []string{"ACTIONS_ID_TOKEN_REQUEST_URL", srv.url + devserver.OIDCTokenPath + "?api-version=2.0",
		"ACTIONS_ID_TOKEN_REQUEST_TOKEN", devserver.ActionsRequestToken}
}

// mintOIDC returns an OIDC token of srv's test issuer for subject.
func mintOIDC(t *testing.T, srv *server, subject string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.url+devserver.OIDCTokenPath+"?subject="+url.QueryEscape(subject), nil)
	req.Header.Set("Authorization", "Bearer "+devserver.ActionsRequestToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct{ Value string }
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || answer.Value == "" {
		t.Fatalf("the test issuer gave no token (HTTP %s): %v", resp.Status, err)
	}
	return answer.Value
}

func TestWorkloadIdentity_exchangesTheOIDCTokenOfEachSource(t *testing.T) {
	srv, _ := start(t)
	token := mintOIDC(t, srv, "repo:example-org/orders:ref:refs/heads/main")
	identity := []string{"--workload-identity", deployIdentity}
	tests := []struct {
		name   string
		env    []string
		args   []string
		issuer int // requests to the test issuer
	}{
		{name: "DBGOV_OIDC_TOKEN", env: []string{"DBGOV_OIDC_TOKEN", token}, args: identity},
		{name: "--oidc-token-file", args: append([]string{"--oidc-token-file", "oidc.jwt"}, identity...)},
		{name: "DBGOV_OIDC_TOKEN_FILE, which wins over DBGOV_OIDC_TOKEN", env: []string{"DBGOV_OIDC_TOKEN_FILE", "oidc.jwt", "DBGOV_OIDC_TOKEN", "not-a-token"}, args: identity},
		{name: "GitHub Actions", env: actionsEnv(srv), args: identity, issuer: 1},
		{name: "GitHub Actions with --oidc-audience", env: actionsEnv(srv), args: append([]string{"--oidc-audience", devserver.OIDCAudience}, identity...), issuer: 1},
		{name: "DBGOV_WORKLOAD_IDENTITY", env: append(actionsEnv(srv), "DBGOV_WORKLOAD_IDENTITY", deployIdentity), issuer: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := workloadCLI(t, srv).with(tt.env...)
			c.file(t, "oidc.jwt", token+"\n")
			var r result
			reqs := srv.sent(t, func() {
				r = c.run(t, append([]string{"users", "batch-get", "alice@example.com", "-o", "name"}, tt.args...)...).expect(t, 0)
			})
			r.stdoutIs(t, "users/alice@example.com\n")
			if n := count(reqs, exchangeLine); n != 1 {
				t.Errorf("%d exchanges, want one: %q", n, reqs)
			}
			if n := count(reqs, "GET "+devserver.OIDCTokenPath+" 200"); n != tt.issuer {
				t.Errorf("%d OIDC tokens asked of GitHub Actions, want %d: %q", n, tt.issuer, reqs)
			}
		})
	}
}

func TestWorkloadIdentity_aFleetRunExchangesOnce(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--generate-databases", "30")
	c := workloadCLI(t, srv).with(actionsEnv(srv)...)
	list := c.file(t, "dbs.txt", fleetList([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}))
	reqs := srv.sent(t, func() {
		c.run(t, "policies", "list", "--databases-from", list, "--concurrency", "8", "-o", "json", "--workload-identity", deployIdentity).expect(t, 0)
	})
	if n := count(reqs, exchangeLine); n != 1 {
		t.Errorf("%d exchanges for 20 databases, want one: %q", n, reqs)
	}
}

func TestWorkloadIdentity_exchangedTokenIsCachedUnderItsOIDCToken(t *testing.T) {
	srv, _ := start(t)
	c := workloadCLI(t, srv).with("DBGOV_WORKLOAD_IDENTITY", deployIdentity)
	jobA := mintOIDC(t, srv, "repo:example-org/orders:job-a")
	jobB := mintOIDC(t, srv, "repo:example-org/orders:job-b")
	for i, step := range []struct {
		oidc      string
		exchanges int
	}{{jobA, 1}, {jobA, 0}, {jobB, 1}, {jobA, 0}} {
		reqs := srv.sent(t, func() {
			c.with("DBGOV_OIDC_TOKEN", step.oidc).run(t, "users", "batch-get", "alice@example.com", "-o", "name").expect(t, 0)
		})
		if n := count(reqs, exchangeLine); n != step.exchanges {
			t.Errorf("run %d: %d exchanges, want %d: a token is found only with the OIDC token it came from", i+1, n, step.exchanges)
		}
	}
	for _, oidc := range []string{jobA, jobB} {
		if files := filesHolding(t, filepath.Join(c.dir, "cache"), oidc); len(files) > 0 {
			t.Errorf("the cache holds an OIDC token: %s", files)
		}
	}
}

func TestWorkloadIdentity_failuresAndTheirExitCodes(t *testing.T) {
	srv, _ := start(t)
	token := mintOIDC(t, srv, "repo:example-org/orders:ref:refs/heads/main")
	empty := filepath.Join(t.TempDir(), "empty.jwt")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		identity string
		env      []string
		args     []string
		code     int
		parts    []string
		hint     string
		sent     bool
	}{
		{name: "no OIDC token", identity: deployIdentity, code: 2,
			parts: []string{"no OIDC token for workload identity " + deployIdentity, "--oidc-token-file", "DBGOV_OIDC_TOKEN", "id-token: write"}},
		{name: "unreadable token file", identity: deployIdentity, args: []string{"--oidc-token-file", "missing.jwt"}, code: 2,
			parts: []string{"missing.jwt"}},
		{name: "empty token file", identity: deployIdentity, args: []string{"--oidc-token-file", empty}, code: 2,
			parts: []string{"read the OIDC token: " + empty + " is empty"}},
		{name: "blank DBGOV_OIDC_TOKEN", identity: deployIdentity, env: []string{"DBGOV_OIDC_TOKEN", " \n"}, code: 2,
			parts: []string{"the OIDC token of DBGOV_OIDC_TOKEN is empty"}},
		{name: "unknown identity", identity: "nobody@workload.bytebase.com", env: []string{"DBGOV_OIDC_TOKEN", token}, code: 5, sent: true,
			parts: []string{`workload identity "nobody@workload.bytebase.com" not found`}},
		{name: "deactivated identity", identity: "retired@workload.bytebase.com", env: []string{"DBGOV_OIDC_TOKEN", token}, code: 3, sent: true,
			parts: []string{"workload identity has been deactivated"}, hint: "hint: the identity may be deactivated"},
		{name: "audience mismatch", identity: deployIdentity, env: actionsEnv(srv), args: []string{"--oidc-audience", "https://elsewhere.example.com"}, code: 3, sent: true,
			parts: []string{"audience mismatch"}},
		{name: "GitHub Actions refuses", identity: deployIdentity, env: []string{"ACTIONS_ID_TOKEN_REQUEST_URL", srv.url + devserver.OIDCTokenPath + "?api-version=2.0",
			"ACTIONS_ID_TOKEN_REQUEST_TOKEN", "not-the-jobs"}, code: 3, parts: []string{"GitHub Actions refused an OIDC token (HTTP 401"},
			hint: "hint: ACTIONS_ID_TOKEN_REQUEST_TOKEN must be the job's own"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := workloadCLI(t, srv).with(tt.env...)
			var r result
			reqs := srv.sent(t, func() {
				r = c.run(t, append([]string{"users", "batch-get", "alice@example.com", "--workload-identity", tt.identity}, tt.args...)...).expect(t, tt.code)
			})
			r.stderrIsErrorLine(t, tt.parts...)
			r.stderrHas(t, tt.hint)
			r.check(t, "stderr", r.stderr, false, []string{token, "eyJ", "not-the-jobs"})
			if got := count(reqs, "GET /v1/users:batchGet 200"); got != 0 {
				t.Errorf("the command was sent after a failed exchange: %q", reqs)
			}
			if exchanged := len(reqs) > 0 && strings.HasPrefix(reqs[len(reqs)-1], "POST /v1/auth:exchangeToken "); exchanged != tt.sent {
				t.Errorf("exchange sent: %t, want %t: %q", exchanged, tt.sent, reqs)
			}
		})
	}
}

func TestWorkloadIdentity_debugShowsNeitherToken(t *testing.T) {
	srv, _ := start(t)
	token := mintOIDC(t, srv, "repo:example-org/orders:ref:refs/heads/main")
	for name, c := range map[string]*cli{
		"DBGOV_OIDC_TOKEN": workloadCLI(t, srv).with("DBGOV_OIDC_TOKEN", token),
		"GitHub Actions":   workloadCLI(t, srv).with(actionsEnv(srv)...),
	} {
		t.Run(name, func(t *testing.T) {
			r := c.run(t, "users", "batch-get", "alice@example.com", "-o", "name", "--debug", "--workload-identity", deployIdentity).expect(t, 0)
			r.stderrHas(t, "POST "+srv.url+"/v1/auth:exchangeToken", `"accessToken":"********"`, "Authorization: ********")
			// Both tokens are JWTs, whose JSON header encodes as eyJ.
			r.check(t, "stderr", r.stderr, false, []string{token, "eyJ", devserver.ActionsRequestToken})
		})
	}
}

func TestWorkloadIdentity_authLoginChecksAndStatusShowsIt(t *testing.T) {
	srv, _ := start(t)
	c := workloadCLI(t, srv).with(actionsEnv(srv)...)
	var r result
	reqs := srv.sent(t, func() {
		r = c.run(t, "auth", "login", "--workload-identity", deployIdentity).expect(t, 0)
	})
	r.stdoutEmpty(t)
	r.stderrHas(t, "Logged in to "+srv.url+" as "+deployIdentity+" (WORKLOAD_IDENTITY)", "nothing is kept")
	if count(reqs, exchangeLine) != 1 || count(reqs, "GET /v1/users/me 200") != 1 {
		t.Errorf("auth login sent %q, want an exchange and users/me", reqs)
	}
	st := c.with("DBGOV_WORKLOAD_IDENTITY", deployIdentity).run(t, "auth", "status", "-o", "json").expect(t, 0).jsonOut(t)
	for key, want := range map[string]string{"email": deployIdentity, "userType": "WORKLOAD_IDENTITY",
		"credential": "workload identity " + deployIdentity, "credentialSource": "environment"} {
		if st[key] != want {
			t.Errorf("auth status %s = %v, want %s", key, st[key], want)
		}
	}
	c.run(t, "auth", "login", "--workload-identity", "retired@workload.bytebase.com").expect(t, 3).
		stderrIsErrorLine(t, "workload identity has been deactivated")
}
