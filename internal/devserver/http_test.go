package devserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRouting_unknownRoutesAnswerNotFoundWithCodeUnknown(t *testing.T) {
	s := newDemo(t)
	for _, target := range []string{
		"/",
		"/v2/idps",
		"/v1/nothing",
		"/v1/idps/",
		"/v1/reviewConfigs/",
		"/v1/reviewConfigs/a/b",
		"/v1/users:batchGetAll",
		"/v1/users/a@example.com:delete",
		"/v1/users/a@example.com",
		"/v1/instances/prod-pg/databases/orders/catalog:get",
		"/v1/instances/prod-pg/databases//policies",
	} {
		t.Run(target, func(t *testing.T) {
			wantError(t, call(t, s, http.MethodGet, target, adminToken, ""), http.StatusNotFound, codeUnknown, "Not Found")
		})
	}
}

func TestRouting_wrongMethodAnswers405WithCodeUnknown(t *testing.T) {
	s := newDemo(t)
	tests := []struct {
		method, target, allow string
	}{
		{http.MethodPost, "/v1/idps", "GET"},
		{http.MethodGet, "/v1/auth/login", "POST"},
		{http.MethodDelete, "/v1/users:batchGet", "GET"},
		{http.MethodGet, "/v1/users/bob@example.com:undelete", "POST"},
		{http.MethodPut, "/v1/instances/prod-pg/databases/orders/catalog", "GET, PATCH"},
		{http.MethodGet, "/v1/instances/prod-pg/databases/orders/revisions:batchCreate", "POST"},
		{http.MethodPost, "/v1/instances/prod-pg/databases/orders/policies", "GET"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			r := call(t, s, tt.method, tt.target, adminToken, "")
			wantError(t, r, http.StatusMethodNotAllowed, codeUnknown, "Method Not Allowed")
			if got := r.header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
}

func TestRouting_idsAreUnescaped(t *testing.T) {
	s := newDemo(t)
	r := call(t, s, http.MethodPost, "/v1/users/bob%40example.com:undelete", adminToken, `{"name":"users/bob@example.com"}`)
	wantStatus(t, r, http.StatusOK)
	r = call(t, s, http.MethodGet, "/v1/reviewConfigs/sql%2Dreview%2Dprod", adminToken, "")
	wantStatus(t, r, http.StatusOK)
	// An escaped colon belongs to the id: no custom method is read from it.
	r = call(t, s, http.MethodPost, "/v1/users/bob%40example.com%3Aundelete", adminToken, `{}`)
	wantError(t, r, http.StatusNotFound, codeUnknown)
}

func TestQuery_malformedEscapeIsRefused(t *testing.T) {
	r := call(t, newDemo(t), http.MethodGet, "/v1/instances/prod-pg/databases/orders/policies?policyType=%zz", adminToken, "")
	wantError(t, r, http.StatusBadRequest, codeInvalidArgument, `malformed query parameter "policyType=%zz"`)
}

func TestErrors_statusFollowsTheCode(t *testing.T) {
	tests := []struct{ code, status int }{
		{codeInvalidArgument, 400}, {codeFailedPrecondition, 400}, {11, 400},
		{codeUnauthenticated, 401}, {codePermissionDenied, 403}, {codeNotFound, 404},
		{codeAlreadyExists, 409}, {10, 409}, {8, 429}, {codeInternal, 500}, {codeUnknown, 500},
		{15, 500}, {12, 501}, {14, 503}, {4, 504},
	}
	for _, tt := range tests {
		if got := httpStatusOf(tt.code); got != tt.status {
			t.Errorf("httpStatusOf(%d) = %d, want %d", tt.code, got, tt.status)
		}
	}
}

func TestAuth_credentialsAreChecked(t *testing.T) {
	tests := []struct {
		name, header string
		status, code int
		msg          string
	}{
		{"no header", "", 401, codeUnauthenticated, "missing credentials"},
		{"not bearer", "Basic YWRtaW46YWRtaW4=", 401, codeUnauthenticated, "missing credentials"},
		{"empty bearer", "Bearer ", 401, codeUnauthenticated, "missing credentials"},
		{"unknown token", "Bearer nope", 401, codeUnauthenticated, "invalid token"},
		{"scheme in any case", "bearer " + adminToken, 200, 0, ""},
		{"admin", "Bearer " + adminToken, 200, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newDemo(t)
			req := httptest.NewRequest(http.MethodGet, "/v1/reviewConfigs/sql-review-prod", nil)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			r := response{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
			if tt.status == 200 {
				wantStatus(t, r, 200)
				return
			}
			wantError(t, r, tt.status, tt.code, tt.msg)
		})
	}
}

func TestAuth_missingPermissionIsNamed(t *testing.T) {
	tests := []struct {
		method, target, body, permission string
	}{
		{http.MethodPost, "/v1/users/bob@example.com:undelete", `{"name":"users/bob@example.com"}`, "svc.users.undelete"},
		{http.MethodPatch, "/v1/instances/prod-pg/databases/orders/catalog", `{}`, "svc.databaseCatalogs.update"},
		{http.MethodGet, "/v1/instances/prod-pg/databases/orders/catalog", "", "svc.databaseCatalogs.get"},
		{http.MethodPost, "/v1/instances/prod-pg/databases/orders/revisions:batchCreate", `{}`, "svc.revisions.create"},
	}
	s := newDemo(t)
	for _, tt := range tests {
		t.Run(tt.permission, func(t *testing.T) {
			r := call(t, s, tt.method, tt.target, readonlyToken, tt.body)
			wantError(t, r, http.StatusForbidden, codePermissionDenied, `"`+tt.permission+`"`, "users/viewer@example.com")
		})
	}
}

func TestAuth_readOnlyTokenMayRead(t *testing.T) {
	s := newDemo(t)
	for _, target := range []string{
		"/v1/users:batchGet?names=users/alice@example.com",
		"/v1/reviewConfigs/sql-review-prod",
		"/v1/instances/prod-pg/databases/orders/policies",
	} {
		wantStatus(t, call(t, s, http.MethodGet, target, readonlyToken, ""), http.StatusOK)
	}
	r := call(t, s, http.MethodPost, "/v1/instances/prod-pg/databases/orders/changelogs/101:diffSchema", readonlyToken,
		`{"name":"instances/prod-pg/databases/orders/changelogs/101","changelog":"instances/prod-pg/databases/orders/changelogs/102"}`)
	wantStatus(t, r, http.StatusOK)
}

func TestAuth_identityProvidersNeedNoCredentials(t *testing.T) {
	s := newDemo(t)
	wantStatus(t, call(t, s, http.MethodGet, "/v1/idps", "", ""), http.StatusOK)
	// A bad token does not matter on an open route.
	wantStatus(t, call(t, s, http.MethodGet, "/v1/idps", "garbage", ""), http.StatusOK)
}

func TestLogin_issuesATokenThatExpiresAfterAnHour(t *testing.T) {
	c := newClock()
	s, err := New(Options{Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	r := call(t, s, http.MethodPost, "/v1/auth/login", "", `{"email":"ci-bot@example.com","password":"dev-ci-bot-key"}`)
	wantStatus(t, r, http.StatusOK)
	var got struct{ Token string }
	r.decode(t, &got)
	if got.Token == "" {
		t.Fatalf("login answered no token: %s", r.body)
	}
	policies := "/v1/instances/prod-pg/databases/orders/policies"
	wantStatus(t, call(t, s, http.MethodGet, policies, got.Token, ""), http.StatusOK)
	// The service account may not undelete users.
	r = call(t, s, http.MethodPost, "/v1/users/bob@example.com:undelete", got.Token, `{"name":"users/bob@example.com"}`)
	wantError(t, r, http.StatusForbidden, codePermissionDenied, "svc.users.undelete", "users/ci-bot@example.com")

	c.Advance(59 * time.Minute)
	wantStatus(t, call(t, s, http.MethodGet, policies, got.Token, ""), http.StatusOK)
	c.Advance(time.Minute)
	wantError(t, call(t, s, http.MethodGet, policies, got.Token, ""), http.StatusUnauthorized, codeUnauthenticated, "expired")

	// A fresh login works again, and each login gives its own token.
	r = call(t, s, http.MethodPost, "/v1/auth/login", "", `{"email":"ci-bot@example.com","password":"dev-ci-bot-key"}`)
	var again struct{ Token string }
	r.decode(t, &again)
	if again.Token == "" || again.Token == got.Token {
		t.Fatalf("second login gave token %q after %q", again.Token, got.Token)
	}
	wantStatus(t, call(t, s, http.MethodGet, policies, again.Token, ""), http.StatusOK)
}

func TestLogin_refusesBadRequests(t *testing.T) {
	tests := []struct {
		name, body   string
		status, code int
		msg          string
	}{
		{"wrong key", `{"email":"ci-bot@example.com","password":"guess"}`, 401, codeUnauthenticated, "invalid email or password"},
		{"unknown account", `{"email":"nobody@example.com","password":"dev-ci-bot-key"}`, 401, codeUnauthenticated, "invalid email or password"},
		{"a user is not a service account", `{"email":"admin@example.com","password":"dev-admin-token"}`, 401, codeUnauthenticated, "invalid email or password"},
		{"no email", `{"password":"dev-ci-bot-key"}`, 400, codeInvalidArgument, "email is required"},
		{"no password", `{"email":"ci-bot@example.com"}`, 400, codeInvalidArgument, "password is required"},
		{"unknown field", `{"email":"ci-bot@example.com","password":"dev-ci-bot-key","otp":"1"}`, 400, codeInvalidArgument, `unknown object member name "otp"`},
		{"malformed", `{"email":`, 400, codeInvalidArgument, "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, call(t, newDemo(t), http.MethodPost, "/v1/auth/login", "", tt.body), tt.status, tt.code, tt.msg)
		})
	}
}

func TestLog_oneLinePerRequest(t *testing.T) {
	var buf bytes.Buffer
	s, err := New(Options{Log: &buf})
	if err != nil {
		t.Fatal(err)
	}
	call(t, s, http.MethodGet, "/v1/idps", "", "")
	call(t, s, http.MethodGet, "/v1/users:batchGet?names=users/x", "", "")
	call(t, s, http.MethodPost, "/v1/users/bob%40example.com:undelete", adminToken, `{"name":"users/bob@example.com"}`)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []string{
		"GET /v1/idps 200 ",
		"GET /v1/users:batchGet 401 ",
		"POST /v1/users/bob%40example.com:undelete 200 ",
	}
	if len(lines) != len(want) {
		t.Fatalf("log has %d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("log line %d = %q, want it to start with %q", i, lines[i], w)
		}
	}
	if strings.Contains(buf.String(), adminToken) {
		t.Errorf("the log shows a token:\n%s", buf.String())
	}
}

func TestRecover_panicAnswersInternal(t *testing.T) {
	s := newDemo(t)
	h := s.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/idps", nil))
	wantError(t, response{status: rec.Code, header: rec.Header(), body: rec.Body.String()}, 500, codeInternal, "boom")
}

func TestFormatTime_usesProtobufPrecision(t *testing.T) {
	base := time.Date(2025, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))
	tests := []struct {
		ns   int
		want string
	}{
		{0, "2025-01-02T02:04:05Z"},
		{120_000_000, "2025-01-02T02:04:05.120Z"},
		{120_500_000, "2025-01-02T02:04:05.120500Z"},
		{1, "2025-01-02T02:04:05.000000001Z"},
	}
	for _, tt := range tests {
		if got := formatTime(base.Add(time.Duration(tt.ns))); got != tt.want {
			t.Errorf("formatTime(+%dns) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}
