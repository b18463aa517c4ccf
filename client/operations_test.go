package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

// operationCase is one operation: what it must send, what the service
// answers, and the typed value that answer must decode to.
type operationCase struct {
	name      string
	noAuth    bool
	do        func(ctx context.Context, c *Client) (any, []byte, error)
	method    string
	path      string // escaped, as the service sees it
	query     url.Values
	body      string // JSON, "" when none
	response  string
	wantValue any
}

var operationCases = []operationCase{
	{
		name: "UpdateCatalog sends the catalog as it is and escapes ids",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			raw, err := c.UpdateCatalog(ctx, DatabaseName{Instance: "prod:1", Database: "café"},
				[]byte(`{"name":"instances/prod:1/databases/café/catalog","schemas":[{"name":"public","tables":[{"name":"users","futureField":1}]}]}`))
			return nil, raw, err
		},
		method:   http.MethodPatch,
		path:     "/v1/instances/prod%3A1/databases/caf%C3%A9/catalog",
		body:     `{"name":"instances/prod:1/databases/café/catalog","schemas":[{"name":"public","tables":[{"name":"users","futureField":1}]}]}`,
		response: `{ "name" : "instances/prod:1/databases/café/catalog" , "schemas": [ { "name": "public", "tables": [ { "name": "users", "futureField": 1 } ] } ], "etag": "W/1" }`,
	},
	{
		name: "UpdateCatalog without allowMissing sends no query",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			raw, err := c.UpdateCatalog(ctx, DatabaseName{Instance: "prod", Database: "app"}, []byte(`{"name":"instances/prod/databases/app/catalog"}`))
			return nil, raw, err
		},
		method:   http.MethodPatch,
		path:     "/v1/instances/prod/databases/app/catalog",
		body:     `{"name":"instances/prod/databases/app/catalog"}`,
		response: `{"name":"instances/prod/databases/app/catalog"}`,
	},
	{
		name: "GetCatalog escapes ids and returns the catalog as sent",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			raw, err := c.GetCatalog(ctx, DatabaseName{Instance: "prod:1", Database: "café"})
			return nil, raw, err
		},
		method:   http.MethodGet,
		path:     "/v1/instances/prod%3A1/databases/caf%C3%A9/catalog",
		response: `{"name": "instances/prod:1/databases/café/catalog", "schemas": [{"name": "public", "etag": "x"}]}`,
	},
	{
		name: "BatchCreateRevisions fills every parent",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return batchCreateRevisions(ctx, c, DatabaseName{Instance: "prod", Database: "app"}, []RevisionInput{
				{Version: "1.0.0", File: "V1__init.sql", Sheet: "projects/p1/sheets/10", Type: RevisionTypeVersioned},
				{Version: "1.0.1", Release: "r1", Type: RevisionTypeDeclarative},
			})
		},
		method: http.MethodPost,
		path:   "/v1/instances/prod/databases/app/revisions:batchCreate",
		body: `{"parent":"instances/prod/databases/app","requests":[
			{"parent":"instances/prod/databases/app","revision":{"version":"1.0.0","file":"V1__init.sql","sheet":"projects/p1/sheets/10","type":"VERSIONED"}},
			{"parent":"instances/prod/databases/app","revision":{"version":"1.0.1","release":"r1","type":"DECLARATIVE"}}]}`,
		response: `{"revisions":[{"name":"instances/prod/databases/app/revisions/1","version":"1.0.0","file":"V1__init.sql",
			"sheet":"projects/p1/sheets/10","type":"VERSIONED","createTime":"2026-01-02T03:04:05Z","sheetSha256":"ab12",
			"statementSize":"1024","statement":"CREATE TABLE t (id INT);","creator":"users/x@example.com"} ,
			{"name":"instances/prod/databases/app/revisions/2","version":"1.0.1","release":"r1","type":"MIGRATION_V3"}]}`,
		wantValue: &BatchCreateRevisionsResponse{Revisions: []Revision{
			{RevisionInput: RevisionInput{Name: "instances/prod/databases/app/revisions/1", Version: "1.0.0", File: "V1__init.sql", Sheet: "projects/p1/sheets/10",
				Type: RevisionTypeVersioned}, CreateTime: "2026-01-02T03:04:05Z", SheetSha256: "ab12", StatementSize: "1024",
				Statement: "CREATE TABLE t (id INT);"},
			{RevisionInput: RevisionInput{Name: "instances/prod/databases/app/revisions/2", Version: "1.0.1", Release: "r1", Type: "MIGRATION_V3"}},
		}},
	},
	{
		name: "GetReviewConfig escapes the id and keeps unknown enum values",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return c.GetReviewConfig(ctx, "rc-ü")
		},
		method: http.MethodGet,
		path:   "/v1/reviewConfigs/rc-%C3%BC",
		response: `{"name":"reviewConfigs/rc-ü","title":"Prod rules","enabled":true,"rules":[
			{"type":"NAMING_TABLE","level":"ERROR","engine":"SNOWFLAKE","namingPayload":{"maxLength":64,"format":"^[a-z]+$"}},
			{"type":"STATEMENT_MAXIMUM_LIMIT_VALUE","level":"WARNING","engine":"FUTURE_DB","numberPayload":{"number":1000}},
			{"type":"COLUMN_REQUIRED","engine":"MYSQL","stringArrayPayload":{"list":["id","created_ts"]}},
			{"type":"COMMENT","engine":"POSTGRES","commentConventionPayload":{"required":true,"maxLength":64}}],
			"resources":["environments/prod"],"updateTime":"2026-01-01T00:00:00Z"}`,
		wantValue: &ReviewConfig{
			Name: "reviewConfigs/rc-ü", Title: "Prod rules", Enabled: true,
			Rules: []ReviewRule{
				{Type: "NAMING_TABLE", Level: "ERROR", Engine: "SNOWFLAKE", NamingPayload: &NamingPayload{MaxLength: 64, Format: "^[a-z]+$"}},
				{Type: "STATEMENT_MAXIMUM_LIMIT_VALUE", Level: "WARNING", Engine: "FUTURE_DB", NumberPayload: &NumberPayload{Number: 1000}},
				{Type: "COLUMN_REQUIRED", Engine: EngineMySQL, StringArrayPayload: &StringArrayPayload{List: []string{"id", "created_ts"}}},
				{Type: "COMMENT", Engine: EnginePostgres, CommentConventionPayload: &CommentConventionPayload{Required: true, MaxLength: 64}},
			},
			Resources: []string{"environments/prod"},
		},
	},
	{
		name: "BatchGetUsers repeats names and decodes absent fields as zero",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return batchGetUsers(ctx, c, []string{"alice@example.com", "o'neil+test@example.com"})
		},
		method: http.MethodGet,
		path:   "/v1/users:batchGet",
		query:  url.Values{"names": {"users/alice@example.com", "users/o'neil+test@example.com"}},
		response: `{"users" :[ {"name":"users/alice@example.com","state":"ACTIVE","email":"alice@example.com","title":"Alice",
			"userType":"USER","mfaEnabled":true,"phone":"+14155550100","profile":{"lastLoginTime":"2026-02-03T04:05:06Z","source":"OIDC"},
			"groups":["groups/dev@example.com"],"roles":["roles/x"]},
			{"name":"users/o'neil+test@example.com","state":"DELETED","userType":"WORKLOAD_IDENTITY",
			 "workloadIdentityConfig":{"providerType":"GITHUB","issuerUrl":"https://token.actions.githubusercontent.com",
			 "allowedAudiences":["a"],"subjectPattern":"repo:o/r:*"}},
			{"name":"users/bot@example.com","userType":"ROBOT_V2"}]}`,
		wantValue: &BatchGetUsersResponse{Users: []User{
			{Name: "users/alice@example.com", State: UserStateActive, Email: "alice@example.com", Title: "Alice", UserType: UserTypeUser,
				MfaEnabled: true, Phone: "+14155550100", Profile: &UserProfile{LastLoginTime: "2026-02-03T04:05:06Z", Source: "OIDC"},
				Groups: []string{"groups/dev@example.com"}},
			{Name: "users/o'neil+test@example.com", State: UserStateDeleted, UserType: UserTypeWorkloadIdentity,
				WorkloadIdentityConfig: &WorkloadIdentityConfig{ProviderType: "GITHUB",
					IssuerURL: "https://token.actions.githubusercontent.com", AllowedAudiences: []string{"a"}, SubjectPattern: "repo:o/r:*"}},
			{Name: "users/bot@example.com", UserType: "ROBOT_V2"},
		}},
	},
	{
		name: "BatchGetUsers decodes {} as no users",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return batchGetUsers(ctx, c, []string{"alice@example.com"})
		},
		method:    http.MethodGet,
		path:      "/v1/users:batchGet",
		query:     url.Values{"names": {"users/alice@example.com"}},
		response:  ` { } `,
		wantValue: &BatchGetUsersResponse{},
	},
	{
		name: "UndeleteUser posts the user's name",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return c.UndeleteUser(ctx, "o'neil+test@example.com")
		},
		method:    http.MethodPost,
		path:      "/v1/users/o%27neil+test@example.com:undelete",
		body:      `{"name":"users/o'neil+test@example.com"}`,
		response:  `{"name":"users/o'neil+test@example.com","state":"ACTIVE","email":"o'neil+test@example.com","userType":"SERVICE_ACCOUNT"}`,
		wantValue: &User{Name: "users/o'neil+test@example.com", State: UserStateActive, Email: "o'neil+test@example.com", UserType: UserTypeServiceAccount},
	},
	{
		name: "ListPolicies sends the filters and keeps masking rules as sent",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return c.ListPolicies(ctx, PolicyParent{Database: &DatabaseName{Instance: "prod", Database: "app"}},
				ListPoliciesOptions{PolicyType: PolicyTypeMaskingRule, ShowDeleted: true})
		},
		method: http.MethodGet,
		path:   "/v1/instances/prod/databases/app/policies",
		query:  url.Values{"policyType": {"MASKING_RULE"}, "showDeleted": {"true"}},
		response: `{"policies":[{"name":"instances/prod/databases/app/policies/masking_rule","type":"MASKING_RULE",
			"resourceType":"DATABASE_V9","enforce":true,"maskingRulePolicy":{"rules":[{"id":"r1","semanticType":"email-mask",
			"condition":{"id":"1","callExpr":{"function":"_==_","args":[{"id":"2","identExpr":{"name":"column_name"}},
			{"id":"3","constExpr":{"stringValue":"email","int64Value":"9007199254740993","doubleValue":0}}]}}}]}},
			{"name":"p2","type":"DATA_QUERY","queryDataPolicy":{"timeout":"30s","maximumResultSize":"104857600","maximumResultRows":1000,"disableExport":true}}]}`,
		wantValue: &ListPoliciesResponse{Policies: []Policy{
			{Name: "instances/prod/databases/app/policies/masking_rule", Type: PolicyTypeMaskingRule, ResourceType: "DATABASE_V9", Enforce: true,
				MaskingRulePolicy: &MaskingRulePolicy{Rules: []json.RawMessage{json.RawMessage(`{"id":"r1","semanticType":"email-mask",
			"condition":{"id":"1","callExpr":{"function":"_==_","args":[{"id":"2","identExpr":{"name":"column_name"}},
			{"id":"3","constExpr":{"stringValue":"email","int64Value":"9007199254740993","doubleValue":0}}]}}}`)}}},
			{Name: "p2", Type: PolicyTypeDataQuery, QueryDataPolicy: &QueryDataPolicy{Timeout: "30s", MaximumResultSize: "104857600",
				MaximumResultRows: 1000, DisableExport: true}},
		}},
	},
	{
		name: "ListPolicies without filters sends no query and decodes {}",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return c.ListPolicies(ctx, PolicyParent{Database: &DatabaseName{Instance: "prod", Database: "app"}}, ListPoliciesOptions{})
		},
		method:    http.MethodGet,
		path:      "/v1/instances/prod/databases/app/policies",
		response:  `{}`,
		wantValue: &ListPoliciesResponse{},
	},
	{
		name:   "ListIdentityProviders sends no credentials",
		noAuth: true,
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return c.ListIdentityProviders(ctx)
		},
		method: http.MethodGet,
		path:   "/v1/idps",
		response: `{"identityProviders":[{"name":"idps/google","title":"Google","domain":"example.com","type":"OAUTH2",
			"config":{"oauth2Config":{"authUrl":"https://accounts.google.com/o/oauth2/auth","tokenUrl":"https://oauth2.googleapis.com/token",
			"clientId":"cid","clientSecret":"shh","scopes":["email"],"fieldMapping":{"identifier":"email","displayName":"name"},
			"authStyle":"IN_HEADER"}}},
			{"name":"idps/ldap","type":"LDAP","config":{"ldapConfig":{"host":"ldap.example.com","port":636,"bindDn":"cn=admin",
			"bindPassword":"pw","baseDn":"dc=example,dc=com","securityProtocol":"LDAPS","skipTlsVerify":true}}},
			{"name":"idps/saml","type":"SAML"}]}`,
		wantValue: &ListIdentityProvidersResponse{IdentityProviders: []IdentityProvider{
			{Name: "idps/google", Title: "Google", Domain: "example.com", Type: "OAUTH2", Config: &IdentityProviderConfig{
				OAuth2Config: &OAuth2Config{AuthURL: "https://accounts.google.com/o/oauth2/auth"}}},
			{Name: "idps/ldap", Type: "LDAP", Config: &IdentityProviderConfig{LDAPConfig: &LDAPConfig{Host: "ldap.example.com", Port: 636}}},
			{Name: "idps/saml", Type: "SAML"},
		}},
	},
	{
		name: "DiffSchema sends the changelog name and the target schema",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return diffSchema(ctx, c, DatabaseName{Instance: "prod", Database: "app"}, "1001", &DiffSchemaRequest{Schema: "CREATE TABLE t (id INT);\n"})
		},
		method:    http.MethodPost,
		path:      "/v1/instances/prod/databases/app/changelogs/1001:diffSchema",
		body:      `{"name":"instances/prod/databases/app/changelogs/1001","schema":"CREATE TABLE t (id INT);\n"}`,
		response:  `{"diff":"ALTER TABLE t ADD COLUMN name TEXT;\n"}`,
		wantValue: &DiffSchemaResponse{Diff: "ALTER TABLE t ADD COLUMN name TEXT;\n"},
	},
	{
		name: "DiffSchema against another changelog decodes {} as no diff",
		do: func(ctx context.Context, c *Client) (any, []byte, error) {
			return diffSchema(ctx, c, DatabaseName{Instance: "prod", Database: "app"}, "1001", &DiffSchemaRequest{Changelog: "1002"})
		},
		method:    http.MethodPost,
		path:      "/v1/instances/prod/databases/app/changelogs/1001:diffSchema",
		body:      `{"name":"instances/prod/databases/app/changelogs/1001","changelog":"instances/prod/databases/app/changelogs/1002"}`,
		response:  `{}`,
		wantValue: &DiffSchemaResponse{},
	},
}

