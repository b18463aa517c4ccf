package faults

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Valid input files, so that each case below has exactly one problem.
const (
	goodCatalog = `{"schemas": [{"name": "public", "tables": [{"name": "customers", "classification": "1-2",
  "columns": {"columns": [{"name": "email", "semanticType": "email", "labels": {"pii": "yes"}}]}}]}]}`
	goodRevisions = `[{"version": "1.0.0", "type": "VERSIONED", "sheet": "projects/shop/sheets/16dc368a89b428b2485484313ba67a3912ca03f2b2b42429174a4f8b3dc84e44"}]`
	goodSchema    = "CREATE TABLE t (id int);\n"
)

// badInput runs dbgov with input that must be refused before anything is
// sent: exit 2, a message naming the problem (each of want, in any case, or
// one of wantAny), no crash, and no request at the server.
func badInput(t *testing.T, o opts, want, wantAny []string, args ...string) result {
	t.Helper()
	srv := newServer(t, always(http.StatusOK, `{}`))
	o.env = withURL(srv, o.env)
	res := run(t, o, args...).expect(t, exitUsage).noPanic(t)
	if len(want) > 0 {
		res.stderrHas(t, want...)
	}
	if len(wantAny) > 0 {
		res.stderrHasAny(t, wantAny...)
	}
	if res.stdout != "" {
		t.Errorf("stdout: %q, want nothing", clip(res.stdout))
	}
	if strings.Contains(strings.ToLower(res.stderr), "unknown command") {
		t.Errorf("dbgov %s: the command does not exist:\n%s", quoteArgs(args), res.stderr)
	}
	if strings.ContainsAny(res.stderr, "\x1b\x07\r") {
		t.Errorf("stderr holds a raw control character: %q", res.stderr)
	}
	srv.expectRequests(t, 0)
	return res
}

