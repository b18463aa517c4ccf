package devserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestSQLDiff_generatesMigrationStatementsInTheServicesForm(t *testing.T) {
	const orders = "CREATE TABLE orders (\n  id bigint PRIMARY KEY,\n  total numeric(10, 2) NOT NULL\n);\n"
	tests := []struct {
		name, a, b, want string
	}{
		{name: "identical", a: orders, b: orders},
		{name: "spacing and comments do not count", a: orders, b: "-- orders\nCREATE TABLE orders (id bigint PRIMARY KEY, total numeric(10,  2) NOT NULL)"},
		{name: "a dump's settings do not count", a: orders, b: "SET statement_timeout = 0;\nSELECT pg_catalog.set_config('search_path', '', false);\n" + orders},
		{name: "both empty"},
		{name: "table created", b: orders, want: "CREATE TABLE orders (\n  id bigint PRIMARY KEY,\n  total numeric(10, 2) NOT NULL\n);\n\n"},
		{name: "table dropped", a: orders, want: `DROP TABLE IF EXISTS "public"."orders";` + "\n\n"},
		{name: "column added", a: orders, b: strings.Replace(orders, "NOT NULL\n", "NOT NULL,\n  note text DEFAULT f(1, 2) \n", 1),
			want: `ALTER TABLE "public"."orders" ADD COLUMN "note" text DEFAULT f(1, 2);` + "\n\n"},
		{name: "column dropped", a: "CREATE TABLE public.items (id bigint, note text);", b: "CREATE TABLE public.items (id bigint);",
			want: `ALTER TABLE "public"."items" DROP COLUMN IF EXISTS "note";` + "\n\n"},
		{name: "column changed", a: orders, b: strings.Replace(orders, "numeric(10, 2)", "numeric(12, 2)", 1),
			want: `ALTER TABLE "public"."orders" DROP COLUMN IF EXISTS "total";` + "\n" + `ALTER TABLE "public"."orders" ADD COLUMN "total" numeric(12, 2) NOT NULL;` + "\n\n"},
		{name: "constraints", a: "CREATE TABLE t (a int, CONSTRAINT a_pos CHECK (a > 0));", b: "CREATE TABLE t (a int, UNIQUE (a));",
			want: `ALTER TABLE "public"."t" DROP CONSTRAINT IF EXISTS "a_pos";` + "\n" + `ALTER TABLE "public"."t" ADD UNIQUE (a);` + "\n\n"},
		{name: "index created", a: orders, b: orders + "CREATE UNIQUE INDEX orders_total ON orders (total);\n", want: "CREATE UNIQUE INDEX orders_total ON orders (total);\n\n"},
		{name: "index dropped", a: orders + "CREATE INDEX i ON orders (total);", b: orders, want: `DROP INDEX IF EXISTS "public"."i";` + "\n\n"},
		{name: "index changed", a: "CREATE INDEX i ON t (a);", b: "CREATE INDEX i ON t (b);", want: `DROP INDEX IF EXISTS "public"."i";` + "\nCREATE INDEX i ON t (b);\n\n"},
		{name: "other statement added", b: "CREATE VIEW v AS SELECT 1;", want: "CREATE VIEW v AS SELECT 1;\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sqlDiff(tt.a, tt.b); got != tt.want {
				t.Errorf("sqlDiff(%q, %q) =\n%s\nwant\n%s", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

const diffPath = ordersPath + "/changelogs/101:diffSchema"

func TestDiffSchema_comparesWithAnotherChangelog(t *testing.T) {
	r := call(t, newDemo(t), http.MethodPost, diffPath, readonlyToken,
		`{"name":"`+ordersName+`/changelogs/101","changelog":"`+ordersName+`/changelogs/102"}`)
	wantStatus(t, r, http.StatusOK)
	var got struct{ Diff string }
	r.decode(t, &got)
	want := `ALTER TABLE "public"."customers" ADD COLUMN "phone" text;` + "\n" +
		`ALTER TABLE "public"."orders" ADD COLUMN "status" text NOT NULL DEFAULT 'pending';` + "\n" +
		"CREATE INDEX orders_customer_id_idx ON public.orders (customer_id);\n\n"
	if got.Diff != want {
		t.Errorf("diff =\n%s\nwant\n%s", got.Diff, want)
	}
}

// oldestChangelog returns the name of a database's oldest changelog, whose
// id is a number or, from 3.16, a UUID.
func oldestChangelog(s *Server, database string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := strings.Split(database, "/")
	return database + "/changelogs/" + s.st.instances[ids[1]].databases[ids[3]].changelogs[0].ID
}

func TestDiffSchema_comparesAChangelogWithAGivenSchemaFrom317OnPostgreSQL(t *testing.T) {
	s := newRelease(t, "3.17.1")
	s.mu.Lock()
	schema := s.st.instances["prod-pg"].databases["orders"].changelogs[0].Schema
	s.mu.Unlock()
	self := oldestChangelog(s, ordersName)
	body := func(target string) string { return `{"name":"` + self + `","schema":` + quote(target) + `}` }
	r := call(t, s, http.MethodPost, "/v1/"+self+":diffSchema", adminToken, body(schema))
	wantStatus(t, r, http.StatusOK)
	if r.body != "{}\n" {
		t.Errorf("identical schemas give %q, want {}", r.body)
	}
	r = call(t, s, http.MethodPost, "/v1/"+self+":diffSchema", adminToken, body(strings.Replace(schema, "  full_name text,\n", "", 1)))
	wantStatus(t, r, http.StatusOK)
	if r.body != `{"diff":"ALTER TABLE \"public\".\"customers\" DROP COLUMN IF EXISTS \"full_name\";\n\n"}`+"\n" {
		t.Errorf("body = %s", r.body)
	}
	// A changelog of another instance may be the target, on every release.
	for _, s := range []*Server{s, newDemo(t)} {
		self, target := oldestChangelog(s, ordersName), oldestChangelog(s, "instances/staging-mysql/databases/orders")
		r = call(t, s, http.MethodPost, "/v1/"+self+":diffSchema", adminToken, `{"name":"`+self+`","changelog":"`+target+`"}`)
		wantStatus(t, r, http.StatusOK)
		if !strings.Contains(r.body, `DROP TABLE IF EXISTS \"public\".\"customers\";\nDROP TABLE IF EXISTS \"public\".\"orders\";\nCREATE TABLE customers (\n  id bigint PRIMARY KEY,\n  email varchar(255) NOT NULL\n);\n`) {
			t.Errorf("cross-instance diff = %s", r.body)
		}
	}
}

func TestDiffSchema_changelogAndSchemaTextAsTheReleaseAndEngineDo(t *testing.T) {
	const pgDump = "SET statement_timeout = 0;\nSELECT pg_catalog.set_config('search_path', '', false);\nCREATE TABLE t (a int);\n"
	const mysql = "instances/staging-mysql/databases/orders"
	tests := []struct {
		release, database string
		changelog         bool
		schema            string
		status            int
		message           string
	}{
		{"3.14.1", ordersName, true, "CREATE TABLE t (a int);", 500, `failed to get target schema, error: invalid request "` + ordersName + `/changelogs/101"`},
		{"3.14.1", mysql, true, "CREATE TABLE t (a int);", 500, "invalid request"},
		{"3.14.1", ordersName, false, pgDump, 200, ""},
		{"3.17.1", ordersName, true, "CREATE TABLE t (a int);", 200, ""},
		{"3.17.1", mysql, true, "CREATE TABLE t (a int);", 500, "invalid request"},
		{"3.21.1", mysql, true, "CREATE TABLE t (a int);", 200, ""},
		{"3.21.1", ordersName, false, pgDump, 500, "SDL does not allow SELECT statements"},
		{"3.21.1", ordersName, true, pgDump, 500, "SDL does not allow SELECT statements"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.release, tt.database, tt.changelog, tt.schema[:3]), func(t *testing.T) {
			s, name := newRelease(t, tt.release), tt.database
			if tt.changelog {
				name = oldestChangelog(s, tt.database)
			}
			r := call(t, s, http.MethodPost, "/v1/"+name+":diffSchema", adminToken, `{"name":"`+name+`","schema":`+quote(tt.schema)+`}`)
			if tt.status != 200 {
				wantError(t, r, tt.status, 13, tt.message)
				return
			}
			wantStatus(t, r, tt.status)
		})
	}
}

func TestDiffSchema_comparesTheDatabasesCurrentSchema(t *testing.T) {
	s := newDemo(t)
	s.mu.Lock()
	latest := s.st.instances["prod-pg"].databases["orders"].changelogs[1].Schema
	s.mu.Unlock()
	tests := []struct{ name, body, want string }{
		{"the schema of its latest changelog", `{"schema":` + quote(latest) + `}`, "{}\n"},
		{"named in the body", `{"name":"` + ordersName + `","schema":"CREATE TABLE public.customers (id bigint PRIMARY KEY);"}`,
			`{"diff":"DROP TABLE IF EXISTS \"public\".\"orders\";\nDROP INDEX IF EXISTS \"public\".\"orders_customer_id_idx\";\nALTER TABLE \"public\".\"customers\" DROP COLUMN IF EXISTS \"email\";\n`},
		{"with a changelog", `{"changelog":"` + ordersName + `/changelogs/101"}`, `{"diff":"DROP INDEX IF EXISTS \"public\".\"orders_customer_id_idx\";\nALTER TABLE \"public\".\"customers\" DROP COLUMN IF EXISTS \"phone\";\nALTER TABLE \"public\".\"orders\" DROP COLUMN IF EXISTS \"status\";\n\n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, s, http.MethodPost, ordersPath+":diffSchema", readonlyToken, tt.body)
			wantStatus(t, r, http.StatusOK)
			if !strings.HasPrefix(r.body, tt.want) {
				t.Errorf("body = %s, want it to begin with %s", r.body, tt.want)
			}
		})
	}
	wantError(t, call(t, s, http.MethodPost, ordersPath+":diffSchema", adminToken, `{"name":"`+ordersName+`/changelogs/101","schema":"x"}`),
		400, codeInvalidArgument, "does not match")
	wantError(t, call(t, s, http.MethodPost, "/v1/instances/prod-pg/databases/gone:diffSchema", adminToken, `{"schema":"x"}`),
		404, codeNotFound, `database "instances/prod-pg/databases/gone" not found`)
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestDiffSchema_refusesBadRequests(t *testing.T) {
	self := ordersName + "/changelogs/101"
	tests := []struct {
		name, path, body string
		status, code     int
		msg              string
	}{
		{"both schema and changelog", diffPath, `{"name":"` + self + `","schema":"x","changelog":"` + ordersName + `/changelogs/102"}`, 400, codeInvalidArgument, "exactly one of schema"},
		{"neither", diffPath, `{"name":"` + self + `"}`, 400, codeInvalidArgument, "exactly one of schema"},
		{"no name", diffPath, `{"schema":"x"}`, 400, codeInvalidArgument, "name is required"},
		{"name of another changelog", diffPath, `{"name":"` + ordersName + `/changelogs/102","schema":"x"}`, 400, codeInvalidArgument, `"instances/prod-pg/databases/orders/changelogs/102" does not match`},
		{"name of the database", diffPath, `{"name":"` + ordersName + `","schema":"x"}`, 400, codeInvalidArgument, "does not match"},
		{"malformed target", diffPath, `{"name":"` + self + `","changelog":"changelogs/102"}`, 400, codeInvalidArgument, `"changelogs/102" is not of the form`},
		{"unknown field", diffPath, `{"name":"` + self + `","schema":"x","format":"sql"}`, 400, codeInvalidArgument, `unknown object member name "format"`},
		{"missing changelog", ordersPath + "/changelogs/999:diffSchema", `{"name":"` + ordersName + `/changelogs/999","schema":"x"}`, 404, codeNotFound, `changelog "instances/prod-pg/databases/orders/changelogs/999" not found`},
		{"missing target changelog", diffPath, `{"name":"` + self + `","changelog":"` + ordersName + `/changelogs/998"}`, 404, codeNotFound, `changelog "instances/prod-pg/databases/orders/changelogs/998" not found`},
		{"missing target database", diffPath, `{"name":"` + self + `","changelog":"instances/prod-pg/databases/gone/changelogs/1"}`, 404, codeNotFound, `database "instances/prod-pg/databases/gone" not found`},
		{"missing database", "/v1/instances/prod-pg/databases/nope/changelogs/1:diffSchema", `{"name":"instances/prod-pg/databases/nope/changelogs/1","schema":"x"}`, 404, codeNotFound, `database "instances/prod-pg/databases/nope" not found`},
		{"missing instance", "/v1/instances/nope/databases/orders/changelogs/1:diffSchema", `{"name":"instances/nope/databases/orders/changelogs/1","schema":"x"}`, 500, codeInternal, `failed to populate raw resources database "instances/nope/databases/orders" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, call(t, newDemo(t), http.MethodPost, tt.path, adminToken, tt.body), tt.status, tt.code, tt.msg)
		})
	}
}
