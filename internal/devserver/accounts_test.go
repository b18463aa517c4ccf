package devserver

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestCreateUser_answersAServiceAccountsOneTimeKeyWhichLogsIn(t *testing.T) {
	s := newDemo(t)
	r := call(t, s, http.MethodPost, "/v1/users", "", `{"email":"deployer@example.com","title":"Deployer","userType":"SERVICE_ACCOUNT"}`)
	wantStatus(t, r, http.StatusOK)
	doc := r.json(t)
	key, _ := doc["serviceKey"].(string)
	if doc["name"] != "users/deployer@example.com" || doc["state"] != "ACTIVE" || !strings.HasPrefix(key, "bbs_") || len(key) != 24 {
		t.Fatalf("created %s", r.body)
	}
	wantStatus(t, call(t, s, http.MethodPost, "/v1/auth/login", "", `{"email":"deployer@example.com","password":"`+key+`"}`), http.StatusOK)
	r = call(t, s, http.MethodGet, "/v1/users:batchGet?names=users/deployer@example.com", adminToken, "")
	if wantStatus(t, r, http.StatusOK); strings.Contains(r.body, "serviceKey") {
		t.Errorf("the key is shown again: %s", r.body)
	}
	r = call(t, s, http.MethodPost, "/v1/users", "", `{"email":"carl@example.com","title":"Carl"}`)
	if wantStatus(t, r, http.StatusOK); strings.Contains(r.body, "serviceKey") {
		t.Errorf("a user's answer: %s", r.body)
	}
}

func TestCreateUser_refusesAsTheServiceDoes(t *testing.T) {
	tests := []struct {
		release, body string
		status        int
		msg           string
	}{
		{"3.14.1", `{"title":"x"}`, 400, "email must be set"},
		{"3.14.1", `{"email":"x@example.com"}`, 400, "user title must be set"},
		{"3.14.1", `{"email":"alice@example.com","title":"x"}`, 409, "email alice@example.com exists"},
		{"3.15.0", `{"email":"bot@service.bytebase.com","title":"x","userType":"SERVICE_ACCOUNT"}`, 400, "email for end users cannot end with service.bytebase.com"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			r := call(t, newRelease(t, tt.release), http.MethodPost, "/v1/users", "", tt.body)
			wantError(t, r, tt.status, map[int]int{400: codeInvalidArgument, 409: codeAlreadyExists}[tt.status], tt.msg)
		})
	}
}

// oidcToken gets a token of the server's test issuer as GitHub Actions
// does, with the query's claims.
func oidcToken(t *testing.T, s *Server, query url.Values) string {
	t.Helper()
	r := call(t, s, http.MethodGet, OIDCTokenPath+"?api-version=2.0&"+query.Encode(), ActionsRequestToken, "")
	wantStatus(t, r, http.StatusOK)
	token, _ := r.json(t)["value"].(string)
	return token
}

func TestExchangeToken_givesAWorkloadIdentityAnAccessToken(t *testing.T) {
	c := newClock()
	s, err := New(Options{Now: c.Now, Release: "3.21.1"})
	if err != nil {
		t.Fatal(err)
	}
	r := call(t, s, http.MethodPost, "/v1/auth:exchangeToken", "", `{"token":"`+oidcToken(t, s, nil)+`","email":"deploy@workload.bytebase.com"}`)
	wantStatus(t, r, http.StatusOK)
	access, _ := r.json(t)["accessToken"].(string)
	r = call(t, s, http.MethodGet, "/v1/users/me", access, "")
	if wantStatus(t, r, http.StatusOK); !strings.Contains(r.body, `"email":"deploy@workload.bytebase.com"`) {
		t.Errorf("users/me of the exchanged token: %s", r.body)
	}
	wantStatus(t, call(t, s, http.MethodGet, "/v1/reviewConfigs/sql-review-prod", access, ""), http.StatusOK)
	c.Advance(time.Hour)
	wantError(t, call(t, s, http.MethodGet, "/v1/users/me", access, ""), 401, codeUnauthenticated, "expired")
}

func TestExchangeToken_failsAsTheServiceWordsIt(t *testing.T) {
	const deploy = "deploy@workload.bytebase.com"
	s := newRelease(t, "3.21.1")
	good := oidcToken(t, s, nil)
	other, _ := New(Options{})
	tests := []struct {
		name, release, token, email string
		status, code                int
		msg                         string
	}{
		{"no token", "", "", deploy, 400, codeInvalidArgument, "token is required"},
		{"no email", "", good, "", 400, codeInvalidArgument, "email is required"},
		{"not a workload identity's email", "", good, "alice@example.com", 400, codeInvalidArgument, `invalid workload identity email "alice@example.com": email must end with workload.bytebase.com`},
		{"unknown", "", good, "ghost@workload.bytebase.com", 404, codeNotFound, `workload identity "ghost@workload.bytebase.com" not found`},
		{"deactivated", "", good, "retired@workload.bytebase.com", 401, codeUnauthenticated, "workload identity has been deactivated"},
		{"deactivated on 3.13", "3.13.0", good, "retired@workload.bytebase.com", 403, codePermissionDenied, "workload identity has been deactivated"},
		{"issuer", "", oidcToken(t, s, url.Values{"issuer": {"https://gitlab.com"}}), deploy, 401, codeUnauthenticated,
			`token validation failed: issuer mismatch: expected "https://token.actions.githubusercontent.com", got "https://gitlab.com"`},
		{"audience", "", oidcToken(t, s, url.Values{"audience": {"sts.amazonaws.com"}}), deploy, 401, codeUnauthenticated,
			"token validation failed: audience mismatch: token has [sts.amazonaws.com], allowed [https://github.com/example-org]"},
		{"subject", "", oidcToken(t, s, url.Values{"subject": {"repo:example-org/billing:ref:refs/heads/main"}}), deploy, 401, codeUnauthenticated,
			`token validation failed: subject mismatch: expected pattern "repo:example-org/orders:*", got "repo:example-org/billing:ref:refs/heads/main"`},
		{"another issuer's signature", "", oidcToken(t, other, nil), deploy, 401, codeUnauthenticated, "token validation failed: failed to verify token signature"},
		{"not a JWT", "", "token", deploy, 401, codeUnauthenticated, "failed to verify token signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server := s
			if tt.release != "" {
				server = newRelease(t, tt.release)
			}
			r := call(t, server, http.MethodPost, "/v1/auth:exchangeToken", "", `{"token":"`+tt.token+`","email":"`+tt.email+`"}`)
			wantError(t, r, tt.status, tt.code, tt.msg)
		})
	}
	wantError(t, call(t, s, http.MethodGet, OIDCTokenPath, "nope", ""), 401, codeUnauthenticated, ActionsRequestToken)
}
