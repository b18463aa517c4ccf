package schema_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

const (
	diffPath      = "/v1/instances/prod-pg/databases/orders/changelogs/101:diffSchema"
	dbDiffPath    = "/v1/instances/prod-pg/databases/orders:diffSchema"
	changelogName = "instances/prod-pg/databases/orders/changelogs/101"

	targetSchema = `CREATE TABLE orders (
  id bigint PRIMARY KEY,
  customer_id bigint NOT NULL,
  shipped_at timestamptz
);
CREATE INDEX orders_customer_idx ON orders (customer_id);
`

	// diffAnswer is a diff as the service sends it, oddly spaced, with a
	// field this version does not know and an escape sequence that must
	// not reach a terminal raw.
	diffAnswer = `{"diff": "ALTER TABLE \"public\".\"orders\" ADD COLUMN \"shipped_at\" timestamptz;\n\nCREATE INDEX \"orders_customer_idx\" ON \"public\".\"orders\" (\"customer_id\");\n-- note: \u001b[31mreview\u001b[0m the index build time\n" , "futureField": 1}`
)

// A changelog compares with schema text only where the service diffs
// through its declarative format: PostgreSQL from 3.17, whose changelogs are
// named by UUID. The tests of schema text against a changelog run there.
const (
	sdlChangelog = "0b9c3a52-5d7e-4b6f-9a51-1f0e2d3c4b5a"
	sdlDiffPath  = "/v1/instances/prod-pg/databases/orders/changelogs/" + sdlChangelog + ":diffSchema"
	sdlName      = "instances/prod-pg/databases/orders/changelogs/" + sdlChangelog
)

var sdlBody = mustJSON(map[string]string{"name": sdlName, "schema": targetSchema})

// sdlArgs are baseArgs for a changelog of a PostgreSQL database on 3.17.1.
func sdlArgs(more ...string) []string {
	return append([]string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", sdlChangelog, "--server-version", "3.17.1"}, more...)
}

// pgRegistry is a fake service whose instance prod-pg is PostgreSQL.
func pgRegistry(t *testing.T) *httpmock.Registry {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/instances/prod-pg", 200, `{"name": "instances/prod-pg", "engine": "POSTGRES"}`)
	return reg
}

func baseArgs(more ...string) []string {
	return append([]string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", "101"}, more...)
}

// writeSchema writes text to a schema file and returns its path.
func writeSchema(t *testing.T, text string) string { return cmdtest.WriteFile(t, "schema.sql", text) }

func TestDiff_formats(t *testing.T) {
	diff := cmdtest.Command{
		Args: sdlArgs("--schema-file", writeSchema(t, targetSchema)),
		Serve: func(reg *httpmock.Registry, _ bool) {
			reg.Register(http.MethodGet, "/v1/instances/prod-pg", 200, `{"engine": "POSTGRES"}`)
			reg.Register(http.MethodPost, sdlDiffPath, 200, diffAnswer).Query("").JSONBody(sdlBody)
		},
		JQ:       ".diff | split(\"\\n\") | map(select(startswith(\"CREATE\"))) | .[]",
		Template: `{{len .diff}} bytes of migration{{"\n"}}`,
	}
	diff.Goldens(t, "diff_", "table", "table_tty", "json", "yaml", "jq", "template")
}

func TestDiff_tablePrintsTheDiffItself(t *testing.T) {
	reg := pgRegistry(t)
	reg.Register(http.MethodPost, sdlDiffPath, 200, `{"diff": "DROP TABLE \"legacy\";\n"}`).JSONBody(sdlBody)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, sdlArgs("--schema-file", writeSchema(t, targetSchema))...).Expect(t, 0)
	if want := "DROP TABLE \"legacy\";\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
}

// TestDiff_stdoutAndExitCode checks what an empty and a non-empty diff print,
// and that --exit-code exits 9 only when the schemas differ.
func TestDiff_stdoutAndExitCode(t *testing.T) {
	const dropLegacy = `{"diff": "DROP TABLE \"legacy\";\n"}`
	tests := []struct {
		name, answer string
		args         []string
		code         int
		want         string
	}{
		{"table prints nothing", `{}`, nil, 0, ""},
		{"exit code with no differences is 0", `{}`, []string{"--exit-code"}, 0, ""},
		{"json prints the empty answer", `{}`, []string{"-o", "json"}, 0, "{}\n"},
		{"yaml prints the empty answer", `{}`, []string{"-o", "yaml"}, 0, "{}\n"},
		{"jq sees no diff", `{}`, []string{"--jq", ".diff // \"none\""}, 0, "none\n"},
		{"exit code when the schemas differ is 9", dropLegacy, []string{"--exit-code"}, 9, "DROP TABLE \"legacy\";\n"},
		{"exit code 9 under json", dropLegacy, []string{"--exit-code", "-o", "json"}, 9, "{\n  \"diff\": \"DROP TABLE \\\"legacy\\\";\\n\"\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := pgRegistry(t)
			reg.Register(http.MethodPost, sdlDiffPath, 200, tt.answer).JSONBody(sdlBody)
			args := sdlArgs(append([]string{"--schema-file", writeSchema(t, targetSchema)}, tt.args...)...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, tt.code)
			if res.Stdout != tt.want || res.Stderr != "" {
				t.Errorf("stdout %q, stderr %q; want stdout %q and no stderr: the diff on stdout is the report", res.Stdout, res.Stderr, tt.want)
			}
		})
	}
}

