package devserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestNew_demoData(t *testing.T) {
	s := newDemo(t)
	if got := s.AdminToken(); got != "dev-admin-token" {
		t.Errorf("AdminToken() = %q, want dev-admin-token", got)
	}
	tokens := s.Tokens()
	if len(tokens) != 2 || tokens[1].Token != readonlyToken || tokens[0].User != "users/admin@example.com" {
		t.Fatalf("Tokens() = %+v", tokens)
	}
	if got := tokens[1].Permissions; !slices.Equal(got, []string{PermissionUsersGet, PermissionPoliciesList, PermissionReviewConfigGet, PermissionDatabasesGet}) {
		t.Errorf("read-only permissions = %v", got)
	}
	tokens[0].Permissions[0] = "changed"
	if s.Tokens()[0].Permissions[0] == "changed" {
		t.Error("Tokens() hands out the server's own slice")
	}
	accounts := s.ServiceAccounts()
	if len(accounts) != 1 || accounts[0].Email != "ci-bot@example.com" || accounts[0].Key != "dev-ci-bot-key" {
		t.Errorf("ServiceAccounts() = %+v", accounts)
	}
	if !json.Valid(demoSeed) {
		t.Error("the demo seed is not JSON")
	}
}

func TestNew_demoUsersCoverEveryKind(t *testing.T) {
	s := newDemo(t)
	kinds := map[string]bool{}
	tempSecrets := false
	for _, u := range s.st.users {
		kinds[string(u.UserType)+"/"+string(u.State)] = true
		if u.TempOtpSecret != "" && len(u.TempRecoveryCodes) > 0 {
			tempSecrets = true
		}
	}
	for _, k := range []string{"USER/ACTIVE", "USER/DELETED", "SYSTEM_BOT/ACTIVE", "SERVICE_ACCOUNT/ACTIVE", "WORKLOAD_IDENTITY/ACTIVE"} {
		if !kinds[k] {
			t.Errorf("no demo user is %s", k)
		}
	}
	if !tempSecrets {
		t.Error("no demo user has tempOtpSecret and tempRecoveryCodes")
	}
}

const goodSeed = `{
  "tokens": [{"token": "t-all", "user": "users/root@x.com", "permissions": ["svc.databaseCatalogs.get", "svc.databaseCatalogs.update", "svc.revisions.create", "svc.reviewConfigs.get", "svc.users.get", "svc.users.undelete", "svc.policies.list", "svc.databases.get"]},
             {"token": "t-none", "user": "users/nobody@x.com"}],
  "serviceAccounts": [{"email": "bot@x.com", "key": "k", "permissions": ["svc.users.get"]}],
  "instances": [{"id": "i1", "databases": [{"id": "d1",
     "catalog": {"schemas": [{"name": "s"}]},
     "changelogs": [{"id": "c1", "schema": "CREATE TABLE a (x int);"}, {"id": "c2", "schema": "CREATE TABLE b (x int);"}],
     "revisions": [{"name": "instances/i1/databases/d1/revisions/7", "version": "1", "type": "VERSIONED", "sheet": "projects/p/sheets/1"}],
     "policies": [{"type": "TAG", "tagPolicy": {"tags": {"a": "b"}}}, {"type": "TAG", "name": "instances/i1/databases/d1/policies/old", "deleted": true}]}]}],
  "policies": [{"name": "environments/prod/policies/rollout", "type": "ROLLOUT_POLICY"}, {"name": "policies/tag", "type": "TAG", "deleted": true}],
  "sheets": [{"name": "projects/p/sheets/1", "statement": "SELECT 1;"}],
  "reviewConfigs": [{"name": "reviewConfigs/r1", "title": "R"}],
  "users": [{"email": "root@x.com", "userType": "USER", "state": "ACTIVE"}, {"name": "users/gone@x.com", "state": "DELETED"}],
  "identityProviders": [{"name": "idps/x", "type": "OIDC"}]
}`

