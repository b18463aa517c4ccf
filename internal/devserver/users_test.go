package devserver

import (
	"cmp"
	"net/http"
	"slices"
	"testing"

	"github.com/dbgov/dbgov/client"
)

func TestBatchGetUsers_returnsUsersInTheOrderAsked(t *testing.T) {
	s := newDemo(t)
	r := call(t, s, http.MethodGet,
		"/v1/users:batchGet?names=users/deploy@workload.example.com&names=users%2Fbob%40example.com&names=users/admin@example.com&names=users/bob@example.com",
		adminToken, "")
	wantStatus(t, r, http.StatusOK)
	var got client.BatchGetUsersResponse
	r.decode(t, &got)
	var names []string
	for _, u := range got.Users {
		names = append(names, u.Name)
	}
	want := []string{"users/deploy@workload.example.com", "users/bob@example.com", "users/admin@example.com", "users/bob@example.com"}
	if !slices.Equal(names, want) {
		t.Fatalf("users = %v, want %v", names, want)
	}
	if got.Users[1].State != client.UserStateDeleted {
		t.Errorf("a deleted user is returned with state %q, want DELETED", got.Users[1].State)
	}
	w := got.Users[0].WorkloadIdentityConfig
	if w == nil || w.ProviderType != "GITHUB" || got.Users[0].UserType != client.UserTypeWorkloadIdentity {
		t.Errorf("workload identity user lost its config: %+v", got.Users[0])
	}
}

func TestBatchGetUsers_omitsZeroValues(t *testing.T) {
	r := call(t, newDemo(t), http.MethodGet, "/v1/users:batchGet?names=users/erin@example.com", adminToken, "")
	wantStatus(t, r, http.StatusOK)
	want := `{"users":[{"name":"users/erin@example.com","state":"DELETED","email":"erin@example.com","title":"Erin Example","userType":"USER"}]}` + "\n"
	if r.body != want {
		t.Errorf("body = %s, want %s", r.body, want)
	}
}