func TestDiff_ambiguousAnswerIsInvalid(t *testing.T) {
	// encoding/json keeps the last of two keys: the diff would read as empty.
	for _, body := range []string{`{"diff": "DROP TABLE \"legacy\";", "diff": ""}`, `{"diff": "DROP TABLE \"legacy\";", "Diff": ""}`} {
		for _, format := range [][]string{nil, {"-o", "json"}, {"-o", "yaml"}, {"--jq", ".diff"}} {
			reg := pgRegistry(t)
			reg.Register(http.MethodPost, sdlDiffPath, 200, body)
			args := sdlArgs(append([]string{"--schema-file", writeSchema(t, targetSchema), "--exit-code"}, format...)...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 1).StderrHas(t, "invalid response: ")
			if res.Stdout != "" {
				t.Errorf("%s %v: stdout %q", body, format, res.Stdout)
			}
		}
	}
}

func TestDiff_requests(t *testing.T) {
	tests := []struct {
		name              string
		args              []string
		stdin, path, body string
	}{
		{
			name:  "schema from standard input",
			args:  sdlArgs("--schema-file", "-"),
			stdin: targetSchema,
			path:  sdlDiffPath,
			body:  sdlBody,
		},
		{
			name: "changelog and database given as full names",
			args: []string{"schema", "diff", "--database", "instances/prod-pg/databases/orders", "--server-version", "3.17.1",
				"--changelog", sdlName, "--schema-file", "-"},
			stdin: targetSchema,
			path:  sdlDiffPath,
			body:  sdlBody,
		},
		{
			name: "target changelog id is made a full name",
			args: baseArgs("--target-changelog", "102"),
			body: `{"name": "` + changelogName + `", "changelog": "instances/prod-pg/databases/orders/changelogs/102"}`,
		},
		{
			name: "target changelog given as a full name of the database",
			args: baseArgs("--target-changelog", "instances/prod-pg/databases/orders/changelogs/102"),
			body: `{"name": "` + changelogName + `", "changelog": "instances/prod-pg/databases/orders/changelogs/102"}`,
		},
		{
			name:  "schema against the database",
			args:  []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--schema-file", "-"},
			stdin: targetSchema,
			path:  dbDiffPath,
			body:  mustJSON(map[string]string{"schema": targetSchema}),
		},
		{
			name: "changelog against the database",
			args: []string{"schema", "diff", "--database", "instances/prod-pg/databases/orders", "--target-changelog", "102"},
			path: dbDiffPath,
			body: `{"changelog": "instances/prod-pg/databases/orders/changelogs/102"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			if tt.path == sdlDiffPath {
				reg = pgRegistry(t)
			}
			if tt.path == "" {
				tt.path = diffPath
			}
			reg.Register(http.MethodPost, tt.path, 200, `{"diff": "ALTER TABLE x;\n"}`).Query("").JSONBody(tt.body)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: tt.stdin}, tt.args...).Expect(t, 0)
			if res.Stdout != "ALTER TABLE x;\n" {
				t.Errorf("stdout %q", res.Stdout)
			}
		})
	}
}

func TestDiff_usage(t *testing.T) {
	empty := cmdtest.WriteFile(t, "empty.sql", "\n  \n")
	binary := cmdtest.WriteFile(t, "dump.bin", "CREATE\x00TABLE")
	dir := filepath.Dir(empty)
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"both targets", baseArgs("--schema-file", "-", "--target-changelog", "102"), targetSchema, "cannot be used together"},
		{"no target", baseArgs(), "", "--schema-file FILE or --target-changelog NAME"},
		{"target changelog of another database", baseArgs("--target-changelog", "instances/staging-pg/databases/orders/changelogs/7"), "",
			`--target-changelog: invalid name: changelog "instances/staging-pg/databases/orders/changelogs/7" is not a changelog of instances/prod-pg/databases/orders`},
		{"target changelog of another database, against the database", []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--target-changelog", "instances/prod-pg/databases/inventory/changelogs/7"}, "",
			"is not a changelog of instances/prod-pg/databases/orders"},
		{"no database", []string{"schema", "diff", "--changelog", "101", "--target-changelog", "102"}, "", "--database is required"},
		{"changelog of another database", baseArgs("--changelog", "instances/x/databases/y/changelogs/1", "--target-changelog", "102"), "", "is not a changelog of instances/prod-pg/databases/orders"},
		{"changelog with a slash", baseArgs("--changelog", "101/2", "--target-changelog", "102"), "", "101/2"},
		{"malformed target changelog", baseArgs("--target-changelog", "instances/prod-pg/changelogs/102"), "", "instances/I/databases/D/changelogs/C"},
		{"missing schema file", baseArgs("--schema-file", filepath.Join(dir, "nope.sql")), "", "nope.sql"},
		{"empty schema file", baseArgs("--schema-file", empty), "", "is empty"},
		{"binary schema file", baseArgs("--schema-file", binary), "", "not a text file"},
		{"directory as schema file", baseArgs("--schema-file", dir), "", "is a directory"},
		{"empty standard input", baseArgs("--schema-file", "-"), "", "standard input is empty"},
		{"an argument", baseArgs("--target-changelog", "102", "extra"), "", "takes no arguments"},
		{"names output", baseArgs("--target-changelog", "102", "-o", "name"), "", "no resource names"},
		{"bad output", baseArgs("--target-changelog", "102", "-o", "xml"), "", "xml"},
		{"unknown flag", baseArgs("--target-changelog", "102", "--bogus"), "", "unknown flag: --bogus"},
		{"misspelt verb", []string{"schema", "dif"}, "", `unknown command "dif" for "dbgov schema"; did you mean "diff"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { cmdtest.Refused(t, cmdtest.Options{Stdin: tt.stdin}, tt.args, tt.want) })
	}
}

