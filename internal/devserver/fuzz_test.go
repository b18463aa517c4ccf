package devserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzHandler sends arbitrary paths, queries and bodies: every answer must
// be a well-formed error or success document, never a server fault (a 500
// the service would answer, as for an unknown instance, is not one).
func FuzzHandler(f *testing.F) {
	f.Add(uint8(0), "/v1/users:batchGet", "names=users/bob@example.com", "")
	f.Add(uint8(1), "/v1/users/bob%40example.com:undelete", "", `{"name":"users/bob@example.com"}`)
	f.Add(uint8(2), "/v1/instances/prod-pg/databases/orders/catalog", "allowMissing=true", `{"schemas":[{"tables":[{"columns":{"columns":[{"objectSchema":{"structKind":{"properties":{"a":{"arrayKind":{"kind":{}}}}}}}]}}]}]}`)
	f.Add(uint8(1), "/v1/instances/prod-pg/databases/orders/revisions:batchCreate", "", `{"requests":[{"parent":"instances/prod-pg/databases/orders","revision":{"type":"VERSIONED","version":"x","sheet":"projects/a/sheets/b"}}]}`)
	f.Add(uint8(0), "/v1/instances/prod-pg/databases/orders/policies", "policyType=TAG&showDeleted=1", "")
	f.Add(uint8(1), "/v1/instances/prod-pg/databases/orders/changelogs/101:diffSchema", "", `{"name":"instances/prod-pg/databases/orders/changelogs/101","schema":"a\nb"}`)
	f.Add(uint8(1), "/v1/auth/login", "", `{"email":"ci-bot@example.com","password":"dev-ci-bot-key"}`)
	f.Add(uint8(0), "/v1/reviewConfigs/sql-review-prod:", "", "")
	f.Add(uint8(3), "/v1/idps", "a=%", "[1e999]")
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete}
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method uint8, path, query, body string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " ?#\x00\r\n\t") {
			t.Skip()
		}
		req := httptest.NewRequest(methods[int(method)%len(methods)], "http://x/", strings.NewReader(body))
		req.URL.RawPath, req.URL.Path = "", path
		req.URL.RawQuery = query
		req.Header.Set("Authorization", "Bearer "+adminToken)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 && strings.Contains(rec.Body.String(), "internal error") {
			t.Fatalf("%s %s?%s %q: status %d: %s", req.Method, path, query, body, rec.Code, rec.Body)
		}
		var doc map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatalf("answer is not a JSON object: %v: %s", err, rec.Body)
		}
		if rec.Code != http.StatusOK && (doc["code"] == nil || doc["message"] == nil) {
			t.Fatalf("error without code or message: %s", rec.Body)
		}
	})
}
