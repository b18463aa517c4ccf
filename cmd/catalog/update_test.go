package catalog_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

const catalogPath = "/v1/instances/prod-pg/databases/orders/catalog"

// sentCatalog is the body dbgov sends for testdata/catalog.yaml and
// testdata/catalog.json: the catalog with its name filled in.
const sentCatalog = `{"name": "instances/prod-pg/databases/orders/catalog", "schemas": [
 {"name": "public", "tables": [
  {"name": "customers", "classification": "1-2", "columns": {"columns": [
   {"name": "email", "semanticType": "email", "classification": "1-1", "labels": {"owner": "crm", "pii": "yes", "retention": "7y"}},
   {"name": "id"}]}},
  {"name": "orders", "columns": {"columns": [
   {"name": "card_number", "semanticType": "credit-card", "classification": "1-1", "labels": {"pii": "yes"}},
   {"name": "payload", "objectSchema": {"type": "OBJECT", "structKind": {"properties": {"address": {"type": "STRING", "semanticType": "address"}}}}}]}}]},
 {"name": "audit", "tables": [{"name": "events", "classification": "2"}]}]}`

// updatedCatalog is what the service answers: protobuf JSON with odd
// spacing, a field this version does not know, and a hostile label value.
const updatedCatalog = `{"name" : "instances/prod-pg/databases/orders/catalog", "schemas": [
 {"name": "public", "tables": [
  {"name": "customers", "classification": "1-2", "columns": {"columns": [
   {"name": "email", "semanticType": "email", "classification": "1-1", "labels": {"retention": "7y", "pii": "yes", "owner": "crm"}},
   {"name": "id"}]}},
  {"name": "orders", "columns": {"columns": [
   {"name": "card_number", "semanticType": "credit-card", "classification": "1-1", "labels": {"pii": "yes", "note": "\u001b[2Jgone"}},
   {"name": "payload", "objectSchema": {"type": "OBJECT", "structKind": {"properties": {"address": {"type": "STRING", "semanticType": "address"}}}}}]}}]},
 {"name": "audit", "tables": [{"name": "events", "classification": "2"}]}],
 "etag": "c-42"}`

func update(extra ...string) []string {
	return append([]string{"catalog", "update", "--instance", "prod-pg", "--database", "orders"}, extra...)
}

func TestUpdate_formats(t *testing.T) {
	updateFile := cmdtest.Command{
		Args: update("-f", "testdata/catalog.yaml"),
		Serve: func(reg *httpmock.Registry, _ bool) {
			reg.Register(http.MethodPatch, catalogPath, 200, updatedCatalog).Query("").JSONBody(sentCatalog)
		},
		JQ:       `.schemas[].tables[] | select(.classification != null) | "\(.name) \(.classification)"`,
		Template: `{{range .schemas}}{{.name}}: {{len .tables}} tables{{"\n"}}{{end}}`,
	}
	updateFile.Goldens(t, "update_", "table", "table_tty", "json", "yaml", "name", "jq", "template", "no_headers")
}

func TestUpdate_sendsTheFileWithItsNameFilled(t *testing.T) {
	yamlFile, err := os.ReadFile("testdata/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	jsonFile, err := os.ReadFile("testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	named := cmdtest.WriteFile(t, "named.json", strings.Replace(string(jsonFile), "{", `{"name": "instances/prod-pg/databases/orders/catalog",`, 1))
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"yaml file", update("-f", "testdata/catalog.yaml"), ""},
		{"json file", update("-f", "testdata/catalog.json"), ""},
		{"yaml on stdin", update("-f", "-"), string(yamlFile)},
		{"json on stdin", update("--file", "-"), string(jsonFile)},
		{"its own name given", update("-f", named), ""},
		{"full database name", []string{"catalog", "update", "--database", "instances/prod-pg/databases/orders", "-f", "testdata/catalog.json"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPatch, catalogPath, 200, updatedCatalog).Query("").JSONBody(sentCatalog)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: tt.stdin}, append(tt.args, "-o", "name")...).Expect(t, 0)
			if n := len(reg.Requests()); n != 1 {
				t.Errorf("sent %d requests, want 1", n)
			}
		})
	}
}

