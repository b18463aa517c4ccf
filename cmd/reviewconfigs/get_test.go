package reviewconfigs_test

import (
	"fmt"
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

func TestGet_formats(t *testing.T) {
	tests := []struct {
		name string
		args []string
		tty  bool
	}{
		{"table", nil, false},
		{"table_tty", nil, true},
		{"json", []string{"-o", "json"}, false},
		{"yaml", []string{"-o", "yaml"}, false},
		{"name", []string{"-o", "name"}, false},
		{"jq", []string{"--jq", `.rules[] | select(.level == "ERROR") | .type`}, false},
		{"template", []string{"--template", `{{.title}}: {{len .rules}} rules{{"\n"}}`}, false},
		{"no_headers", []string{"--no-headers"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/reviewConfigs/sql-review-prod", 200, sqlReviewProd).Query("")
			args := append([]string{"review-configs", "get", "reviewConfigs/sql-review-prod"}, tt.args...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: tt.tty}, args...).Expect(t, 0)
			if res.Stderr != "" {
				t.Errorf("stderr: %s", res.Stderr)
			}
			cmdtest.Golden(t, "get_"+tt.name, res.Stdout)
		})
	}
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
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, tt.args...).Expect(t, 2).StderrHas(t, tt.want)
			if len(reg.Requests()) != 0 {
				t.Errorf("sent %d requests", len(reg.Requests()))
			}
			_ = res
		})
	}
}

func TestGet_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{}, "review-configs", "get", "x").Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestGet_fitsTheTerminal(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		reg := httpmock.New(t)
		reg.Register(http.MethodGet, "/v1/reviewConfigs/sql-review-prod", 200, sqlReviewProd).Query("")
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: true, Width: width}, "review-configs", "get", "sql-review-prod").Expect(t, 0)
		cmdtest.Golden(t, fmt.Sprintf("get_tty_%d", width), res.Stdout)
	}
}
