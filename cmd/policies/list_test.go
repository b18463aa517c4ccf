package policies_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

const ordersPath = "/v1/instances/prod-pg/databases/orders/policies"

// ordersPolicies holds one policy of each type, spaced oddly as the service
// sometimes does, plus one of a type this version does not know.
const ordersPolicies = `{"policies": [
 {"name": "instances/prod-pg/databases/orders/policies/masking_rule", "type": "MASKING_RULE", "resourceType": "PROJECT", "enforce": true,
  "maskingRulePolicy": {"rules": [
   {"id": "r1", "semanticType": "email", "condition": {"callExpr": {"function": "_==_", "args": [{"identExpr": {"name": "classification"}}, {"constExpr": {"stringValue": "1-2"}}]}}},
   {"id": "r2", "semanticType": "phone-number"},
   {"id": "r3", "semanticType": "credit-card"}]}} ,
 {"name": "instances/prod-pg/databases/orders/policies/masking_exemption", "type": "MASKING_EXEMPTION", "resourceType": "PROJECT", "enforce": true,
  "maskingExemptionPolicy": {"exemptions": [{"members": ["user:alice@example.com"]}, {"members": ["group:dba@example.com"]}]}},
 {"name": "instances/prod-pg/databases/orders/policies/rollout", "type": "ROLLOUT_POLICY", "resourceType": "ENVIRONMENT", "inheritFromParent": true,
  "rolloutPolicy": {"automatic": true, "roles": ["roles/projectOwner", "roles/dba"]}},
 {"name": "instances/prod-pg/databases/orders/policies/tag", "type": "TAG", "resourceType": "WORKSPACE",
  "tagPolicy": {"tags": {"env": "prod", "owner": "crm", "pii": "true", "tier": "1"}}},
 {"name": "instances/prod-pg/databases/orders/policies/data_source_query", "type": "DATA_SOURCE_QUERY", "resourceType": "ENVIRONMENT", "enforce": true,
  "dataSourceQueryPolicy": {"adminDataSourceRestriction": "DISALLOW", "disallowDdl": true, "disallowDml": true}},
 {"name": "instances/prod-pg/databases/orders/policies/data_query", "type": "DATA_QUERY", "resourceType": "PROJECT", "enforce": true,
  "queryDataPolicy": {"timeout": "30s", "disableExport": true, "maximumResultRows": 1000, "maximumResultSize": "10485760"}},
 {"name": "instances/prod-pg/databases/orders/policies/future\u001b[31m", "type": "FUTURE_POLICY", "futurePolicy": {"x": 1}}
]}`

// orders is `dbgov policies list` of the orders database, answered with
// answer.
func orders(answer string) cmdtest.Command {
	return cmdtest.Command{
		Args:  []string{"policies", "list", "--instance", "prod-pg", "--database", "orders"},
		Serve: func(reg *httpmock.Registry, _ bool) { reg.Register(http.MethodGet, ordersPath, 200, answer).Query("") },
	}
}

func TestList_formats(t *testing.T) {
	list := orders(ordersPolicies)
	list.JQ = `.policies[] | select(.enforce) | .type`
	list.Template = `{{range .policies}}{{.type}}{{if .inheritFromParent}} (inherited){{end}}{{"\n"}}{{end}}`
	list.Goldens(t, "list_", "table", "table_tty", "no_headers", "json", "yaml", "name", "jq", "template")
}

func TestList_emptyAnswer(t *testing.T) {
	empty := orders(`{}`)
	empty.JQ = ".policies | length"
	empty.Prints(t, map[string]string{
		"table": "NAME   TYPE   RESOURCE TYPE   ENFORCE   INHERIT   SUMMARY\n",
		"json":  "{\n  \"policies\": []\n}\n",
		"jq":    "0\n",
		"name":  "",
	})
}

