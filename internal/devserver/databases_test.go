package devserver

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
)

const (
	ordersPath  = "/v1/instances/prod-pg/databases/orders"
	ordersName  = "instances/prod-pg/databases/orders"
	catalogPath = ordersPath + "/catalog"
	batchPath   = ordersPath + "/revisions:batchCreate"
)

func TestCatalogUpdate_replacesTheWholeCatalog(t *testing.T) {
	s := newDemo(t)
	body := `{"schemas":[{"name":"public","tables":[{"name":"customers","classification":"1-1",
		"columns":{"columns":[{"name":"email","semanticType":"email","labels":{"pii":"yes"},
		"objectSchema":{"type":"ARRAY","arrayKind":{"kind":{"type":"STRING"}}}}]}}]}]}`
	r := call(t, s, http.MethodPatch, catalogPath, adminToken, body)
	wantStatus(t, r, http.StatusOK)
	want := `{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"public","tables":[{"name":"customers","columns":{"columns":[{"name":"email","semanticType":"email","labels":{"pii":"yes"},"objectSchema":{"type":"ARRAY","arrayKind":{"kind":{"type":"STRING"}}}}]},"classification":"1-1"}]}]}` + "\n"
	if r.body != want {
		t.Errorf("body = %s\nwant %s", r.body, want)
	}
	s.mu.Lock()
	stored := s.st.instances["prod-pg"].databases["orders"].catalog
	s.mu.Unlock()
	if len(stored.Schemas) != 1 || len(stored.Schemas[0].Tables) != 1 {
		t.Errorf("the stored catalog was merged, not replaced: %+v", stored)
	}
	// The name may be given when it is the path's.
	r = call(t, s, http.MethodPatch, catalogPath, adminToken, `{"name":"instances/prod-pg/databases/orders/catalog"}`)
	wantStatus(t, r, http.StatusOK)
	if r.body != `{"name":"instances/prod-pg/databases/orders/catalog"}`+"\n" {
		t.Errorf("an empty catalog came back as %s", r.body)
	}
}

func TestCatalogGet_returnsTheCatalogAsUpdated(t *testing.T) {
	s := newDemo(t)
	body := `{"schemas":[{"name":"public","tables":[{"name":"customers","classification":"1-1"}]}]}`
	wantStatus(t, call(t, s, http.MethodPatch, catalogPath, adminToken, body), http.StatusOK)
	r := call(t, s, http.MethodGet, catalogPath, adminToken, "")
	wantStatus(t, r, http.StatusOK)
	if want := `{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"public","tables":[{"name":"customers","classification":"1-1"}]}]}` + "\n"; r.body != want {
		t.Errorf("body = %s\nwant %s", r.body, want)
	}
	wantError(t, call(t, s, http.MethodGet, "/v1/instances/prod-pg/databases/nope/catalog", adminToken, ""), http.StatusNotFound, codeNotFound,
		`database "instances/prod-pg/databases/nope" not found`)
}

func TestCatalog_aDatabaseNeverGivenOneHasAnEmptyCatalog(t *testing.T) {
	s := newDemo(t)
	path := "/v1/instances/prod-pg/databases/inventory/catalog"
	r := call(t, s, http.MethodGet, path, adminToken, "")
	wantStatus(t, r, http.StatusOK)
	if want := `{"name":"instances/prod-pg/databases/inventory/catalog"}` + "\n"; r.body != want {
		t.Errorf("body = %s, want %s", r.body, want)
	}
	body := `{"schemas":[{"name":"public","tables":[{"name":"stock"}]}]}`
	r = call(t, s, http.MethodPatch, path, adminToken, body)
	wantStatus(t, r, http.StatusOK)
	var got client.DatabaseCatalog
	r.decode(t, &got)
	if got.Name != "instances/prod-pg/databases/inventory/catalog" || got.Schemas[0].Tables[0].Name != "stock" {
		t.Errorf("updated catalog = %+v", got)
	}
}

