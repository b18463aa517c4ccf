package devserver

import (
	"net/http"
	"strings"
	"testing"
)

func TestSQLDiff_generatesMigrationStatements(t *testing.T) {
	const orders = "CREATE TABLE orders (\n  id bigint PRIMARY KEY,\n  total numeric(10, 2) NOT NULL\n);\n"
	tests := []struct {
		name, a, b, want string
	}{
		{"identical", orders, orders, ""},
		{"spacing and comments do not count", orders, "-- orders\nCREATE TABLE orders (id bigint PRIMARY KEY, total numeric(10,  2) NOT NULL)", ""},
		{"both empty", "", "", ""},
		{"table created", "", orders, "CREATE TABLE orders (\n  id bigint PRIMARY KEY,\n  total numeric(10, 2) NOT NULL\n);\n"},
		{"table dropped", orders, "", "DROP TABLE orders;\n"},
		{"column added", orders, strings.Replace(orders, "NOT NULL\n", "NOT NULL,\n  note text DEFAULT f(1, 2) \n", 1),
			"ALTER TABLE orders ADD COLUMN note text DEFAULT f(1, 2);\n"},
		{"column dropped", orders, "CREATE TABLE orders (id bigint PRIMARY KEY);", "ALTER TABLE orders DROP COLUMN total;\n"},
		{"column changed", orders, strings.Replace(orders, "numeric(10, 2)", "numeric(12, 2)", 1),
			"ALTER TABLE orders DROP COLUMN total;\nALTER TABLE orders ADD COLUMN total numeric(12, 2) NOT NULL;\n"},
		{"constraints", "CREATE TABLE t (a int, CONSTRAINT a_pos CHECK (a > 0));", "CREATE TABLE t (a int, UNIQUE (a));",
			"ALTER TABLE t DROP CONSTRAINT a_pos;\nALTER TABLE t ADD UNIQUE (a);\n"},
		{"index created", orders, orders + "CREATE UNIQUE INDEX orders_total ON orders (total);\n", "CREATE UNIQUE INDEX orders_total ON orders (total);\n"},
		{"index dropped", orders + "CREATE INDEX i ON orders (total);", orders, "DROP INDEX i;\n"},
		{"index changed", "CREATE INDEX i ON t (a);", "CREATE INDEX i ON t (b);", "DROP INDEX i;\nCREATE INDEX i ON t (b);\n"},
		{"other statement added", "", "CREATE VIEW v AS SELECT 1;", "CREATE VIEW v AS SELECT 1;\n"},
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
	want := "ALTER TABLE public.customers ADD COLUMN phone text;\n" +
		"ALTER TABLE public.orders ADD COLUMN status text NOT NULL DEFAULT 'pending';\n" +
		"CREATE INDEX orders_customer_id_idx ON public.orders (customer_id);\n"
	if got.Diff != want {
		t.Errorf("diff =\n%s\nwant\n%s", got.Diff, want)
	}
}

func TestDiffSchema_comparesWithAGivenSchema(t *testing.T) {
	s := newDemo(t)
	s.mu.Lock()
	schema := s.st.instances["prod-pg"]["orders"].changelogs["101"]
	s.mu.Unlock()
	body := func(target string) string {
		return `{"name":"` + ordersName + `/changelogs/101","schema":` + quote(target) + `}`
	}
	r := call(t, s, http.MethodPost, diffPath, adminToken, body(schema))
	wantStatus(t, r, http.StatusOK)
	if r.body != "{}\n" {
		t.Errorf("identical schemas give %q, want {}", r.body)
	}
	r = call(t, s, http.MethodPost, diffPath, adminToken, body(strings.Replace(schema, "  full_name text,\n", "", 1)))
	wantStatus(t, r, http.StatusOK)
	if r.body != `{"diff":"ALTER TABLE public.customers DROP COLUMN full_name;\n"}`+"\n" {
		t.Errorf("body = %s", r.body)
	}
	// A changelog of another instance may be the target.
	r = call(t, s, http.MethodPost, diffPath, adminToken,
		`{"name":"`+ordersName+`/changelogs/101","changelog":"instances/staging-mysql/databases/orders/changelogs/301"}`)
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(r.body, `DROP TABLE public.customers;\nDROP TABLE public.orders;\nCREATE TABLE customers (\n  id bigint PRIMARY KEY,\n  email varchar(255) NOT NULL\n);\n`) {
		t.Errorf("cross-instance diff = %s", r.body)
	}
}

func TestDiffSchema_comparesTheDatabasesCurrentSchema(t *testing.T) {
	s := newDemo(t)
	s.mu.Lock()
	latest := s.st.instances["prod-pg"]["orders"].changelogs["102"]
	s.mu.Unlock()
	tests := []struct{ name, body, want string }{
		{"the schema of its latest changelog", `{"schema":` + quote(latest) + `}`, "{}\n"},
		{"named in the body", `{"name":"` + ordersName + `","schema":"CREATE TABLE public.customers (id bigint PRIMARY KEY);"}`,
			`{"diff":"DROP TABLE public.orders;\nDROP INDEX orders_customer_id_idx;\nALTER TABLE public.customers DROP COLUMN email;\n`},
		{"with a changelog", `{"changelog":"` + ordersName + `/changelogs/101"}`, `{"diff":"DROP INDEX orders_customer_id_idx;\nALTER TABLE public.customers DROP COLUMN phone;\nALTER TABLE public.orders DROP COLUMN status;\n"}`},
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
		{"unknown field", diffPath, `{"name":"` + self + `","schema":"x","format":"sql"}`, 400, codeInvalidArgument, `unknown field "format"`},
		{"missing changelog", ordersPath + "/changelogs/999:diffSchema", `{"name":"` + ordersName + `/changelogs/999","schema":"x"}`, 404, codeNotFound, `changelog "instances/prod-pg/databases/orders/changelogs/999" not found`},
		{"missing target changelog", diffPath, `{"name":"` + self + `","changelog":"` + ordersName + `/changelogs/998"}`, 404, codeNotFound, `changelog "instances/prod-pg/databases/orders/changelogs/998" not found`},
		{"missing target database", diffPath, `{"name":"` + self + `","changelog":"instances/prod-pg/databases/gone/changelogs/1"}`, 404, codeNotFound, `database "instances/prod-pg/databases/gone" not found`},
		{"missing database", "/v1/instances/prod-pg/databases/nope/changelogs/1:diffSchema", `{"name":"instances/prod-pg/databases/nope/changelogs/1","schema":"x"}`, 404, codeNotFound, `database "instances/prod-pg/databases/nope" not found`},
		{"missing instance", "/v1/instances/nope/databases/orders/changelogs/1:diffSchema", `{"name":"instances/nope/databases/orders/changelogs/1","schema":"x"}`, 404, codeNotFound, `instance "instances/nope" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, call(t, newDemo(t), http.MethodPost, tt.path, adminToken, tt.body), tt.status, tt.code, tt.msg)
		})
	}
}