func TestList_summary(t *testing.T) {
	tests := []struct {
		name   string
		policy string
		want   string
	}{
		{"one rule", `"maskingRulePolicy": {"rules": [{"id": "r1"}]}`, "1 rule"},
		{"no rules", `"maskingRulePolicy": {}`, "0 rules"},
		{"one exemption", `"maskingExemptionPolicy": {"exemptions": [{"members": ["user:a@example.com"]}]}`, "1 exemption"},
		{"manual rollout", `"rolloutPolicy": {"roles": ["roles/dba"]}`, "manual, 1 role"},
		{"automatic rollout, no roles", `"rolloutPolicy": {"automatic": true}`, "automatic"},
		{"one tag", `"tagPolicy": {"tags": {"env": "prod"}}`, "1 tag"},
		{"DDL only", `"dataSourceQueryPolicy": {"disallowDdl": true}`, "DDL disallowed"},
		{"admin fallback", `"dataSourceQueryPolicy": {"adminDataSourceRestriction": "FALLBACK"}`, "admin data source: FALLBACK"},
		{"unspecified restriction", `"dataSourceQueryPolicy": {"adminDataSourceRestriction": "RESTRICTION_UNSPECIFIED"}`, "no restrictions"},
		{"no data source restrictions", `"dataSourceQueryPolicy": {}`, "no restrictions"},
		{"copy disabled", `"queryDataPolicy": {"disableCopyData": true, "maximumResultRows": 1}`, "copy disabled, max 1 row"},
		{"size in bytes", `"queryDataPolicy": {"maximumResultSize": "512"}`, "max 512 bytes"},
		{"the shape from 3.15", `"queryDataPolicy": {"maximumResultRows": 100, "disableExport": true, "allowAdminDataSource": true}`, "export disabled, admin data source allowed, max 100 rows"},
		{"size in GiB", `"queryDataPolicy": {"maximumResultSize": "1610612736"}`, "max 1.5 GiB"},
		{"size not a number", `"queryDataPolicy": {"maximumResultSize": "lots"}`, "max lots bytes"},
		{"timeout in hours", `"queryDataPolicy": {"timeout": "3600s"}`, "timeout 1h"},
		{"timeout in minutes", `"queryDataPolicy": {"timeout": "90s"}`, "timeout 1m30s"},
		{"timeout fraction", `"queryDataPolicy": {"timeout": "0.250s"}`, "timeout 250ms"},
		{"timeout unreadable", `"queryDataPolicy": {"timeout": "soon"}`, "timeout soon"},
		{"no limits", `"queryDataPolicy": {}`, "no limits"},
		{"two payloads", `"tagPolicy": {"tags": {"a": "b"}}, "rolloutPolicy": {}`, "manual; 1 tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, ordersPath, 200, `{"policies": [{"name": "p", `+tt.policy+`}]}`)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "policies", "list", "--instance", "prod-pg", "--database", "orders", "--no-headers").Expect(t, 0)
			row := strings.TrimSuffix(res.Stdout, "\n")
			if strings.Contains(row, "\n") {
				t.Fatalf("want one row, got:\n%s", res.Stdout)
			}
			if !strings.HasSuffix(row, "   "+tt.want) {
				t.Errorf("row %q does not end in the summary %q", row, tt.want)
			}
		})
	}
}

// TestList_request checks the path and query a list of each parent sends.
func TestList_request(t *testing.T) {
	tests := []struct {
		name        string
		args        []string
		path, query string
	}{
		{"instance and database", []string{"--instance", "prod-pg", "--database", "orders"}, ordersPath, ""},
		{"full database name", []string{"--database", "instances/prod-pg/databases/orders"}, ordersPath, ""},
		{"full name and same instance", []string{"--instance", "prod-pg", "--database", "instances/prod-pg/databases/orders"}, ordersPath, ""},
		{"type in lower case", []string{"--instance", "prod-pg", "--database", "orders", "--type", "masking_rule"}, ordersPath, "policyType=MASKING_RULE"},
		{"type in mixed case", []string{"--instance", "prod-pg", "--database", "orders", "--type=Data_Query"}, ordersPath, "policyType=DATA_QUERY"},
		{"type in capitals", []string{"--instance", "prod-pg", "--database", "orders", "--type", "ROLLOUT_POLICY"}, ordersPath, "policyType=ROLLOUT_POLICY"},
		{"show deleted", []string{"--instance", "prod-pg", "--database", "orders", "--show-deleted"}, ordersPath, "showDeleted=true"},
		{"show deleted off", []string{"--instance", "prod-pg", "--database", "orders", "--show-deleted=false"}, ordersPath, ""},
		{"type and show deleted", []string{"--instance", "prod-pg", "--database", "orders", "--show-deleted", "--type", "tag"}, ordersPath, "policyType=TAG&showDeleted=true"},
		{"ids escaped", []string{"--instance", "prod:pg", "--database", "ordérs"}, "/v1/instances/prod%3Apg/databases/ord%C3%A9rs/policies", ""},
		{"environment", []string{"--environment", "prod"}, "/v1/environments/prod/policies", ""},
		{"project with filters", []string{"--project", "orders", "--type", "masking_rule", "--show-deleted"}, "/v1/projects/orders/policies", "policyType=MASKING_RULE&showDeleted=true"},
		{"workspace", []string{"--workspace"}, "/v1/policies", ""},
		{"environment id escaped", []string{"--environment", "pr:od"}, "/v1/environments/pr%3Aod/policies", ""},
		{"environment by its full name", []string{"--environment", "environments/test"}, "/v1/environments/test/policies", ""},
		{"project by its full name", []string{"--project", "projects/shop"}, "/v1/projects/shop/policies", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, tt.path, 200, `{"policies": [{"name": "environments/prod/policies/rollout", "type": "ROLLOUT_POLICY"}]}`).Query(tt.query)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, append([]string{"policies", "list", "-o", "name"}, tt.args...)...).Expect(t, 0)
			if res.Stdout != "environments/prod/policies/rollout\n" {
				t.Errorf("stdout %q", res.Stdout)
			}
			req := reg.Only()
			if got := req.Header.Get("Authorization"); got != "Bearer test-token" {
				t.Errorf("Authorization %q, want the token", got)
			}
		})
	}
}

