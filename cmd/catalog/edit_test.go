package catalog_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// serviceCatalog is the catalog the service holds in these tests: protobuf
// JSON with odd spacing, fields this version does not know, a table with
// an object schema, and the empty schema name of MySQL.
const serviceCatalog = `{"name" : "instances/prod-pg/databases/orders/catalog", "schemas": [
 {"name": "public", "tables": [
  {"name": "customers", "classification": "1-2", "etag": "t-7", "columns": {"columns": [
   {"name": "email", "semanticType": "email", "classification": "1-1", "labels": {"pii": "yes", "owner": "crm"}},
   {"name": "id", "future": {"a": 1}}]}},
  {"name": "events", "objectSchema": {"type": "OBJECT", "structKind": {"properties": {"kind": {"type": "STRING"}}}}}]},
 {"tables": [{"name": "legacy", "classification": "3"}]}]}`

func catalogCmd(verb string, extra ...string) []string {
	return append([]string{"catalog", verb, "--instance", "prod-pg", "--database", "orders"}, extra...)
}

func TestGet_formats(t *testing.T) {
	get := cmdtest.Command{
		Args: catalogCmd("get"),
		Serve: func(reg *httpmock.Registry, _ bool) {
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Query("")
		},
		JQ: ".schemas[].tables[].name",
	}
	get.Goldens(t, "get_", "table", "json", "yaml", "name", "jq")
}

func TestGet_errors(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, catalogPath, 404, `{"code": 5, "message": "catalog not found"}`)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("get")...).Expect(t, 5).
		StderrHas(t, "dbgov: read the catalog of instances/prod-pg/databases/orders: catalog not found (HTTP 404 NOT_FOUND)")
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "catalog", "get", "--instance", "prod-pg").Expect(t, 2).StderrHas(t, "--database is required")
}

// desired is a catalog file: customers.email reclassified and relabelled,
// customers.id and events left out, a column added, the empty schema's
// table reclassified.
const desired = `schemas:
  - name: public
    tables:
      - name: customers
        classification: "1-2"
        columns:
          columns:
            - name: email
              semanticType: email
              classification: "1-2"
              labels: {owner: crm, gdpr: art-9}
            - name: phone
              semanticType: phone-number
  - name: ""
    tables:
      - name: legacy
        classification: "2"
`

func TestDiff_printsWhatTheFileWouldChange(t *testing.T) {
	file := cmdtest.WriteFile(t, "catalog.yaml", desired)
	tests := []struct {
		name string
		args []string
		code int
		tty  bool // on a terminal, in colour: + green, - red, ~ yellow
	}{
		{"table", nil, 0, false},
		{"json", []string{"-o", "json"}, 0, false},
		{"exit_code", []string{"--exit-code"}, 9, false},
		{"terminal", []string{"--color", "always"}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: tt.tty}, catalogCmd("diff", append([]string{"-f", file}, tt.args...)...)...).Expect(t, tt.code)
			if res.Stderr != "" {
				t.Errorf("stderr: %s", res.Stderr)
			}
			cmdtest.Golden(t, "diff_"+tt.name, res.Stdout)
		})
	}
}

// knownCatalog is serviceCatalog without the fields this version does not
// know, which a file may not hold.
var knownCatalog = strings.NewReplacer(`"etag": "t-7", `, "", `, "future": {"a": 1}`, "").Replace(serviceCatalog)

func TestDiff_noChanges(t *testing.T) {
	file := cmdtest.WriteFile(t, "same.json", knownCatalog)
	for _, args := range [][]string{{"--exit-code"}, {"--exit-code", "-o", "json"}} {
		reg := httpmock.New(t)
		reg.Register(http.MethodGet, catalogPath, 200, knownCatalog).Times(1)
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("diff", append([]string{"-f", file}, args...)...)...).Expect(t, 0)
		if want := map[int]string{1: "", 3: "{\n  \"changes\": []\n}\n"}[len(args)]; res.Stdout != want {
			t.Errorf("%v: stdout %q, want %q", args, res.Stdout, want)
		}
	}
}