func TestCatalogUpdate_refusesBadRequests(t *testing.T) {
	tests := []struct {
		name, path, body string
		status, code     int
		msg              string
	}{
		{"name of another database", catalogPath, `{"name":"instances/prod-pg/databases/inventory/catalog"}`, 400, codeInvalidArgument, `"instances/prod-pg/databases/inventory/catalog"`},
		{"unknown nested field", catalogPath, `{"schemas":[{"tables":[{"name":"t","colums":{}}]}]}`, 400, codeInvalidArgument, `unknown object member name "colums" within "/schemas/0/tables/0"`},
		{"unknown enum value", catalogPath, `{"schemas":[{"tables":[{"objectSchema":{"type":"MAP"}}]}]}`, 400, codeInvalidArgument, `"/schemas/0/tables/0/objectSchema/type": unknown enum value "MAP"`},
		{"wrong type", catalogPath, `{"schemas":{"name":"public"}}`, 400, codeInvalidArgument, `JSON object into Go []client.SchemaCatalog within "/schemas"`},
		{"label of the wrong type", catalogPath, `{"schemas":[{"tables":[{"columns":{"columns":[{"labels":{"pii":true}}]}}]}]}`, 400, codeInvalidArgument, `JSON boolean into Go string within "/schemas/0/tables/0/columns/columns/0/labels/pii"`},
		{"bad allowMissing", catalogPath + "?allowMissing=sure", `{}`, 400, codeInvalidArgument, `allowMissing: "sure" is not a boolean`},
		{"allowMissing twice", catalogPath + "?allowMissing=true&allowMissing=false", `{}`, 400, codeInvalidArgument, "allowMissing"},
		{"unknown instance", "/v1/instances/nope/databases/orders/catalog", `{}`, 500, codeInternal, `failed to populate raw resources database "instances/nope/databases/orders" not found`},
		{"unknown database", "/v1/instances/prod-pg/databases/nope/catalog", `{}`, 404, codeNotFound, `database "instances/prod-pg/databases/nope" not found`},
		{"allowMissing, which no release grants", catalogPath + "?allowMissing=true", `{}`, 403, codePermissionDenied,
			"permission denied: allow_missing=true requires both bb.databaseCatalogs.update and bb.databaseCatalogs.create"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, call(t, newDemo(t), http.MethodPatch, tt.path, adminToken, tt.body), tt.status, tt.code, tt.msg)
		})
	}
}

// revisionRequest is one request of a batch: a revision of a sheet (202
// when ""), from a file of a release.
func revisionRequest(parent, typ, version, sheet string) string {
	return fmt.Sprintf(`{"parent":%q,"revision":{"type":%q,"version":%q,"sheet":%q,"release":"projects/orders/releases/%s","file":"projects/orders/releases/%s/files/%s.sql"}}`,
		parent, typ, version, cmp.Or(sheet, "projects/orders/sheets/202"), version, version, version)
}