func TestList_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"no database", []string{"--instance", "prod-pg"}, []string{"--database is required"}},
		{"database without instance", []string{"--database", "orders"}, []string{`database "orders" needs an instance`}},
		{"instance does not match", []string{"--instance", "dev-pg", "--database", "instances/prod-pg/databases/orders"}, []string{`instance "dev-pg" does not match`}},
		{"malformed full name", []string{"--database", "instances/prod-pg/orders"}, []string{"is not of the form instances/I/databases/D"}},
		{"space in id", []string{"--instance", "prod pg", "--database", "orders"}, []string{"may not contain spaces"}},
		{"unknown type", []string{"--instance", "prod-pg", "--database", "orders", "--type", "masking"},
			[]string{`unknown policy type "masking" for --type: use one of MASKING_RULE, MASKING_EXEMPTION, ROLLOUT_POLICY, TAG, DATA_SOURCE_QUERY, DATA_QUERY`}},
		{"empty type", []string{"--instance", "prod-pg", "--database", "orders", "--type", ""}, []string{`unknown policy type "" for --type`}},
		{"unspecified type", []string{"--instance", "prod-pg", "--database", "orders", "--type", "policy_type_unspecified"}, []string{`unknown policy type "policy_type_unspecified"`}},
		{"type with spaces", []string{"--instance", "prod-pg", "--database", "orders", "--type", " tag"}, []string{`unknown policy type " tag"`}},
		{"argument", []string{"--instance", "prod-pg", "--database", "orders", "extra"}, []string{"takes no arguments (got 1 argument)"}},
		{"unknown flag", []string{"--instance", "prod-pg", "--database", "orders", "--deleted"}, []string{"unknown flag: --deleted"}},
		{"show-deleted takes no value", []string{"--instance", "prod-pg", "--database", "orders", "--show-deleted=yes"}, []string{"invalid argument"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmdtest.Refused(t, cmdtest.Options{}, append([]string{"policies", "list"}, tt.args...), tt.want...)
		})
	}
}

func TestList_errors(t *testing.T) {
	orders("").Failures(t, http.MethodGet, ordersPath, []cmdtest.Failure{
		{Name: "not found", Status: 404, Body: `{"code": 5, "message": "database \"instances/prod-pg/databases/orders\" not found"}`, Code: 5,
			Line: `dbgov: list policies of instances/prod-pg/databases/orders: database "instances/prod-pg/databases/orders" not found (HTTP 404 NOT_FOUND)`,
			JSON: `{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"database \"instances/prod-pg/databases/orders\" not found","exitCode":5}}`},
		{Name: "missing database reported as internal", Status: 500, Body: `{"code": 13, "message": "failed to find database"}`, Code: 7,
			Line: `dbgov: list policies of instances/prod-pg/databases/orders: failed to find database (HTTP 500 INTERNAL)`,
			JSON: `{"error":{"httpStatus":500,"code":"INTERNAL","message":"failed to find database","exitCode":7}}`},
		{Name: "rejected", Status: 400, Body: `{"code": 3, "message": "invalid policy type"}`, Code: 6,
			Line: `(HTTP 400 INVALID_ARGUMENT)`, JSON: `"code":"INVALID_ARGUMENT"`},
		{Name: "permission denied", Status: 403, Body: `{"code": 7, "message": "permission denied"}`, Code: 4,
			Line: `(HTTP 403 PERMISSION_DENIED)`, JSON: `"exitCode":4`},
		{Name: "unauthenticated", Status: 401, Body: `{"code": 16, "message": "no token"}`, Code: 3,
			Line: `(HTTP 401 UNAUTHENTICATED)`, JSON: `"exitCode":3`},
	})
}

