package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestBuilders_refuseBadInputBeforeSending(t *testing.T) {
	db := DatabaseName{Instance: "prod", Database: "app"}
	tests := []struct {
		name    string
		build   func() (*Request, error)
		wantErr error
		wantMsg string
	}{
		{name: "JSON catalog of a bad database", build: func() (*Request, error) {
			return UpdateCatalogJSONCall(DatabaseName{Instance: "i", Database: ".."}, []byte(`{}`))
		}, wantErr: ErrInvalidName, wantMsg: `database id ".."`},
		{name: "no JSON catalog", build: func() (*Request, error) { return UpdateCatalogJSONCall(db, nil) },
			wantErr: ErrInvalidRequest, wantMsg: "no catalog"},
		{name: "catalog read of a bad database", build: func() (*Request, error) {
			return GetCatalogCall(DatabaseName{Instance: "i", Database: ""})
		}, wantErr: ErrInvalidName, wantMsg: "database id"},
		{name: "no revisions", build: func() (*Request, error) { return BatchCreateRevisionsCall(db, nil) },
			wantErr: ErrInvalidRequest, wantMsg: "no revisions"},
		{name: "unknown revision type", build: func() (*Request, error) {
			return BatchCreateRevisionsCall(db, []RevisionInput{{Version: "1"}, {Version: "2", Type: "SNAPSHOT"}})
		}, wantErr: ErrInvalidRequest, wantMsg: `requests[1].revision.type: unknown revision type "SNAPSHOT"`},
		{name: "review config with a slash", build: func() (*Request, error) { return GetReviewConfigCall("a/b") },
			wantErr: ErrInvalidName, wantMsg: `review config id "a/b"`},
		{name: "no users", build: func() (*Request, error) { return BatchGetUsersCall(nil) },
			wantErr: ErrInvalidRequest, wantMsg: "no users"},
		{name: "a bad user among good ones", build: func() (*Request, error) {
			return BatchGetUsersCall([]string{"a@x.com", "b@x.com&names=users/c@x.com"})
		}, wantErr: ErrInvalidName, wantMsg: `may not contain "/"`},
		{name: "undelete of a bad user", build: func() (*Request, error) { return UndeleteUserCall("a@x.com#x") },
			wantErr: ErrInvalidName, wantMsg: `may not contain "#"`},
		{name: "unknown policy type", build: func() (*Request, error) {
			return ListPoliciesCall(PolicyParent{Database: &db}, ListPoliciesOptions{PolicyType: "masking_rule"})
		}, wantErr: ErrInvalidRequest, wantMsg: `unknown policy type "masking_rule"`},
		{name: "unspecified policy type", build: func() (*Request, error) {
			return ListPoliciesCall(PolicyParent{Database: &db}, ListPoliciesOptions{PolicyType: PolicyTypeUnspecified})
		}, wantErr: ErrInvalidRequest, wantMsg: "unknown policy type"},
		{name: "diff with both targets", build: func() (*Request, error) {
			return DiffSchemaCall(db, "1", &DiffSchemaRequest{Schema: "x", Changelog: "2"})
		}, wantErr: ErrInvalidRequest, wantMsg: "not both"},
		{name: "diff without target", build: func() (*Request, error) { return DiffSchemaCall(db, "1", &DiffSchemaRequest{}) },
			wantErr: ErrInvalidRequest, wantMsg: "give a target schema or a target changelog"},
		{name: "diff naming another changelog", build: func() (*Request, error) {
			return DiffSchemaCall(db, "1", &DiffSchemaRequest{Name: "instances/prod/databases/app/changelogs/9", Schema: "x"})
		}, wantErr: ErrInvalidName, wantMsg: "not the changelog instances/prod/databases/app/changelogs/1"},
		{name: "diff against a malformed changelog name", build: func() (*Request, error) {
			return DiffSchemaCall(db, "1", &DiffSchemaRequest{Changelog: "changelogs/2"})
		}, wantErr: ErrInvalidName, wantMsg: "not of the form"},
		{name: "diff of a bad changelog id", build: func() (*Request, error) {
			return DiffSchemaCall(db, "..", &DiffSchemaRequest{Schema: "x"})
		}, wantErr: ErrInvalidName, wantMsg: `changelog id ".."`},
		{name: "raw request outside /v1", build: func() (*Request, error) { return NewRawRequest("GET", "/v2/users", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "does not begin with /v1/"},
		{name: "raw request climbing out of /v1", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/../admin", nil) },
			wantErr: ErrInvalidRequest, wantMsg: ". or .. segments"},
		{name: "raw request climbing with escapes", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/%2e%2E/admin", nil) },
			wantErr: ErrInvalidRequest, wantMsg: ". or .. segments"},
		{name: "raw request with a space", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a b", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "must be escaped"},
		{name: "raw request with a fragment", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a#b", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "must be escaped"},
		{name: "raw request with a bad escape", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a%zz", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "invalid URL escape"},
		{name: "raw query with a space", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a?x=b c", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "must be escaped"},
		{name: "raw query with a control character", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a?x=b\x01", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "must be escaped"},
		{name: "raw query with a fragment", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a?x=1#b", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "must be escaped"},
		{name: "raw query not escaped", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a?x=\u00e9", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "must be escaped"},
		{name: "raw query with a bad escape", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a?x=%zz", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "invalid URL escape"},
		{name: "raw query with a bad escape in a key", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a?%4=1", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "invalid URL escape"},
		{name: "raw query split by semicolons", build: func() (*Request, error) { return NewRawRequest("GET", "/v1/a?x=1;y=2", nil) },
			wantErr: ErrInvalidRequest, wantMsg: "semicolon"},
		{name: "raw request with an odd method", build: func() (*Request, error) { return NewRawRequest("TRACE", "/v1/a", nil) },
			wantErr: ErrInvalidRequest, wantMsg: `method "TRACE"`},
		{name: "raw request with a body that is not JSON", build: func() (*Request, error) {
			return NewRawRequest("POST", "/v1/a", []byte("{"))
		}, wantErr: ErrInvalidRequest, wantMsg: "not valid JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.build()
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("got %+v, %v; want an error wrapping %v containing %q", r, err, tc.wantErr, tc.wantMsg)
			}
			if r != nil {
				t.Errorf("a refused request was built: %+v", r)
			}
		})
	}
}

func TestBuilders_doNotChangeTheCallersValues(t *testing.T) {
	db := DatabaseName{Instance: "prod", Database: "app"}
	diff := &DiffSchemaRequest{Changelog: "2"}
	if _, err := DiffSchemaCall(db, "1", diff); err != nil || diff.Name != "" || diff.Changelog != "2" {
		t.Errorf("diff request after build: %+v, %v", diff, err)
	}
}

func TestNewRawRequest_sendsThePathAndQueryAsGiven(t *testing.T) {
	tests := []struct {
		name, target, wantPath, wantQuery string
	}{
		{name: "no query", target: "/v1/users/a@x.com", wantPath: "/v1/users/a@x.com", wantQuery: ""},
		{name: "an empty query", target: "/v1/idps?", wantPath: "/v1/idps", wantQuery: ""},
		{name: "order and repeats kept", target: "/v1/x?z=1&a=2&z=0", wantPath: "/v1/x", wantQuery: "z=1&a=2&z=0"},
		{name: "escapes kept as typed", target: "/v1/users:batchGet?names=users/a%40x.com&names=users%2Fb@x.com",
			wantPath: "/v1/users:batchGet", wantQuery: "names=users/a%40x.com&names=users%2Fb@x.com"},
		{name: "plus and empty values kept", target: "/v1/x?q=a+b&flag&empty=", wantPath: "/v1/x", wantQuery: "q=a+b&flag&empty="},
		{name: "escaped path", target: "/v1/users/a%2Bb@x.com:undelete?x=1", wantPath: "/v1/users/a%2Bb@x.com:undelete", wantQuery: "x=1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
			c := newTestClient(t, svc.URL)
			r, err := NewRawRequest("get", tc.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Method != http.MethodGet || r.Path != tc.wantPath {
				t.Errorf("built %s %s, want GET %s", r.Method, r.Path, tc.wantPath)
			}
			wantURL := svc.URL + tc.wantPath
			if tc.wantQuery != "" {
				wantURL += "?" + tc.wantQuery
			}
			if got := c.URL(r); got != wantURL {
				t.Errorf("URL = %s, want %s", got, wantURL)
			}
			if _, err := c.Send(context.Background(), r, nil); err != nil {
				t.Fatal(err)
			}
			got := svc.Requests()
			if len(got) != 1 || got[0].EscapedPath != tc.wantPath || got[0].RawQuery != tc.wantQuery {
				t.Fatalf("sent %+v, want path %s and query %q", got, tc.wantPath, tc.wantQuery)
			}
		})
	}
}

func TestNewRawRequest_keepsTheBody(t *testing.T) {
	r, err := NewRawRequest("patch", "/v1/instances/i/databases/d/catalog?allowMissing=true", []byte(`{"name":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != "PATCH" || r.Path != "/v1/instances/i/databases/d/catalog" || r.RawQuery != "allowMissing=true" || string(r.Body) != `{"name":"x"}` {
		t.Errorf("got %+v", r)
	}
}

func TestRequest_rawQueryReplacesQuery(t *testing.T) {
	tests := []struct {
		name, want string
		r          Request
	}{
		{name: "query encoded in key order", r: Request{Path: "/v1/x", Query: url.Values{"z": {"1"}, "a": {"2 3"}}}, want: "/v1/x?a=2+3&z=1"},
		{name: "raw query as it is", r: Request{Path: "/v1/x", RawQuery: "z=1&a=2%203"}, want: "/v1/x?z=1&a=2%203"},
		{name: "raw query before query", r: Request{Path: "/v1/x", Query: url.Values{"a": {"1"}}, RawQuery: "b=2"}, want: "/v1/x?b=2"},
		{name: "neither", r: Request{Path: "/v1/x"}, want: "/v1/x"},
	}
	c := newTestClient(t, "http://127.0.0.1:1")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.URL(&tc.r); got != "http://127.0.0.1:1"+tc.want {
				t.Errorf("URL = %s, want http://127.0.0.1:1%s", got, tc.want)
			}
		})
	}
}

func TestSend_refusesABadRawQuery(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
	c := newTestClient(t, svc.URL)
	for _, q := range []string{"a=b c", "a=%zz", "a=1#f", "a=\n", "a=1;b=2"} {
		t.Run(q, func(t *testing.T) {
			_, err := c.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/x", RawQuery: q}, nil)
			if !errors.Is(err, ErrInvalidRequest) {
				t.Errorf("got %v, want ErrInvalidRequest", err)
			}
		})
	}
	if n := len(svc.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestUpdateCatalogJSONCall_sendsTheBodyAsItIs(t *testing.T) {
	db := DatabaseName{Instance: "prod", Database: "app"}
	body := []byte(`{"name": "instances/prod/databases/app/catalog", "schemas": []}`)
	r, err := UpdateCatalogJSONCall(db, body)
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != "PATCH" || r.Path != "/v1/instances/prod/databases/app/catalog" || r.Query != nil {
		t.Errorf("request %s %s?%s", r.Method, r.Path, r.Query.Encode())
	}
	if &r.Body[0] != &body[0] || len(r.Body) != len(body) {
		t.Error("the body was copied or changed")
	}
}