func TestDiff_refusesABadFileBeforeSending(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string
	}{
		{"a list", `[{"name": "public"}]`, []string{"bad.yaml", "holds no catalog"}},
		{"null", "null\n", []string{"bad.yaml", "holds no catalog"}},
		{"not YAML", "schemas: [\n", []string{"bad.yaml"}},
		{"no file", "", []string{"bad.yaml is empty"}},
		{"a member given twice", `{"schemas": [], "schemas": []}`, []string{"bad.yaml", `field "schemas" is given twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmdtest.Refused(t, cmdtest.Options{}, catalogCmd("diff", "-f", cmdtest.WriteFile(t, "bad.yaml", tt.content)), tt.want...)
		})
	}
	cmdtest.Run(t, cmdtest.Options{URL: "http://127.0.0.1:1"}, catalogCmd("diff")...).Expect(t, 2).StderrHas(t, "-f/--file is required")
}

func TestDiff_refusesAFileTheCatalogCannotHold(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"a table given twice", `{"schemas": [{"name": "public", "tables": [{"name": "t"}, {"name": "t"}]}]}`, "public.t is given twice"},
		{"another catalog", `{"name": "instances/prod-pg/databases/inventory/catalog"}`, "instances/prod-pg/databases/inventory/catalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("diff", "-f", cmdtest.WriteFile(t, "twice.json", tt.content))...).
				Expect(t, 2).StderrHas(t, "twice.json", tt.want)
		})
	}
}

func TestDiffAndMerge_checkTheFileAsUpdateDoes(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string
	}{
		{"a misspelt field", "schemas:\n  - name: public\n    tables:\n      - name: customers\n        columns:\n          columns:\n            - name: email\n              semanticTyp: email\n",
			[]string{"line 8", `unknown field "semanticTyp"`, "schemas[0].tables[0].columns.columns[0]"}},
		{"a field in another case", `{"schemas": [{"name": "public", "Tables": []}]}`, []string{`unknown field "Tables"`, "schemas[0]"}},
		{"labels in two cases", `{"schemas": [{"name": "public", "tables": [{"name": "customers", "columns": {"columns": [{"name": "email", "labels": {"a": "1"}, "Labels": {"b": "2"}}]}}]}]}`,
			[]string{`unknown field "Labels"`}},
		{"tables that are no list", `{"schemas": [{"name": "public", "tables": {"name": "t"}}]}`, []string{"schemas[0].tables", "wrong type: got an object, want a list"}},
		{"a label that is no string", `{"schemas": [{"tables": [{"name": "t", "columns": {"columns": [{"name": "c", "labels": {"pii": true}}]}}]}]}`, []string{"labels", "wrong type"}},
	}
	for _, verb := range [][]string{{"diff"}, {"update", "--merge"}, {"update", "--merge", "--dry-run"}} {
		for _, tt := range tests {
			t.Run(strings.Join(verb, " ")+"/"+tt.name, func(t *testing.T) {
				args := catalogCmd(verb[0], append(verb[1:], "-f", cmdtest.WriteFile(t, "file.yaml", tt.content))...)
				cmdtest.Refused(t, cmdtest.Options{}, args, append([]string{"file.yaml"}, tt.want...)...)
			})
		}
	}
}

func TestMerge_aLabelGivenAsNullIsRemoved(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
	file := cmdtest.WriteFile(t, "c.yaml", "schemas: [{name: public, tables: [{name: customers, columns: {columns: [{name: email, labels: {pii: null}, classification: null}]}}]}]\n")
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("update", "--merge", "--dry-run", "-f", file, "-o", "json", "--jq", ".changes[] | .op + \" \" + .field")...).Expect(t, 0)
	if want := "remove classification\nremove labels.pii\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
}

// merged is serviceCatalog with desired laid over it.
const merged = `{"name":"instances/prod-pg/databases/orders/catalog","schemas":[
 {"name":"public","tables":[
  {"name":"customers","classification":"1-2","etag":"t-7","columns":{"columns":[
   {"name":"email","semanticType":"email","classification":"1-2","labels":{"pii":"yes","owner":"crm","gdpr":"art-9"}},
   {"name":"id","future":{"a":1}},
   {"name":"phone","semanticType":"phone-number"}]}},
  {"name":"events","objectSchema":{"type":"OBJECT","structKind":{"properties":{"kind":{"type":"STRING"}}}}}]},
 {"tables":[{"name":"legacy","classification":"2"}],"name":""}]}`

// TestUpdateMerge_readsTwiceThenSendsTheMergedCatalog runs update --merge in
// two formats, then again with --dry-run, which reads once and sends nothing.
func TestUpdateMerge_readsTwiceThenSendsTheMergedCatalog(t *testing.T) {
	file := cmdtest.WriteFile(t, "catalog.yaml", desired)
	for _, format := range []string{"table", "json"} {
		t.Run(format, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
			// The second read finds the same catalog, written otherwise.
			reg.Register(http.MethodGet, catalogPath, 200, strings.ReplaceAll(serviceCatalog, `"name" : "instances`, `"name":"instances`)).Times(1)
			reg.Register(http.MethodPatch, catalogPath, 200, merged).Query("").JSONBody(merged).Times(1)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("update", "--merge", "-f", file, "-o", format)...).Expect(t, 0)
			if res.Stderr != "" {
				t.Errorf("stderr: %s", res.Stderr)
			}
			cmdtest.Golden(t, "merge_"+format, res.Stdout)
			var methods []string
			for _, r := range reg.Requests() {
				methods = append(methods, r.Method)
			}
			if got := strings.Join(methods, " "); got != "GET GET PATCH" {
				t.Errorf("requests %s, want GET GET PATCH", got)
			}
		})
		t.Run(format+" dry run reads only", func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("update", "--merge", "--dry-run", "-f", file, "-o", format)...).Expect(t, 0)
			cmdtest.Golden(t, "merge_dry_run_"+format, strings.ReplaceAll(res.Stdout, reg.URL(), "http://dbgov.test"))
		})
	}
}

func TestUpdateMerge_unchangedSendsNoPatch(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
	file := cmdtest.WriteFile(t, "same.yaml", "schemas: [{name: public, tables: [{name: customers, classification: \"1-2\"}]}]\n")
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("update", "--merge", "-f", file)...).Expect(t, 0).
		StderrHas(t, "No changes: the catalog of instances/prod-pg/databases/orders is already as asked; nothing is sent")
	if res.Stdout != "" {
		t.Errorf("stdout %q", res.Stdout)
	}
}

func TestUpdateMerge_refusesWhenTheCatalogChangedMeanwhile(t *testing.T) {
	for _, args := range [][]string{nil, {"-o", "json"}} {
		reg := httpmock.New(t)
		reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
		reg.Register(http.MethodGet, catalogPath, 200, strings.Replace(serviceCatalog, `"classification": "3"`, `"classification": "4"`, 1)).Times(1)
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("update", append([]string{"--merge", "-f", cmdtest.WriteFile(t, "c.yaml", desired)}, args...)...)...).
			Expect(t, 6).StderrHas(t, "the catalog of instances/prod-pg/databases/orders changed while it was being merged: nothing was written")
		if args != nil {
			res.StderrHas(t, `"code":"ABORTED"`, `"exitCode":6`)
		}
		if res.Stdout != "" {
			t.Errorf("stdout %q", res.Stdout)
		}
		if n := len(reg.Requests()); n != 2 {
			t.Errorf("sent %d requests, want the two reads", n)
		}
	}
}

func TestUpdate_allowMissingRefusedSaysSo(t *testing.T) {
	// Every release answers it 403, for everyone: it is refused before sending.
	for _, more := range [][]string{nil, {"--merge"}, {"--dry-run"}} {
		cmdtest.Refused(t, cmdtest.Options{}, update(append([]string{"-f", "testdata/catalog.yaml", "--allow-missing"}, more...)...),
			"--allow-missing: no release of the service grants it", "nothing was sent")
	}
}

func TestSet_changesOneObject(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		lines string
	}{
		{"column classification", []string{"--schema", "public", "--table", "customers", "--column", "email", "--classification", "1-2"},
			"~ public.customers.email classification: 1-1 → 1-2\n"},
		{"labels set and removed", []string{"--schema", "public", "--table", "customers", "--column", "email", "--label", "gdpr=art-9", "--label", "owner=billing", "--remove-label", "pii"},
			"- public.customers.email labels.pii: yes\n~ public.customers.email labels.owner: crm → billing\n+ public.customers.email labels.gdpr: art-9\n"},
		{"semantic type removed", []string{"--schema", "public", "--table", "customers", "--column", "email", "--semantic-type", ""},
			"- public.customers.email semanticType: email\n"},
		{"table of the empty schema", []string{"--table", "legacy", "--classification", "1"},
			"~ .legacy classification: 3 → 1\n"},
		{"column created", []string{"--schema", "public", "--table", "customers", "--column", "phone", "--semantic-type", "phone-number", "--create"},
			"+ public.customers.phone\n+ public.customers.phone semanticType: phone-number\n"},
		{"table and schema created", []string{"--schema", "billing", "--table", "invoices", "--classification", "1", "--create"},
			"+ billing\n+ billing.invoices\n+ billing.invoices classification: 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(2)
			reg.Register(http.MethodPatch, catalogPath, 200, serviceCatalog).Times(1)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("set", tt.args...)...).Expect(t, 0)
			if res.Stdout != tt.lines {
				t.Errorf("stdout\n%s\nwant\n%s", res.Stdout, tt.lines)
			}
		})
	}
}

func TestSet_sendsTheCatalogWithTheOneChange(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(2)
	want := strings.Replace(strings.Replace(serviceCatalog, `"name" : "instances`, `"name": "instances`, 1), `"name": "id", "future"`, `"name": "id", "semanticType": "uuid", "future"`, 1)
	reg.Register(http.MethodPatch, catalogPath, 200, want).JSONBody(want)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("set", "--schema", "public", "--table", "customers", "--column", "id", "--semantic-type", "uuid", "-o", "name")...).Expect(t, 0)
}

func TestSet_aMissingObjectNeedsCreate(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"column", []string{"--schema", "public", "--table", "customers", "--column", "fax", "--classification", "1"}, "column public.customers.fax is not in the catalog of instances/prod-pg/databases/orders (--create creates it)"},
		{"table", []string{"--schema", "public", "--table", "invoices", "--classification", "1"}, "table public.invoices is not in the catalog"},
		{"schema", []string{"--schema", "billing", "--table", "invoices", "--column", "id", "--classification", "1"}, "schema billing is not in the catalog"},
		{"dry run", []string{"--table", "nope", "--classification", "1", "--dry-run"}, "table .nope is not in the catalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("set", tt.args...)...).Expect(t, 5).StderrHas(t, "dbgov: "+tt.want)
			if res.Stdout != "" {
				t.Errorf("stdout %q", res.Stdout)
			}
		})
	}
}

func TestSet_dryRun(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("set", "--table", "legacy", "--classification", "1", "--dry-run", "-o", "json")...).Expect(t, 0)
	cmdtest.Golden(t, "set_dry_run_json", strings.ReplaceAll(res.Stdout, reg.URL(), "http://dbgov.test"))
}

func TestSet_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no table", []string{"--classification", "1"}, "--table is required"},
		{"nothing to change", []string{"--table", "t"}, "nothing to change"},
		{"semantic type of a table", []string{"--table", "t", "--semantic-type", "email"}, "need --column"},
		{"label of a table", []string{"--table", "t", "--label", "a=b"}, "need --column"},
		{"label without a value", []string{"--table", "t", "--column", "c", "--label", "a"}, `label "a": want key=value`},
		{"label set and removed", []string{"--table", "t", "--column", "c", "--label", "a=b", "--remove-label", "a"}, `label "a": want key=value for --label, a key for --remove-label, each key once`},
		{"empty column", []string{"--table", "t", "--column", "", "--classification", "1"}, "--column needs a column name"},
		{"an argument", []string{"--table", "t", "--classification", "1", "extra"}, "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmdtest.Refused(t, cmdtest.Options{}, catalogCmd("set", tt.args...), tt.want)
		})
	}
}

func TestSet_withoutSchemaNamesTheSchemas(t *testing.T) {
	reg := httpmock.New(t)
	named := `{"name": "instances/prod-pg/databases/orders/catalog", "schemas": [{"name": "public", "tables": [{"name": "customers"}]}, {"name": "audit"}]}`
	reg.Register(http.MethodGet, catalogPath, 200, named).Times(1)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("set", "--table", "customers", "--classification", "1")...).Expect(t, 5).
		StderrHas(t, "the catalog of instances/prod-pg/databases/orders has no schema without a name: give --schema, one of public, audit")
}

func TestWriters_aFailingFilterSaysTheCatalogWasWritten(t *testing.T) {
	for verb, args := range writers() {
		for _, filter := range [][]string{{"--jq", "{} + 1"}, {"--template", "{{index .schemas 99}}"}} {
			t.Run(verb+filter[0], func(t *testing.T) {
				reg := httpmock.New(t)
				if verb != "update" {
					reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(2)
				}
				reg.Register(http.MethodPatch, catalogPath, 200, serviceCatalog).Times(1)
				cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, append(args, filter...)...).Expect(t, 1).
					StderrHas(t, "the catalog of instances/prod-pg/databases/orders was written, but showing it failed")
			})
		}
	}
}

func TestMerge_noChangesUnderJSONWritesOnlyJSONToStderr(t *testing.T) {
	file := cmdtest.WriteFile(t, "same.yaml", "schemas: [{name: public, tables: [{name: customers, classification: \"1-2\"}]}]\n")
	for _, args := range [][]string{{"-o", "json"}, {"--jq", ".changes"}} {
		reg := httpmock.New(t)
		reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("update", append([]string{"--merge", "-f", file}, args...)...)...).Expect(t, 0)
		if res.Stderr != "" {
			t.Errorf("%v: stderr %q, want nothing that is not JSON", args, res.Stderr)
		}
	}
}

func TestGet_manyDatabasesShowAnEmptyCatalog(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, catalogPath, 200, `{"name": "instances/prod-pg/databases/orders/catalog", "schemas": [{"name": "public", "tables": [{"name": "t"}]}]}`)
	reg.Register(http.MethodGet, "/v1/instances/prod-pg/databases/empty/catalog", 200, `{"name": "instances/prod-pg/databases/empty/catalog"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: "prod-pg/orders\nprod-pg/empty\n"}, "catalog", "get", "--databases-from", "-", "--concurrency", "1").Expect(t, 0)
	want := "DATABASE         SCHEMA   TABLE             COLUMN   SEMANTIC TYPE   CLASSIFICATION   LABELS\n" +
		"prod-pg/orders   public   t\n" +
		"prod-pg/empty             (empty catalog)\n"
	if res.Stdout != want {
		t.Errorf("stdout\n%q\nwant\n%q", res.Stdout, want)
	}
}