func TestDiff_noURL(t *testing.T) {
	cmdtest.Run(t, cmdtest.Options{}, baseArgs("--target-changelog", "102")...).Expect(t, 2).StderrHas(t, "DBGOV_URL")
}

func TestDiff_errors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		code   int
		want   string
	}{
		{"missing changelog comes back as a service failure", 500, `{"code": 13, "message": "changelog \"101\" not found"}`,
			7, "dbgov: diff the schema of changelog " + sdlName + ": changelog \"101\" not found (HTTP 500 INTERNAL)\n"},
		{"not found", 404, `{"code": 5, "message": "database \"orders\" not found"}`,
			5, "database \"orders\" not found (HTTP 404 NOT_FOUND)"},
		{"rejected", 400, `{"code": 3, "message": "invalid schema"}`, 6, "invalid schema (HTTP 400 INVALID_ARGUMENT)"},
		{"permission denied", 403, `{"code": 7, "message": "permission denied"}`, 4, "(HTTP 403 PERMISSION_DENIED)"},
		{"unauthenticated", 401, `{"code": 16, "message": "token expired"}`, 3, "(HTTP 401 UNAUTHENTICATED)"},
		{"unavailable", 503, `<html>maintenance</html>`, 7, "HTTP 503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := pgRegistry(t)
			reg.Register(http.MethodPost, sdlDiffPath, tt.status, tt.body).JSONBody(sdlBody)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, sdlArgs("--schema-file", writeSchema(t, targetSchema), "--exit-code")...).Expect(t, tt.code)
			if res.Stdout != "" {
				t.Errorf("stdout %q", res.Stdout)
			}
			res.StderrHas(t, tt.want)
			if !strings.HasPrefix(res.Stderr, "dbgov: diff the schema of changelog "+sdlName+": ") {
				t.Errorf("stderr %q does not say what failed", res.Stderr)
			}
		})
	}
}