func TestList_typeCompletion(t *testing.T) {
	tests := []struct {
		name  string
		typed string
		want  []string
	}{
		{"nothing typed", "", []string{"MASKING_RULE", "MASKING_EXEMPTION", "ROLLOUT_POLICY", "TAG", "DATA_SOURCE_QUERY", "DATA_QUERY"}},
		{"lower case", "mask", []string{"masking_rule", "masking_exemption"}},
		{"capitals", "DATA_", []string{"DATA_SOURCE_QUERY", "DATA_QUERY"}},
		{"mixed case follows the last letter", "Ro", []string{"Rollout_policy"}},
		{"underscore after lower case", "data_s", []string{"data_source_query"}},
		{"no match", "x", nil},
		{"longer than any", "masking_rule_and_more", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := cmdtest.Run(t, cmdtest.Options{}, "__complete", "policies", "list", "--type", tt.typed).Expect(t, 0)
			lines := strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n")
			directive := lines[len(lines)-1]
			if directive != ":4" {
				t.Errorf("directive %q, want :4 (no file completion)", directive)
			}
			got := lines[:len(lines)-1]
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("completions %q, want %q", got, tt.want)
			}
		})
	}
}

func TestList_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{}, "policies", "list", "--instance", "prod-pg", "--database", "orders").Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestList_fitsTheTerminal(t *testing.T) {
	orders(ordersPolicies).Goldens(t, "list_", "tty_60", "tty_80", "tty_120")
}

func TestList_exactlyOneParent(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"none", nil},
		{"environment and project", []string{"--environment", "prod", "--project", "orders"}},
		{"database and workspace", []string{"--instance", "prod-pg", "--database", "orders", "--workspace"}},
		{"instance and environment", []string{"--instance", "prod-pg", "--environment", "prod"}},
		{"empty environment", []string{"--environment", ""}},
		{"environments/ alone", []string{"--environment", "environments/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmdtest.Refused(t, cmdtest.Options{}, append([]string{"policies", "list"}, tt.args...),
				"give exactly one parent: --instance I --database D, --environment E, --project P or --workspace")
		})
	}
	cmdtest.Refused(t, cmdtest.Options{}, []string{"policies", "list", "--project", "a/b"}, `project id "a/b"`)
}

func TestList_databaseRouteUnknownHintsAtOtherParents(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		wantHint bool
	}{
		{"unknown request name", 400, `{"code": 3, "message": "unknown request name \"instances/prod-pg/databases/orders/policies\""}`, true},
		{"another rejection", 400, `{"code": 3, "message": "invalid policy type"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, ordersPath, tt.status, tt.body)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "policies", "list", "--instance", "prod-pg", "--database", "orders").Expect(t, 6)
			hint := "hint: this version of the service lists no policies of a database: list those of its environment (--environment), its project (--project) or the workspace (--workspace)\n"
			if got := strings.Contains(res.Stderr, hint); got != tt.wantHint {
				t.Errorf("hint shown %v, want %v:\n%s", got, tt.wantHint, res.Stderr)
			}
			res = cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "policies", "list", "--instance", "prod-pg", "--database", "orders", "-o", "json").Expect(t, 6)
			if got := strings.Contains(res.Stderr, `"hint":"this version of the service lists no policies of a database`); got != tt.wantHint {
				t.Errorf("JSON hint shown %v, want %v:\n%s", got, tt.wantHint, res.Stderr)
			}
		})
	}
}

func TestList_parentCompletionOffersNoFiles(t *testing.T) {
	for _, flag := range []string{"--environment", "--project"} {
		t.Run(flag, func(t *testing.T) {
			res := cmdtest.Run(t, cmdtest.Options{}, "__complete", "policies", "list", flag, "").Expect(t, 0)
			if !strings.HasPrefix(res.Stdout, ":4\n") {
				t.Errorf("completion %q, want no values and directive :4 (no file completion)", res.Stdout)
			}
		})
	}
}

func TestList_helpNamesEveryType(t *testing.T) {
	var types []string
	for _, pt := range client.PolicyTypes() {
		types = append(types, string(pt))
	}
	cmdtest.Run(t, cmdtest.Options{}, "policies", "list", "--help").Expect(t, 0).StdoutHas(t, "one of:\n  "+strings.Join(types, ", ")+"\n")
}

func TestList_manyDatabasesFitTheTerminal(t *testing.T) {
	opts := cmdtest.ReferenceServer(t)
	opts.Stdin = "prod-pg/orders\nprod-pg/inventory\nstaging-mysql/orders\n"
	for _, width := range []int{80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			opts.TTY, opts.Width = true, width
			res := cmdtest.Run(t, opts, "policies", "list", "--databases-from", "-").Expect(t, 0)
			cmdtest.Golden(t, fmt.Sprintf("list_many_tty_%d", width), res.Stdout)
		})
	}
}