func TestUpdate_sendsTheFileDecodedAndEncodedAgain(t *testing.T) {
	named := `{"name": "instances/prod-pg/databases/orders/catalog", "schemas": [{"name": "public", "tables": [{"name": "t", "columns": {"columns": [{"name": "caf\u00e9", "labels": {"b": "2", "a": "1"}}]}}]}]}`
	tests := []struct {
		name, file, sent string
	}{
		{"named", named, `{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"public","tables":[{"name":"t","columns":{"columns":[{"name":"café","labels":{"a":"1","b":"2"}}]}}]}]}`},
		{"unnamed", `{ "schemas": []}`, `{"name":"instances/prod-pg/databases/orders/catalog"}`},
		{"empty", ` { } `, `{"name":"instances/prod-pg/databases/orders/catalog"}`},
		{"schemas without a name or tables", `{"schemas": [{"name": "a", "tables": []}, {"tables": [{"name": "t"}]}, {}]}`,
			`{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"a"},{"tables":[{"name":"t"}]},{}]}`},
		// A null is dropped, an enum value in another case is spelt as the
		// service knows it, a YAML file becomes JSON.
		{"null", `{"schemas": [{"name": "public", "tables": null}]}`, `{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"public"}]}`},
		{"enum case", `{"schemas": [{"name": "p", "tables": [{"name": "t", "objectSchema": {"type": "string"}}]}]}`, `{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"p","tables":[{"name":"t","objectSchema":{"type":"STRING"}}]}]}`},
		{"yaml", "schemas: []\n", `{"name":"instances/prod-pg/databases/orders/catalog"}`},
		{"names after the tables", `{"schemas": [{"tables": [{"name": "t"}], "name": "p"}, {"tables": [], "name": "q"}], "name": "instances/prod-pg/databases/orders/catalog"}`,
			`{"name":"instances/prod-pg/databases/orders/catalog","schemas":[{"name":"p","tables":[{"name":"t"}]},{"name":"q"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := cmdtest.WriteFile(t, "catalog.json", tt.file)
			reg := httpmock.New(t)
			reg.Register(http.MethodPatch, catalogPath, 200, `{"name": "instances/prod-pg/databases/orders/catalog"}`)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, update("-f", file, "-o", "name")...).Expect(t, 0)
			if got := reg.Requests(); len(got) != 1 || string(got[0].Body) != tt.sent {
				t.Errorf("sent %q, want %q", got[0].Body, tt.sent)
			}
		})
	}
}

func TestUpdate_emptyCatalogReplacesEverything(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPatch, catalogPath, 200, `{"name": "instances/prod-pg/databases/orders/catalog"}`).
		JSONBody(`{"name": "instances/prod-pg/databases/orders/catalog"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: "{}"}, update("-f", "-")...).Expect(t, 0)
	want := "SCHEMA   TABLE   COLUMN   SEMANTIC TYPE   CLASSIFICATION   LABELS\n"
	if res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
}

func TestUpdate_dryRunSendsNothing(t *testing.T) {
	for _, format := range []string{"table", "json"} {
		t.Run(format, func(t *testing.T) {
			reg := httpmock.New(t)
			args := update("-f", "testdata/catalog.yaml", "--dry-run", "-o", format)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 0)
			if len(reg.Requests()) != 0 {
				t.Errorf("sent %d requests", len(reg.Requests()))
			}
			got := strings.ReplaceAll(res.Stdout, reg.URL(), "http://dbgov.test")
			cmdtest.Golden(t, "update_dry_run_"+format, got)
		})
	}
}