func TestBatchCreate_createsRevisions(t *testing.T) {
	c := newClock()
	s, err := New(Options{Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"parent":"` + ordersName + `","requests":[` +
		revisionRequest(ordersName, "VERSIONED", "1.2.0", "projects/orders/sheets/201") + "," +
		revisionRequest(ordersName, "DECLARATIVE", "1.0.0", "") + "," +
		revisionRequest(ordersName, "VERSIONED", "1.3.0", "projects/other/sheets/9") + `]}`
	r := call(t, s, http.MethodPost, batchPath, adminToken, body)
	wantStatus(t, r, http.StatusOK)
	var got client.BatchCreateRevisionsResponse
	r.decode(t, &got)
	if len(got.Revisions) != 3 {
		t.Fatalf("created %d revisions, want 3: %s", len(got.Revisions), r.body)
	}
	for i, rev := range got.Revisions {
		if want := ordersName + "/revisions/" + strconv.Itoa(4+i); rev.Name != want {
			t.Errorf("revision %d name = %q, want %q", i, rev.Name, want)
		}
		if rev.CreateTime != "2025-03-14T15:09:26Z" {
			t.Errorf("revision %d createTime = %q", i, rev.CreateTime)
		}
	}
	first := got.Revisions[0]
	const statement = "ALTER TABLE public.orders ADD COLUMN status text NOT NULL DEFAULT 'pending';\n"
	sum := sha256.Sum256([]byte(statement))
	if first.Statement != statement || first.StatementSize != strconv.Itoa(len(statement)) || first.SheetSha256 != hex.EncodeToString(sum[:]) {
		t.Errorf("statement fields of a known sheet: %+v", first)
	}
	if first.File != "projects/orders/releases/1.2.0/files/1.2.0.sql" || first.Type != client.RevisionTypeVersioned || first.Sheet != "projects/orders/sheets/201" {
		t.Errorf("input fields not kept: %+v", first)
	}
	if second := got.Revisions[1]; !strings.HasPrefix(second.Statement, "CREATE INDEX") {
		t.Errorf("a revision of sheet 202 has the statement %q", second.Statement)
	}
	if third := got.Revisions[2]; third.Statement == "" || third.StatementSize == "" || third.SheetSha256 == "" {
		t.Errorf("a revision with an unknown sheet lacks statement fields: %+v", third)
	}
	// The same version is free again for another type but not for the same.
	r = call(t, s, http.MethodPost, batchPath, adminToken, `{"requests":[`+revisionRequest(ordersName, "DECLARATIVE", "1.2.0", "")+`]}`)
	wantStatus(t, r, http.StatusOK)
}

func TestBatchCreate_isNotAtomic(t *testing.T) {
	s := newDemo(t)
	body := `{"parent":"` + ordersName + `","requests":[` +
		revisionRequest(ordersName, "VERSIONED", "2.0.0", "") + "," +
		revisionRequest(ordersName, "VERSIONED", "2.1.0", "") + "," +
		revisionRequest(ordersName, "VERSIONED", "2.0.0", "") + "," +
		revisionRequest(ordersName, "VERSIONED", "2.2.0", "") + `]}`
	r := call(t, s, http.MethodPost, batchPath, adminToken, body)
	wantError(t, r, http.StatusConflict, codeAlreadyExists, `"2.0.0"`, "already exists")
	if got := storedVersions(s); !slices.Equal(got, []string{"1.0.0", "1.1.0", "2024.03.01", "2.0.0", "2.1.0"}) {
		t.Errorf("after the failed batch the revisions are %v", got)
	}
}

func storedVersions(s *Server) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var versions []string
	for _, r := range s.st.instances["prod-pg"].databases["orders"].revisions {
		versions = append(versions, r.Version)
	}
	return versions
}

func TestBatchCreate_refusesBadRequests(t *testing.T) {
	other := "instances/prod-pg/databases/inventory"
	tests := []struct {
		name, path, body string
		status, code     int
		msg              []string
		created          []string // versions created before the failure
	}{
		{"batch parent of another database", batchPath, `{"parent":"` + other + `","requests":[` + revisionRequest(other, "VERSIONED", "9.0.0", "") + `]}`,
			400, codeInvalidArgument, []string{`parent "instances/prod-pg/databases/inventory"`}, nil},
		{"request parent differs", batchPath, `{"parent":"` + ordersName + `","requests":[` + revisionRequest(ordersName, "VERSIONED", "9.0.0", "") + "," + revisionRequest(other, "VERSIONED", "9.1.0", "") + `]}`,
			400, codeInvalidArgument, []string{"requests[1].parent"}, nil},
		{"request parent missing", batchPath, `{"parent":"` + ordersName + `","requests":[{"revision":{"type":"VERSIONED","version":"9.0.0"}}]}`,
			400, codeInvalidArgument, []string{"requests[0].parent"}, nil},
		{"type missing", batchPath, `{"requests":[` + revisionRequest(ordersName, "VERSIONED", "9.0.0", "") + `,{"parent":"` + ordersName + `","revision":{"version":"9.1.0","sheet":"projects/orders/sheets/201"}}]}`,
			400, codeInvalidArgument, []string{"requests[1].revision.type is required"}, []string{"9.0.0"}},
		{"type unspecified", batchPath, `{"requests":[` + revisionRequest(ordersName, "TYPE_UNSPECIFIED", "9.0.0", "") + `]}`,
			400, codeInvalidArgument, []string{"requests[0].revision.type is required"}, nil},
		{"type unknown", batchPath, `{"requests":[` + revisionRequest(ordersName, "IMPERATIVE", "9.0.0", "") + `]}`,
			400, codeInvalidArgument, []string{`"/requests/0/revision/type"`, `"IMPERATIVE"`}, nil},
		{"version missing", batchPath, `{"requests":[{"parent":"` + ordersName + `","revision":{"type":"VERSIONED","sheet":"projects/orders/sheets/201"}}]}`,
			400, codeInvalidArgument, []string{"requests[0].revision.version is required"}, nil},
		{"bad sheet name", batchPath, `{"requests":[` + revisionRequest(ordersName, "VERSIONED", "9.0.0", "sheets/1") + `]}`,
			400, codeInvalidArgument, []string{`"sheets/1"`}, nil},
		{"file without a release", batchPath, `{"requests":[` + revisionRequest(ordersName, "VERSIONED", "9.0.0", "projects/orders/sheets/201") + `,{"parent":"` + ordersName + `","revision":{"type":"VERSIONED","version":"9.1.0","sheet":"projects/orders/sheets/201","file":"b.sql"}}]}`,
			400, codeInvalidArgument, []string{"revision.release and revision.file must be set or unset"}, []string{"9.0.0"}},
		{"sheet missing, before anything is created", batchPath, `{"requests":[` + revisionRequest(ordersName, "VERSIONED", "9.0.0", "") + `,{"parent":"` + ordersName + `","revision":{"type":"VERSIONED","version":"9.1.0"}}]}`,
			400, codeInvalidArgument, []string{`failed to get sheet from : invalid request ""`}, nil},
		{"version already stored", batchPath, `{"requests":[` + revisionRequest(ordersName, "VERSIONED", "1.1.0", "") + `]}`,
			409, codeAlreadyExists, []string{`VERSIONED revision of version "1.1.0" already exists`}, nil},
		{"unknown field", batchPath, `{"requests":[{"parent":"` + ordersName + `","revision":{"type":"VERSIONED","version":"9","statement":"x"}}]}`,
			400, codeInvalidArgument, []string{`unknown object member name "statement" within "/requests/0/revision"`}, nil},
		{"unknown database", "/v1/instances/prod-pg/databases/nope/revisions:batchCreate", `{"requests":[` + revisionRequest("instances/prod-pg/databases/nope", "VERSIONED", "9.0.0", "") + `]}`,
			404, codeNotFound, []string{`database "instances/prod-pg/databases/nope" not found`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newDemo(t)
			wantError(t, call(t, s, http.MethodPost, tt.path, adminToken, tt.body), tt.status, tt.code, tt.msg...)
			want := append([]string{"1.0.0", "1.1.0", "2024.03.01"}, tt.created...)
			if got := storedVersions(s); !slices.Equal(got, want) {
				t.Errorf("stored versions = %v, want %v", got, want)
			}
		})
	}
}

func TestBatchCreate_emptyBatchAnswersEmptyObject(t *testing.T) {
	r := call(t, newDemo(t), http.MethodPost, batchPath, adminToken, `{"parent":"`+ordersName+`"}`)
	wantStatus(t, r, http.StatusOK)
	if r.body != "{}\n" {
		t.Errorf("body = %q, want {}", r.body)
	}
}

func policyNames(t *testing.T, r response) []string {
	t.Helper()
	var got client.ListPoliciesResponse
	r.decode(t, &got)
	var names []string
	for _, p := range got.Policies {
		names = append(names, p.Name)
	}
	return names
}

func TestListPolicies_filters(t *testing.T) {
	p := ordersName + "/policies/"
	live := []string{p + "rollout", p + "masking_rule", p + "masking_exemption", p + "tag", p + "data_source_query", p + "data_query"}
	tests := []struct {
		query string
		want  []string
	}{
		{"", live},
		{"?showDeleted=false", live},
		{"?showDeleted=true", append(slices.Clone(live), p+"tag-2023")},
		{"?policyType=TAG", []string{p + "tag"}},
		{"?policyType=TAG&showDeleted=true", []string{p + "tag", p + "tag-2023"}},
		{"?policy_type=MASKING_RULE", []string{p + "masking_rule"}},
		{"?policyType=POLICY_TYPE_UNSPECIFIED", live},
		{"?policyType=DATA_QUERY", []string{p + "data_query"}},
	}
	s := newDemo(t)
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := call(t, s, http.MethodGet, ordersPath+"/policies"+tt.query, readonlyToken, "")
			wantStatus(t, r, http.StatusOK)
			if got := policyNames(t, r); !slices.Equal(got, tt.want) {
				t.Errorf("policies = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestListPolicies_payloadsSurviveTheRoundTrip(t *testing.T) {
	r := call(t, newDemo(t), http.MethodGet, ordersPath+"/policies", adminToken, "")
	var got client.ListPoliciesResponse
	r.decode(t, &got)
	byType := map[client.PolicyType]client.Policy{}
	for _, p := range got.Policies {
		byType[p.Type] = p
	}
	if p := byType[client.PolicyTypeMaskingRule]; p.MaskingRulePolicy == nil || !strings.Contains(string(p.MaskingRulePolicy.Rules[0]), `"callExpr"`) {
		t.Errorf("masking rule lost its expression: %+v", p)
	}
	if p := byType[client.PolicyTypeDataQuery]; p.QueryDataPolicy == nil || p.QueryDataPolicy.MaximumResultSize != "104857600" || p.QueryDataPolicy.MaximumResultRows != 1000 {
		t.Errorf("query data policy = %+v", p.QueryDataPolicy)
	}
	if p := byType[client.PolicyTypeDataSourceQuery]; p.DataSourceQueryPolicy == nil || p.DataSourceQueryPolicy.AdminDataSourceRestriction != "FALLBACK" {
		t.Errorf("data source query policy = %+v", p.DataSourceQueryPolicy)
	}
	if r.json(t)["policies"].([]any)[0].(map[string]any)["deleted"] != nil {
		t.Errorf("the server's deleted mark leaks into the response: %s", r.body)
	}
}

func TestListPolicies_emptyListIsEmptyObject(t *testing.T) {
	r := call(t, newDemo(t), http.MethodGet, "/v1/instances/staging-mysql/databases/orders/policies?policyType=TAG", adminToken, "")
	wantStatus(t, r, http.StatusOK)
	if r.body != "{}\n" {
		t.Errorf("body = %q, want {}", r.body)
	}
}

func TestListPolicies_refusesBadRequests(t *testing.T) {
	tests := []struct {
		name, path   string
		status, code int
		msg          string
	}{
		{"unknown type", ordersPath + "/policies?policyType=BACKUP_PLAN", 400, codeInvalidArgument, `"BACKUP_PLAN"`},
		{"type in lower case", ordersPath + "/policies?policyType=tag", 400, codeInvalidArgument, `"tag"`},
		{"bad showDeleted", ordersPath + "/policies?showDeleted=yes", 400, codeInvalidArgument, "showDeleted"},
		{"unknown instance", "/v1/instances/nope/databases/orders/policies", 500, codeInternal, `database "instances/nope/databases/orders" not found`},
		{"unknown database", "/v1/instances/prod-pg/databases/nope/policies", 404, codeNotFound, `database "instances/prod-pg/databases/nope" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, call(t, newDemo(t), http.MethodGet, tt.path, adminToken, ""), tt.status, tt.code, tt.msg)
		})
	}
}