func TestNew_loadsASeed(t *testing.T) {
	s, err := New(Options{Seed: strings.NewReader(goodSeed), Now: newClock().Now})
	if err != nil {
		t.Fatal(err)
	}
	if s.AdminToken() != "t-all" {
		t.Errorf("AdminToken() = %q, want t-all", s.AdminToken())
	}
	// The demo data is gone.
	wantError(t, call(t, s, http.MethodGet, "/v1/reviewConfigs/r1", adminToken, ""), 401, codeUnauthenticated)
	wantError(t, call(t, s, http.MethodGet, "/v1/reviewConfigs/sql-review-prod", "t-all", ""), 404, codeNotFound)
	wantStatus(t, call(t, s, http.MethodGet, "/v1/reviewConfigs/r1", "t-all", ""), 200)
	wantError(t, call(t, s, http.MethodGet, "/v1/reviewConfigs/r1", "t-none", ""), 403, codePermissionDenied, "svc.reviewConfigs.get")

	// Names and emails of users complete each other.
	r := call(t, s, http.MethodGet, "/v1/users:batchGet?names=users/root@x.com&names=users/gone@x.com", "t-all", "")
	want := `{"users":[{"name":"users/root@x.com","state":"ACTIVE","email":"root@x.com","userType":"USER"},{"name":"users/gone@x.com","state":"DELETED","email":"gone@x.com"}]}` + "\n"
	if r.body != want {
		t.Errorf("users = %s, want %s", r.body, want)
	}
	// A policy without a name is named after its type; deleted ones hide.
	r = call(t, s, http.MethodGet, "/v1/instances/i1/databases/d1/policies", "t-all", "")
	if got := policyNames(t, r); !slices.Equal(got, []string{"instances/i1/databases/d1/policies/tag"}) {
		t.Errorf("policies = %v", got)
	}
	// Policies of environments, projects and the workspace are listed under their parent.
	for path, want := range map[string][]string{
		"/v1/environments/prod/policies":    {"environments/prod/policies/rollout"},
		"/v1/policies?showDeleted=true":     {"policies/tag"},
		"/v1/policies":                      nil,
		"/v1/projects/prod/policies":        nil,
		"/v1/environments/staging/policies": nil,
	} {
		if got := policyNames(t, call(t, s, http.MethodGet, path, "t-all", "")); !slices.Equal(got, want) {
			t.Errorf("GET %s: policies = %v, want %v", path, got, want)
		}
	}
	// Revisions go on from the highest seeded number; seeded statements come from sheets.
	s.mu.Lock()
	db := s.st.instances["i1"].databases["d1"]
	seeded := db.revisions[0]
	catalogName := db.catalog.Name
	s.mu.Unlock()
	if seeded.Statement != "SELECT 1;" || seeded.StatementSize != "9" || len(seeded.SheetSha256) != 64 {
		t.Errorf("seeded revision = %+v", seeded)
	}
	if catalogName != "instances/i1/databases/d1/catalog" {
		t.Errorf("catalog name = %q", catalogName)
	}
	r = call(t, s, http.MethodPost, "/v1/instances/i1/databases/d1/revisions:batchCreate", "t-all",
		`{"requests":[{"parent":"instances/i1/databases/d1","revision":{"type":"VERSIONED","version":"2","sheet":"projects/p/sheets/s"}}]}`)
	if !strings.Contains(r.body, `"name":"instances/i1/databases/d1/revisions/8"`) {
		t.Errorf("created revision = %s", r.body)
	}
	r = call(t, s, http.MethodPost, "/v1/instances/i1/databases/d1/changelogs/c1:diffSchema", "t-all",
		`{"name":"instances/i1/databases/d1/changelogs/c1","changelog":"instances/i1/databases/d1/changelogs/c2"}`)
	if r.body != `{"diff":"DROP TABLE IF EXISTS \"public\".\"a\";\nCREATE TABLE b (x int);\n\n"}`+"\n" {
		t.Errorf("diff = %s", r.body)
	}
	r = call(t, s, http.MethodPost, "/v1/auth/login", "", `{"email":"bot@x.com","password":"k"}`)
	wantStatus(t, r, 200)
}

func TestNew_refusesABadSeedNamingTheProblem(t *testing.T) {
	tests := []struct{ name, seed, msg string }{
		{"malformed", `{"tokens": [`, "unexpected EOF"},
		{"trailing data", `{} x`, "after top-level value"},
		{"not an object", `[]`, "JSON array into Go devserver.seedDoc"},
		{"unknown field", `{"token": []}`, `unknown object member name "token"`},
		{"unknown nested field", `{"instances": [{"id": "i", "databases": [{"id": "d", "catalogs": {}}]}]}`, `unknown object member name "catalogs" within "/instances/0/databases/0"`},
		{"unknown field in a policy", `{"instances": [{"id": "i", "databases": [{"id": "d", "policies": [{"type": "TAG", "tags": {}}]}]}]}`, `unknown object member name "tags" within "/instances/0/databases/0/policies/0"`},
		{"wrong type", `{"users": [{"email": "a@x.com", "mfaEnabled": "yes"}]}`, `JSON string into Go bool within "/users/0/mfaEnabled"`},
		{"integer out of range", `{"reviewConfigs": [{"name": "reviewConfigs/a", "rules": [{"numberPayload": {"number": 99999999999}}]}]}`, `"/reviewConfigs/0/rules/0/numberPayload/number": value out of range`},
		{"fractional integer", `{"reviewConfigs": [{"name": "reviewConfigs/a", "rules": [{"numberPayload": {"number": 1.5}}]}]}`, `"/reviewConfigs/0/rules/0/numberPayload/number"`},
		{"unknown enum value", `{"users": [{"email": "a@x.com", "state": "GONE"}]}`, `"/users/0/state": unknown enum value "GONE"`},
		{"unknown permission", `{"tokens": [{"token": "t", "user": "u", "permissions": ["svc.users.delete"]}]}`, `tokens[0]: unknown permission "svc.users.delete"`},
		{"revision of another database", `{"instances": [{"id": "i", "databases": [{"id": "d", "revisions": [{"name": "instances/i/databases/e/revisions/1", "version": "1"}]}]}]}`, "revisions[0]: name"},
		{"user without name", `{"users": [{"title": "x"}]}`, "users[0]: name and email are both empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Options{Seed: strings.NewReader(tt.seed)})
			if err == nil {
				t.Fatal("New accepted the seed")
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
		})
	}
}

func TestNew_emptySeedServesNothing(t *testing.T) {
	s, err := New(Options{Seed: bytes.NewReader(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if s.AdminToken() != "" || len(s.Tokens()) != 0 {
		t.Errorf("an empty seed has tokens: %+v", s.Tokens())
	}
	r := call(t, s, http.MethodGet, "/v1/idps", "", "")
	if r.body != "{}\n" {
		t.Errorf("idps of an empty seed = %q, want {}", r.body)
	}
}