func TestBadInput_filesRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	// Each case is a file and what the message must name.
	type fileCase struct {
		name    string
		data    []byte // nil: no file written (see path)
		path    func(dir string) string
		want    []string
		wantAny []string
	}
	parseErr := []string{"syntax", "invalid", "unexpected", "malformed", "parse", "cannot", "did not find", "could not find"}
	catalogCases := []fileCase{
		{name: "malformed JSON", data: []byte(`{"schemas": [{"name": "public",`), wantAny: parseErr},
		{name: "malformed JSON, trailing garbage", data: []byte(`{"schemas": []} {"schemas": []}`), wantAny: parseErr},
		{name: "malformed YAML", data: []byte("schemas:\n  - name: public\n   tables: [\n"), wantAny: parseErr},
		{name: "YAML with a tab", data: []byte("schemas:\n\t- name: public\n"), wantAny: parseErr},
		{name: "unknown field", data: []byte(`{"schemas": [{"name": "public", "tablez": []}]}`), want: []string{"tablez"}},
		{name: "unknown field in YAML", data: []byte("schemas:\n  - name: public\n    colour: blue\n"), want: []string{"colour"}},
		{name: "wrong type", data: []byte(`{"schemas": "public"}`), want: []string{"schemas"}},
		{name: "wrong type deep", data: []byte(`{"schemas": [{"name": "public", "tables": [{"name": 7}]}]}`), want: []string{"name"}},
		{name: "unknown enum value", data: []byte(`{"schemas": [{"name": "s", "tables": [{"name": "t", "objectSchema": {"type": "BOGUS_KIND"}}]}]}`), want: []string{"BOGUS_KIND"}},
		{name: "empty file", data: []byte{}, want: []string{"empty"}},
		{name: "only spaces", data: []byte("  \n\n"), want: []string{"empty"}},
		{name: "binary file", data: []byte("\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe\x00\x01"), wantAny: []string{"binary", "utf-8", "not json", "not valid", "invalid", "control"}},
		{name: "a list", data: []byte(`[{"name": "public"}]`), wantAny: append([]string{"array", "list", "object", "sequence"}, parseErr...)},
		// A catalog update replaces the whole catalog: a file that holds no
		// catalog must not erase it.
		{name: "null", data: []byte(`null`), wantAny: []string{"null", "empty", "object"}},
		{name: "YAML null", data: []byte("~\n"), wantAny: []string{"null", "empty", "object"}},
		{name: "YAML empty document", data: []byte("---\n"), wantAny: []string{"null", "empty", "object"}},
		{name: "directory", path: func(dir string) string { return dir }, want: []string{"directory"}},
		{name: "missing file", path: func(dir string) string { return filepath.Join(dir, "nope.json") }, wantAny: []string{"no such file", "not exist", "not found"}},
		{name: "another database", data: []byte(`{"name": "instances/prod-pg/databases/other/catalog", "schemas": []}`), want: []string{"other"}},
	}
	revisionCases := []fileCase{
		{name: "malformed JSON", data: []byte(`[{"version": "1"`), wantAny: parseErr},
		{name: "malformed YAML", data: []byte("- version: 1\n  type: [VERSIONED\n"), wantAny: parseErr},
		{name: "unknown field", data: []byte(`[{"version": "1", "type": "VERSIONED", "sheetz": "x"}]`), want: []string{"sheetz"}},
		{name: "unknown field of the body", data: []byte(`{"parent": "instances/prod-pg/databases/orders", "requestz": []}`), want: []string{"requestz"}},
		{name: "wrong type", data: []byte(`[{"version": ["1"], "type": "VERSIONED"}]`), want: []string{"version"}},
		{name: "unknown enum value", data: []byte(`[{"version": "1", "type": "SIDEWAYS"}]`), want: []string{"SIDEWAYS"}},
		{name: "empty file", data: []byte{}, want: []string{"empty"}},
		{name: "binary file", data: []byte("\x00\x01\x02\xff\xfe\xfd\x80"), wantAny: []string{"binary", "utf-8", "not json", "not valid", "invalid", "control"}},
		{name: "directory", path: func(dir string) string { return dir }, want: []string{"directory"}},
		{name: "missing file", path: func(dir string) string { return filepath.Join(dir, "nope.yaml") }, wantAny: []string{"no such file", "not exist", "not found"}},
		{name: "parent of another database", data: []byte(`{"parent": "instances/prod-pg/databases/other", "requests": [{"revision": {"version": "1", "type": "VERSIONED"}}]}`), want: []string{"other"}},
		{name: "no revisions", data: []byte(`[]`), wantAny: []string{"no revisions", "empty"}},
		{name: "null", data: []byte(`null`), wantAny: []string{"null", "no revisions", "empty"}},
	}
	commands := []struct {
		name  string
		args  []string
		cases []fileCase
	}{
		{"catalog update", []string{"catalog", "update", "--instance", "prod-pg", "--database", "orders"}, catalogCases},
		{"revisions batch-create", []string{"revisions", "batch-create", "--instance", "prod-pg", "--database", "orders"}, revisionCases},
	}
	for _, c := range commands {
		for _, fc := range c.cases {
			t.Run(c.name+"/"+fc.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				path := filepath.Join(dir, "input.json")
				if fc.path != nil {
					path = fc.path(dir)
				} else if err := os.WriteFile(path, fc.data, 0o600); err != nil {
					t.Fatal(err)
				}
				args := append(append([]string(nil), c.args...), "-f", path)
				badInput(t, opts{}, fc.want, fc.wantAny, args...)
			})
			if fc.data == nil {
				continue
			}
			t.Run(c.name+"/"+fc.name+" on stdin", func(t *testing.T) {
				t.Parallel()
				args := append(append([]string(nil), c.args...), "-f", "-")
				badInput(t, opts{stdin: string(fc.data)}, fc.want, fc.wantAny, args...)
			})
		}
	}
}

// badID is an id no resource can have, and a word its message must hold.
type badID struct {
	name string
	id   string
	want []string // any of
}

var badIDs = []badID{
	{"slash", "a/b", []string{"/"}},
	{"dot dot", "..", []string{".."}},
	{"dot dot inside", "a..b", []string{".."}},
	{"question mark", "a?b", []string{"?"}},
	{"hash", "a#b", []string{"#"}},
	{"percent", "a%2Fb", []string{"%"}},
	{"space", "a b", []string{"space"}},
	{"escape sequence", "a\x1b[31mb", []string{"control"}},
	{"newline", "a\nb", []string{"control", "newline"}},
	{"carriage return", "a\rb", []string{"control"}},
	{"invalid UTF-8", "a\xffb", []string{"utf-8"}},
	// An empty flag value reads as a flag not given.
	{"empty", "", []string{"empty", "required", "needs", "give the"}},
}