func TestOperations_sendExactRequestsAndDecodeAnswers(t *testing.T) {
	for _, tc := range operationCases {
		t.Run(tc.name, func(t *testing.T) {
			svc := newFakeService(t, answerWith(http.StatusOK, tc.response))
			c := newTestClient(t, svc.URL+"/", func(o *Options) {
				if tc.noAuth {
					o.Token = ""
				}
			})
			got, raw, err := tc.do(context.Background(), c)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if !reflect.DeepEqual(got, tc.wantValue) {
				t.Errorf("decoded\n got %#v\nwant %#v", got, tc.wantValue)
			}
			if string(raw) != tc.response {
				t.Errorf("raw body = %q, want the answer exactly", raw)
			}
			reqs := svc.Requests()
			if len(reqs) != 1 {
				t.Fatalf("got %d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tc.method || r.EscapedPath != tc.path {
				t.Errorf("request = %s %s, want %s %s", r.Method, r.EscapedPath, tc.method, tc.path)
			}
			wantQuery := tc.query
			if wantQuery == nil {
				wantQuery = url.Values{}
			}
			if !reflect.DeepEqual(r.Query, wantQuery) {
				t.Errorf("query = %v (%q), want %v", r.Query, r.RawQuery, wantQuery)
			}
			if tc.body == "" {
				if len(r.Body) != 0 {
					t.Errorf("body = %s, want none", r.Body)
				}
			} else {
				assertJSONEqual(t, "body", r.Body, tc.body)
				if ct := r.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type = %q", ct)
				}
			}
			if ua := r.Header.Get("User-Agent"); ua != "dbgov/test" {
				t.Errorf("User-Agent = %q", ua)
			}
			if a := r.Header.Get("Accept"); a != "application/json" {
				t.Errorf("Accept = %q", a)
			}
			wantAuth := "Bearer " + testToken
			if tc.noAuth {
				wantAuth = ""
			}
			if a := r.Header.Get("Authorization"); a != wantAuth {
				t.Errorf("Authorization = %q, want %q", a, wantAuth)
			}
		})
	}
}

func TestBatchGetUsers_neverJoinsNames(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
	c := newTestClient(t, svc.URL)
	if _, _, err := batchGetUsers(context.Background(), c, []string{"a@x.com", "b@x.com"}); err != nil {
		t.Fatal(err)
	}
	const want = "names=users%2Fa%40x.com&names=users%2Fb%40x.com"
	if got := svc.Requests()[0].RawQuery; got != want {
		t.Errorf("raw query = %q, want %q", got, want)
	}
}

func TestListIdentityProviders_sendsNoTokenEvenWhenOneIsSet(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
	c := newTestClient(t, svc.URL)
	if _, _, err := c.ListIdentityProviders(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a := svc.Requests()[0].Header.Get("Authorization"); a != "" {
		t.Errorf("Authorization = %q, want none", a)
	}
}
