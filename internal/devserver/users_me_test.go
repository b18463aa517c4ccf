package devserver

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestLogin_tokenIsAJWTWhoseExpClaimIsItsLifetime(t *testing.T) {
	for _, lifetime := range []time.Duration{0, 2 * time.Second, 8 * time.Hour} {
		t.Run(lifetime.String(), func(t *testing.T) {
			c := newClock()
			s, err := New(Options{Now: c.Now, TokenLifetime: lifetime})
			if err != nil {
				t.Fatal(err)
			}
			r := call(t, s, http.MethodPost, "/v1/auth/login", "", `{"email":"ci-bot@example.com","password":"dev-ci-bot-key"}`)
			var got struct{ Token string }
			r.decode(t, &got)
			parts := strings.Split(got.Token, ".")
			if len(parts) != 3 {
				t.Fatalf("token %q is not header.payload.signature", got.Token)
			}
			payload, err := base64.RawURLEncoding.DecodeString(parts[1])
			var claims struct {
				Exp int64  `json:"exp"`
				Sub string `json:"sub"`
			}
			if err != nil || json.Unmarshal(payload, &claims) != nil {
				t.Fatalf("payload %q is not base64url JSON: %v", parts[1], err)
			}
			want := lifetime
			if want == 0 {
				want = TokenLifetime
			}
			if exp := c.Now().Add(want).Unix(); claims.Exp != exp || claims.Sub != "users/ci-bot@example.com" {
				t.Errorf("claims = %+v, want exp %d and the account", claims, exp)
			}
			me := "/v1/users/me"
			c.Advance(want - time.Second)
			wantStatus(t, call(t, s, http.MethodGet, me, got.Token, ""), http.StatusOK)
			c.Advance(time.Second)
			wantError(t, call(t, s, http.MethodGet, me, got.Token, ""), http.StatusUnauthorized, codeUnauthenticated, "token expired at")
		})
	}
}

func TestUsersMe_answersTheUserOfTheToken(t *testing.T) {
	s := newDemo(t)
	tests := []struct {
		token, email, userType string
	}{
		{adminToken, "admin@example.com", "USER"},
		{"dev-readonly-token", "viewer@example.com", "USER"},
	}
	for _, tt := range tests {
		doc := call(t, s, http.MethodGet, "/v1/users/me", tt.token, "").json(t)
		if doc["email"] != tt.email || doc["userType"] != tt.userType || doc["name"] != "users/"+tt.email {
			t.Errorf("users/me for %s = %v", tt.token, doc)
		}
	}
	wantError(t, call(t, s, http.MethodGet, "/v1/users/me", "", ""), http.StatusUnauthorized, codeUnauthenticated)
	wantError(t, call(t, s, http.MethodGet, "/v1/users/me", "nope", ""), http.StatusUnauthorized, codeUnauthenticated, "invalid token")

	r := call(t, s, http.MethodPost, "/v1/auth/login", "", `{"email":"ci-bot@example.com","password":"dev-ci-bot-key"}`)
	var login struct{ Token string }
	r.decode(t, &login)
	if doc := call(t, s, http.MethodGet, "/v1/users/me", login.Token, "").json(t); doc["userType"] != "SERVICE_ACCOUNT" {
		t.Errorf("users/me for the service account = %v", doc)
	}
}

func TestUsersMe_aUserTheSeedDoesNotListIsNamedByItsToken(t *testing.T) {
	s, err := New(Options{Seed: strings.NewReader(`{"tokens": [{"token": "t1", "user": "users/ghost@x.com"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if doc := call(t, s, http.MethodGet, "/v1/users/me", "t1", "").json(t); doc["email"] != "ghost@x.com" || doc["name"] != "users/ghost@x.com" {
		t.Errorf("users/me = %v", doc)
	}
}