func TestBadInput_idsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	schema := writeFile(t, "schema.sql", []byte(goodSchema))
	catalog := writeFile(t, "catalog.json", []byte(goodCatalog))
	revisions := writeFile(t, "revisions.json", []byte(goodRevisions))
	type command struct {
		name  string
		args  func(id string) []string
		stdin func(id string) string
	}
	commands := []command{
		{name: "review-configs get", args: func(id string) []string { return []string{"review-configs", "get", id} }},
		{name: "review-configs get full name", args: func(id string) []string { return []string{"review-configs", "get", "reviewConfigs/" + id} }},
		{name: "users undelete", args: func(id string) []string { return []string{"users", "undelete", id} }},
		{name: "users undelete full name", args: func(id string) []string { return []string{"users", "undelete", "users/" + id} }},
		{name: "users batch-get", args: func(id string) []string { return []string{"users", "batch-get", "ok@x.com", id} }},
		{name: "users batch-get stdin", args: func(string) []string { return []string{"users", "batch-get", "-"} },
			stdin: func(id string) string { return "ok@x.com\nusers/" + id + "\n" }},
		{name: "catalog update --instance", args: func(id string) []string {
			return []string{"catalog", "update", "--instance", id, "--database", "orders", "-f", catalog}
		}},
		{name: "catalog update --database", args: func(id string) []string {
			return []string{"catalog", "update", "--instance", "prod-pg", "--database", id, "-f", catalog}
		}},
		{name: "catalog update full --database", args: func(id string) []string {
			return []string{"catalog", "update", "--database", "instances/" + id + "/databases/orders", "-f", catalog}
		}},
		{name: "revisions batch-create --database", args: func(id string) []string {
			return []string{"revisions", "batch-create", "--instance", "prod-pg", "--database", id, "-f", revisions}
		}},
		{name: "schema diff --instance", args: func(id string) []string {
			return []string{"schema", "diff", "--instance", id, "--database", "orders", "--changelog", "101", "--schema-file", schema}
		}},
		{name: "schema diff --changelog", args: func(id string) []string {
			return []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", id, "--schema-file", schema}
		}},
		{name: "schema diff --target-changelog", args: func(id string) []string {
			return []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", "101", "--target-changelog", id}
		}},
	}
	for _, c := range commands {
		for _, b := range badIDs {
			if (b.id == "" || b.id == "a\nb") && strings.HasSuffix(c.name, "stdin") {
				continue // stdin holds one name a line: these are blank or two names
			}
			t.Run(c.name+"/"+b.name, func(t *testing.T) {
				t.Parallel()
				o := opts{}
				if c.stdin != nil {
					o.stdin = c.stdin(b.id)
				}
				badInput(t, o, nil, b.want, c.args(b.id)...)
			})
		}
	}
}

func TestBadInput_namesOfTheWrongForm(t *testing.T) {
	t.Parallel()
	schema := writeFile(t, "schema.sql", []byte(goodSchema))
	catalog := writeFile(t, "catalog.json", []byte(goodCatalog))
	tests := []struct {
		name string
		args []string
		want []string // any of
	}{
		{"database without databases/", []string{"catalog", "update", "--database", "instances/x", "-f", catalog}, []string{"instances/I/databases/D", "form"}},
		{"database with a trailing part", []string{"catalog", "update", "--database", "instances/x/databases/y/catalog", "-f", catalog}, []string{"instances/I/databases/D", "form"}},
		{"database of another kind", []string{"catalog", "update", "--database", "projects/x/databases/y", "-f", catalog}, []string{"instances/I/databases/D", "form"}},
		{"database without instance", []string{"catalog", "update", "--database", "orders", "-f", catalog}, []string{"instance"}},
		{"instance and database disagree", []string{"catalog", "update", "--instance", "a", "--database", "instances/b/databases/c", "-f", catalog}, []string{"match", "instance"}},
		{"no database", []string{"catalog", "update", "--instance", "a", "-f", catalog}, []string{"database"}},
		{"users/ alone", []string{"users", "undelete", "users/"}, []string{"empty"}},
		{"users/ alone in batch-get", []string{"users", "batch-get", "users/"}, []string{"empty"}},
		{"users/users/", []string{"users", "undelete", "users/users/a@x.com"}, []string{"/"}},
		{"reviewConfigs/a/b", []string{"review-configs", "get", "reviewConfigs/a/b"}, []string{"/"}},
		{"reviewConfigs/ alone", []string{"review-configs", "get", "reviewConfigs/"}, []string{"empty"}},
		{"changelog of another database", []string{"schema", "diff", "--instance", "i", "--database", "d",
			"--changelog", "instances/i/databases/other/changelogs/c", "--schema-file", schema}, []string{"other"}},
		{"changelog of the wrong form", []string{"schema", "diff", "--instance", "i", "--database", "d",
			"--changelog", "changelogs/c", "--schema-file", schema}, []string{"form"}},
		{"target changelog of another database", []string{"schema", "diff", "--instance", "i", "--database", "d",
			"--target-changelog", "instances/i/databases/e/changelogs/1"}, []string{"is not a changelog of instances/i/databases/d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			badInput(t, opts{}, nil, tt.want, tt.args...)
		})
	}
}