func TestUpdate_refusesBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return cmdtest.WriteFile(t, name, content) }
	tests := []struct {
		name  string
		file  string
		stdin string
		want  []string
	}{
		{"unknown field", write("unknown.yaml", "schemas:\n  - name: public\n    tables:\n      - name: t\n        colums: {}\n"),
			"", []string{"unknown.yaml", "line 5", `unknown field "colums"`, "schemas[0].tables[0]"}},
		{"unknown field in json", write("unknown.json", `{"schemas": [{"name": "public", "tabels": []}]}`),
			"", []string{"unknown.json", `unknown field "tabels"`}},
		{"wrong type", write("type.yaml", "schemas:\n  name: public\n"), "", []string{"type.yaml", "field schemas", "wrong type", "list"}},
		{"wrong type of a label", write("label.json", `{"schemas": [{"tables": [{"columns": {"columns": [{"labels": {"pii": true}}]}}]}]}`),
			"", []string{"label.json", "labels", "wrong type"}},
		{"unknown enum", write("enum.yaml", "schemas:\n  - tables:\n      - objectSchema: {type: MAP}\n"),
			"", []string{"enum.yaml", "schemas[0].tables[0].objectSchema.type", `"MAP"`}},
		{"empty file", write("empty.yaml", "\n  \n"), "", []string{"empty.yaml is empty"}},
		{"empty stdin", "-", "", []string{"standard input", "empty"}},
		{"missing file", filepath.Join(dir, "nope.yaml"), "", []string{"nope.yaml", "no such file"}},
		{"a directory", dir, "", []string{"is a directory"}},
		{"not a document", write("list.json", `[{"name": "public"}]`), "", []string{"list.json", "wrong type"}},
		{"another database's catalog", write("other.yaml", "name: instances/prod-pg/databases/inventory/catalog\n"),
			"", []string{"other.yaml", `"instances/prod-pg/databases/inventory/catalog"`, "instances/prod-pg/databases/orders/catalog"}},
		{"not a catalog name", write("bad.yaml", "name: orders\n"), "", []string{"bad.yaml", `"orders"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: tt.stdin}, update("-f", tt.file)...).Expect(t, 2).StderrHas(t, tt.want...)
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
			if !strings.HasPrefix(res.Stderr, "dbgov: ") || strings.Count(res.Stderr, "\n") != 1 {
				t.Errorf("stderr is not one line: %q", res.Stderr)
			}
			if len(reg.Requests()) != 0 {
				t.Errorf("sent %d requests", len(reg.Requests()))
			}
		})
	}
}

func TestUpdate_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", update(), "-f/--file is required"},
		{"no database", []string{"catalog", "update", "--instance", "prod-pg", "-f", "testdata/catalog.yaml"}, "--database is required"},
		{"no instance", []string{"catalog", "update", "--database", "orders", "-f", "testdata/catalog.yaml"}, "instance"},
		{"bad database id", update("-f", "testdata/catalog.yaml", "--database", "a/b"), "a/b"},
		{"an argument", update("-f", "testdata/catalog.yaml", "extra"), "takes no arguments"},
		{"unknown flag", update("-f", "testdata/catalog.yaml", "--replace"), "unknown flag: --replace"},
		{"merge with allow-missing", update("-f", "testdata/catalog.yaml", "--merge", "--allow-missing"), "--allow-missing"},
		{"bad output", update("-f", "testdata/catalog.yaml", "-o", "xml"), "xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmdtest.Refused(t, cmdtest.Options{}, tt.args, tt.want)
		})
	}
}

func TestUpdate_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{}, update("-f", "testdata/catalog.yaml")...).Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestUpdate_serviceErrors(t *testing.T) {
	for _, tt := range cmdtest.ServiceErrors() {
		t.Run(tt.CodeName, func(t *testing.T) {
			reg := httpmock.New(t)
			body := tt.Body("catalog says no")
			reg.Register(http.MethodPatch, catalogPath, tt.Status, body).Times(1)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, update("-f", "testdata/catalog.yaml")...).Expect(t, tt.Exit)
			if res.Stdout != "" {
				t.Errorf("stdout: %q", res.Stdout)
			}
			want := fmt.Sprintf("dbgov: update the catalog of instances/prod-pg/databases/orders: catalog says no (HTTP %d %s)\n", tt.Status, tt.CodeName)
			if line, _, _ := strings.Cut(res.Stderr, "\n"); line+"\n" != want {
				t.Errorf("stderr %q, want first line %q", res.Stderr, want)
			}

			reg.Register(http.MethodPatch, catalogPath, tt.Status, body).Times(1)
			res = cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, update("-f", "testdata/catalog.yaml", "-o", "json")...).Expect(t, tt.Exit)
			var got struct {
				Error struct {
					HTTPStatus int    `json:"httpStatus"`
					Code       string `json:"code"`
					Message    string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(res.Stderr), &got); err != nil {
				t.Fatalf("stderr is not one JSON document: %v\n%s", err, res.Stderr)
			}
			if got.Error.HTTPStatus != tt.Status || got.Error.Code != tt.CodeName || got.Error.Message != "catalog says no" {
				t.Errorf("JSON error %+v", got.Error)
			}
		})
	}
}

func TestUpdate_answerThatIsNotACatalog(t *testing.T) {
	// In every format: the formats for scripts refuse it too.
	for _, args := range [][]string{nil, {"--jq", ".schemas.name"}, {"-o", "json"}} {
		reg := httpmock.New(t)
		reg.Register(http.MethodPatch, catalogPath, 200, `{"name": "instances/prod-pg/databases/orders/catalog", "schemas": {"name": "public"}}`).Times(1)
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, update(append([]string{"-f", "testdata/catalog.yaml"}, args...)...)...).
			Expect(t, 1).StderrHas(t, "update the catalog of instances/prod-pg/databases/orders", "not a catalog")
		if res.Stdout != "" {
			t.Errorf("%v: stdout %q", args, res.Stdout)
		}
	}
}

func TestUpdate_fitsTheTerminal(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		reg := httpmock.New(t)
		reg.Register(http.MethodPatch, catalogPath, 200, updatedCatalog).Query("").JSONBody(sentCatalog)
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: true, Width: width}, update("-f", "testdata/catalog.yaml")...).Expect(t, 0)
		cmdtest.Golden(t, fmt.Sprintf("update_tty_%d", width), res.Stdout)
	}
}
