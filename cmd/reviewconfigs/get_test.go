package reviewconfigs_test

import (
	"net/http"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

const sqlReviewProd = `{"name": "reviewConfigs/sql-review-prod", "title": "Production review", "enabled": true,
 "resources": ["environments/prod", "projects/shop"],
 "rules": [
  {"type": "naming.table", "level": "ERROR", "engine": "POSTGRES", "namingPayload": {"format": "^[a-z_]+$", "maxLength": 63}},
  {"type": "statement.maximum-limit-value", "level": "WARNING", "engine": "MYSQL", "numberPayload": {"number": 1000}},
  {"type": "column.required", "level": "ERROR", "engine": "MYSQL", "stringArrayPayload": {"list": ["id", "created_at"]}},
  {"type": "table.comment", "level": "WARNING", "engine": "POSTGRES", "commentConventionPayload": {"required": true, "maxLength": 256}},
  {"type": "naming.identifier.case", "level": "ERROR", "engine": "ORACLE", "namingCasePayload": {"upper": true}},
  {"type": "table.disallow-ddl", "level": "WARNING", "engine": "NEWDB", "stringPayload": {"value": "archive\u001b[31m"}}
 ], "futureField": {"x": 1}}`

// get is `dbgov review-configs get` of id, answered with sqlReviewProd.
func get(id string) cmdtest.Command {
	return cmdtest.Command{
		Args: []string{"review-configs", "get", id},
		Serve: func(reg *httpmock.Registry, _ bool) {
			reg.Register(http.MethodGet, "/v1/reviewConfigs/sql-review-prod", 200, sqlReviewProd).Query("")
		},
		JQ:       `.rules[] | select(.level == "ERROR") | .type`,
		Template: `{{.title}}: {{len .rules}} rules{{"\n"}}`,
	}
}

func TestGet_formats(t *testing.T) {
	get("reviewConfigs/sql-review-prod").Goldens(t, "get_", "table", "table_tty", "json", "yaml", "name", "jq", "template", "no_headers")
}

func TestGet_notFound(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/reviewConfigs/nope", 404, `{"code": 5, "message": "review config \"nope\" not found"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "review-configs", "get", "nope").Expect(t, 5)
	if res.Stdout != "" {
		t.Errorf("stdout: %q", res.Stdout)
	}
	want := "dbgov: get review config nope: review config \"nope\" not found (HTTP 404 NOT_FOUND)\n"
	if res.Stderr != want {
		t.Errorf("stderr %q, want %q", res.Stderr, want)
	}
	res = cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "review-configs", "get", "nope", "-o", "json").Expect(t, 5)
	wantJSON := `{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"review config \"nope\" not found","exitCode":5}}` + "\n"
	if res.Stderr != wantJSON {
		t.Errorf("stderr %s, want %s", res.Stderr, wantJSON)
	}
}

func TestGet_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no id", []string{"review-configs", "get"}, "takes a review configuration ID"},
		{"two ids", []string{"review-configs", "get", "a", "b"}, "takes a review configuration ID"},
		{"slash", []string{"review-configs", "get", "a/b"}, "a/b"},
		{"empty", []string{"review-configs", "get", ""}, "empty"},
		{"unknown flag", []string{"review-configs", "get", "a", "--bogus"}, "unknown flag: --bogus"},
		{"bad output", []string{"review-configs", "get", "a", "-o", "xml"}, "xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { cmdtest.Refused(t, cmdtest.Options{}, tt.args, tt.want) })
	}
}

func TestGet_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{}, "review-configs", "get", "x").Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestGet_fitsTheTerminal(t *testing.T) {
	get("sql-review-prod").Goldens(t, "get_", "tty_60", "tty_80", "tty_120")
}