func TestBadInput_tokenWithNewline(t *testing.T) {
	t.Parallel()
	const token = "tok-NEWLINE-5e2a\nX-Injected: yes"
	tests := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"DBGOV_TOKEN", map[string]string{"DBGOV_TOKEN": token}, []string{"review-configs", "get", "x"}},
		{"--token", nil, []string{"review-configs", "get", "x", "--token", token}},
		{"--token on a POST", nil, []string{"users", "undelete", "a@x.com", "--token", token}},
		{"DBGOV_TOKEN with a carriage return", map[string]string{"DBGOV_TOKEN": "tok-NEWLINE-5e2a\r"}, []string{"review-configs", "get", "x"}},
		{"service key", map[string]string{"DBGOV_TOKEN": "", "DBGOV_SERVICE_ACCOUNT": "sa@x.com", "DBGOV_SERVICE_KEY": "key-NEWLINE-5e2a\nX: y"}, []string{"review-configs", "get", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := []string{"token"}
			if tt.name == "service key" {
				want = []string{"key"}
			}
			res := badInput(t, opts{env: tt.env}, want, nil, tt.args...)
			if strings.Contains(res.stderr, "NEWLINE-5e2a") {
				t.Errorf("stderr repeats the credential:\n%s", res.stderr)
			}
		})
	}
}

func TestBadInput_flags(t *testing.T) {
	t.Parallel()
	schema := writeFile(t, "schema.sql", []byte(goodSchema))
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want []string // any of
	}{
		{"schema file and target changelog", nil, []string{"schema", "diff", "--instance", "i", "--database", "d", "--changelog", "101",
			"--schema-file", schema, "--target-changelog", "102"}, []string{"schema-file", "target-changelog"}},
		{"neither schema file nor target changelog", nil, []string{"schema", "diff", "--instance", "i", "--database", "d", "--changelog", "101"},
			[]string{"schema-file", "target-changelog"}},
		{"unknown -o", nil, []string{"review-configs", "get", "x", "-o", "xml"}, []string{"xml"}},
		{"unknown -o in DBGOV_OUTPUT", map[string]string{"DBGOV_OUTPUT": "xml"}, []string{"review-configs", "get", "x"}, []string{"xml"}},
		{"jq and template", nil, []string{"review-configs", "get", "x", "--jq", ".name", "--template", "{{.name}}"}, []string{"jq", "template"}},
		{"jq that does not compile", nil, []string{"review-configs", "get", "x", "--jq", ".name |||"}, []string{"jq"}},
		{"template that does not parse", nil, []string{"review-configs", "get", "x", "--template", "{{.name"}, []string{"template"}},
		{"negative timeout", nil, []string{"review-configs", "get", "x", "--timeout", "-1s"}, []string{"timeout"}},
		{"timeout without unit", nil, []string{"review-configs", "get", "x", "--timeout", "5"}, []string{"timeout", "duration"}},
		{"header without colon", nil, []string{"review-configs", "get", "x", "--header", "X-Proxy-Auth"}, []string{"header"}},
		{"header with CRLF", nil, []string{"review-configs", "get", "x", "--header", "X-A: b\r\nX-Injected: yes"}, []string{"header"}},
		{"header name with space", nil, []string{"review-configs", "get", "x", "--header", "X A: b"}, []string{"header"}},
		{"url of another scheme", map[string]string{"DBGOV_URL": "ftp://127.0.0.1/"}, []string{"review-configs", "get", "x"}, []string{"url", "http"}},
		{"url without host", map[string]string{"DBGOV_URL": "http://"}, []string{"review-configs", "get", "x"}, []string{"url", "host"}},
		{"unknown flag", nil, []string{"review-configs", "get", "x", "--colour"}, []string{"colour"}},
		{"extra argument", nil, []string{"review-configs", "get", "x", "y"}, []string{"argument"}},
		{"missing ca-cert", nil, []string{"review-configs", "get", "x", "--ca-cert", "/nonexistent/ca.pem"}, []string{"ca"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			badInput(t, opts{env: tt.env}, nil, tt.want, tt.args...)
		})
	}
}

func TestBadInput_noURL(t *testing.T) {
	t.Parallel()
	res := run(t, opts{env: map[string]string{"DBGOV_TOKEN": "t"}}, "review-configs", "get", "x").expect(t, exitUsage)
	res.stderrHas(t, "url")
}