func TestDiff_schemaTextAgainstAChangelogOnlyWhereTheReleaseDiffsThroughSDL(t *testing.T) {
	const refused = "hint: compare with the database's current schema instead: schema diff without --changelog\n"
	tests := []struct {
		release, engine, changelog string
		sent                       bool // else refused with exit 2
	}{
		{"3.14.1", "", "101", false}, // every engine: the engine is not asked
		{"3.16.1", "", sdlChangelog, false},
		{"3.17.0", "POSTGRES", sdlChangelog, true},
		{"3.17.1", "COCKROACHDB", sdlChangelog, true},
		{"3.17.1", "MYSQL", sdlChangelog, false},
		{"3.21.0", "MYSQL", sdlChangelog, true},
		{"3.21.1", "TIDB", sdlChangelog, false},
		{"3.21.1", "MARIADB", sdlChangelog, false},
	}
	for _, tt := range tests {
		t.Run(tt.release+" "+tt.engine, func(t *testing.T) {
			reg := httpmock.New(t)
			if tt.engine != "" {
				reg.Register(http.MethodGet, "/v1/instances/prod-pg", 200, `{"engine": "`+tt.engine+`"}`)
			}
			path := "/v1/instances/prod-pg/databases/orders/changelogs/" + tt.changelog + ":diffSchema"
			if tt.sent {
				reg.Register(http.MethodPost, path, 200, `{}`)
			}
			args := []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", tt.changelog, "--schema-file", "-"}
			opts := cmdtest.Options{URL: reg.URL(), Stdin: targetSchema, Env: map[string]string{"DBGOV_SERVER_VERSION": tt.release}}
			if res := cmdtest.Run(t, opts, args...); !tt.sent {
				res.Expect(t, 2).StderrHas(t, "cannot compare a changelog of instances/prod-pg/databases/orders with schema text", refused)
			} else {
				res.Expect(t, 0)
			}
		})
	}
}

func TestDiff_namesTheReferenceFileWhenTheDeclarativeFormatRefusesTheText(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, dbDiffPath, 500, `{"code": 13, "message": "failed to get target schema, error: SDL does not allow SELECT statements"}`)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: "SELECT pg_catalog.set_config('search_path', '', false);\n"},
		"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--schema-file", "-").Expect(t, 7).
		StderrHas(t, "SDL does not allow SELECT statements", "hint: this release reads schema text in its own declarative format: make the reference file with `dbgov schema dump`")
}

func TestDiff_changelogsTakeTheFormOfTheRelease(t *testing.T) {
	cmdtest.Refused(t, cmdtest.Options{Env: map[string]string{"DBGOV_SERVER_VERSION": "3.16.0"}}, baseArgs("--target-changelog", "102"),
		`changelog "102" cannot be a changelog of release 3.16.0: from 3.16.0, a changelog is named by a UUID`)
	cmdtest.Refused(t, cmdtest.Options{}, []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", sdlChangelog, "--target-changelog", "102"},
		`changelog "`+sdlChangelog+`" cannot be a changelog of release 3.14.1: before 3.16.0, a changelog is named by a number`)
}

func TestDiff_errorAsJSON(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, diffPath, 404, `{"code": 5, "message": "database \"orders\" not found"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, baseArgs("--target-changelog", "102", "-o", "json")...).Expect(t, 5)
	want := `{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"database \"orders\" not found","exitCode":5}}` + "\n"
	if res.Stdout != "" || res.Stderr != want {
		t.Errorf("stdout %q, stderr %s; want stderr %s", res.Stdout, res.Stderr, want)
	}
}

func mustJSON(v map[string]string) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