func TestBatchGetUsers_refusesBadSelections(t *testing.T) {
	tests := []struct {
		name, query  string
		status, code int
		msg          string
	}{
		{"no names", "", 400, codeInvalidArgument, "names is required"},
		{"other parameter only", "?name=users/admin@example.com", 400, codeInvalidArgument, "names is required"},
		{"one missing user fails the call", "?names=users/admin@example.com&names=users/ghost@example.com", 404, codeNotFound, `"users/ghost@example.com"`},
		{"comma-joined value is one name", "?names=users/admin@example.com,users/alice@example.com", 404, codeNotFound, `"users/admin@example.com,users/alice@example.com"`},
		{"name without prefix", "?names=admin@example.com", 400, codeInvalidArgument, `"admin@example.com"`},
		{"empty id", "?names=users/", 400, codeInvalidArgument, `"users/"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, call(t, newDemo(t), http.MethodGet, "/v1/users:batchGet"+tt.query, adminToken, ""), tt.status, tt.code, tt.msg)
		})
	}
}

func TestUndelete_restoresADeletedUser(t *testing.T) {
	s := newDemo(t)
	r := call(t, s, http.MethodPost, "/v1/users/bob@example.com:undelete", adminToken, `{"name": "users/bob@example.com"}`)
	wantStatus(t, r, http.StatusOK)
	var u client.User
	r.decode(t, &u)
	if u.Name != "users/bob@example.com" || u.State != client.UserStateActive || u.Title != "Bob Builder" {
		t.Fatalf("undelete returned %+v", u)
	}
	r = call(t, s, http.MethodGet, "/v1/users:batchGet?names=users/bob@example.com", adminToken, "")
	var got client.BatchGetUsersResponse
	r.decode(t, &got)
	if got.Users[0].State != client.UserStateActive {
		t.Errorf("after undelete the user is %s", got.Users[0].State)
	}
	// A second undelete finds the user active.
	r = call(t, s, http.MethodPost, "/v1/users/bob@example.com:undelete", adminToken, `{"name": "users/bob@example.com"}`)
	wantError(t, r, http.StatusBadRequest, codeInvalidArgument, `user "bob@example.com" is already active`)
}

func TestUndelete_refusesBadRequests(t *testing.T) {
	tests := []struct {
		name, user, body string
		status, code     int
		msg              string
	}{
		{"active user", "alice@example.com", `{"name":"users/alice@example.com"}`, 400, codeInvalidArgument, `user "alice@example.com" is already active`},
		{"unknown user", "ghost@example.com", `{"name":"users/ghost@example.com"}`, 404, codeNotFound, `user "ghost@example.com" not found`},
		{"name of another user", "bob@example.com", `{"name":"users/erin@example.com"}`, 400, codeInvalidArgument, `"users/erin@example.com"`},
		{"name without prefix", "bob@example.com", `{"name":"bob@example.com"}`, 400, codeInvalidArgument, "does not match"},
		{"no name", "bob@example.com", `{}`, 400, codeInvalidArgument, "name is required"},
		{"empty body", "bob@example.com", ``, 400, codeInvalidArgument, "name is required"},
		{"unknown field", "bob@example.com", `{"name":"users/bob@example.com","force":true}`, 400, codeInvalidArgument, `unknown object member name "force"`},
		{"wrong type", "bob@example.com", `{"name":42}`, 400, codeInvalidArgument, `JSON number into Go string within "/name"`},
		{"field names are case-sensitive", "bob@example.com", `{"Name":"users/bob@example.com"}`, 400, codeInvalidArgument, `unknown object member name "Name"`},
		{"malformed", "bob@example.com", `{"name":"users/bob@example.com"`, 400, codeInvalidArgument, "unexpected EOF"},
		{"trailing data", "bob@example.com", `{"name":"users/bob@example.com"} {}`, 400, codeInvalidArgument, "after top-level value"},
		{"not an object", "bob@example.com", `["users/bob@example.com"]`, 400, codeInvalidArgument, "JSON array into Go client.UndeleteUserRequest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, newDemo(t), http.MethodPost, "/v1/users/"+tt.user+":undelete", adminToken, tt.body)
			wantError(t, r, tt.status, tt.code, tt.msg)
		})
	}
}

func TestReviewConfig_returnsEveryPayloadKind(t *testing.T) {
	r := call(t, newDemo(t), http.MethodGet, "/v1/reviewConfigs/sql-review-prod", readonlyToken, "")
	wantStatus(t, r, http.StatusOK)
	var rc client.ReviewConfig
	r.decode(t, &rc)
	if rc.Name != "reviewConfigs/sql-review-prod" || !rc.Enabled || rc.Title == "" || len(rc.Resources) == 0 {
		t.Fatalf("review config = %+v", rc)
	}
	var naming, number, list, comment, str, namingCase, levels, engines int
	seenLevel, seenEngine := map[client.RuleLevel]bool{}, map[client.Engine]bool{}
	for _, rule := range rc.Rules {
		seenLevel[rule.Level], seenEngine[rule.Engine] = true, true
		switch {
		case rule.NamingPayload != nil:
			naming++
		case rule.NumberPayload != nil:
			number++
		case rule.StringArrayPayload != nil:
			list++
		case rule.CommentConventionPayload != nil:
			comment++
		case rule.StringPayload != nil:
			str++
		case rule.NamingCasePayload != nil:
			namingCase++
		}
	}
	levels, engines = len(seenLevel), len(seenEngine)
	if naming == 0 || number == 0 || list == 0 || comment == 0 || str == 0 || namingCase == 0 || levels < 2 || engines < 3 {
		t.Errorf("rules lack variety: %+v", rc.Rules)
	}
	// A disabled config omits "enabled", as protobuf JSON does.
	r = call(t, newDemo(t), http.MethodGet, "/v1/reviewConfigs/sql-review-dev", readonlyToken, "")
	if doc := r.json(t); doc["enabled"] != nil {
		t.Errorf("disabled config shows enabled: %s", r.body)
	}
}

func TestReviewConfig_unknownIsNotFound(t *testing.T) {
	r := call(t, newDemo(t), http.MethodGet, "/v1/reviewConfigs/nope", adminToken, "")
	wantError(t, r, http.StatusNotFound, codeNotFound, `review config "reviewConfigs/nope" not found`)
}

func TestIdentityProviders_listsEveryTypeWithSecrets(t *testing.T) {
	r := call(t, newDemo(t), http.MethodGet, "/v1/idps", "", "")
	wantStatus(t, r, http.StatusOK)
	var got struct {
		IdentityProviders []struct {
			Type   string
			Config map[string]map[string]any
		}
	}
	r.decode(t, &got)
	secrets := map[string]any{}
	for _, p := range got.IdentityProviders {
		for _, c := range p.Config {
			secrets[p.Type] = cmp.Or(c["clientSecret"], c["bindPassword"])
		}
	}
	for _, typ := range []string{"OAUTH2", "OIDC", "LDAP"} {
		if secrets[typ] == nil || secrets[typ] == "" {
			t.Errorf("no %s provider with its secret: %s", typ, r.body)
		}
	}
}
