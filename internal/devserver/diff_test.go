package devserver

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestLineDiff_showsRemovedAndAddedLines(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"identical", "a\nb\n", "a\nb\n", ""},
		{"final newline does not count", "a\nb", "a\nb\n", ""},
		{"both empty", "", "", ""},
		{"from nothing", "", "a\nb\n", "+a\n+b\n"},
		{"to nothing", "a\nb\n", "", "-a\n-b\n"},
		{"line added in the middle", "a\nc\n", "a\nb\nc\n", "+b\n"},
		{"line removed", "a\nb\nc\n", "a\nc\n", "-b\n"},
		{"line changed", "a\nb\nc\n", "a\nB\nc\n", "-b\n+B\n"},
		{"blocks moved", "x\na\nb\ny\n", "x\nb\na\ny\n", "-a\n+a\n"},
		{"several changes", "1\n2\n3\n4\n5\n", "1\n3\nthree\n4\n6\n", "-2\n+three\n-5\n+6\n"},
		{"repeated lines", "a\na\na\n", "a\na\n", "-a\n"},
		{"blank lines", "a\n\nb\n", "a\nb\n", "-\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lineDiff(tt.a, tt.b); got != tt.want {
				t.Errorf("lineDiff(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestLineDiff_largeSchemasFallBackToAWholeBlock(t *testing.T) {
	var a, b strings.Builder
	for i := range 5000 {
		a.WriteString("a" + strings.Repeat("x", i%7) + "\n")
		b.WriteString("b" + strings.Repeat("x", i%5) + "\n")
	}
	diff := lineDiff("head\n"+a.String()+"tail\n", "head\n"+b.String()+"tail\n")
	if strings.Count(diff, "\n") != 10000 || !strings.HasPrefix(diff, "-a\n") || !strings.HasSuffix(diff, "+bxxxx\n") {
		t.Errorf("large diff has %d lines, starts %q", strings.Count(diff, "\n"), diff[:20])
	}
}

func TestDiffLines_isAMinimalEditScript(t *testing.T) {
	tests := []struct {
		a, b string
		kept int // the length of a longest common subsequence
	}{
		{"CREATE TABLE t (\n  id int,\n  name text\n);\n", "CREATE TABLE t (\n  id bigint,\n  name text,\n  email text\n);\nCREATE INDEX i ON t (email);\n", 2},
		{"a\nb\nc\nd\ne\nf\n", "f\ne\nd\nc\nb\na\n", 1},
		{"x\ny\nx\ny\n", "y\nx\ny\nx\n", 3},
		{"a\nb\nc\na\nb\nb\na\n", "c\nb\na\nb\na\nc\n", 4},
		{"", "a\n", 0},
	}
	for _, tt := range tests {
		script := diffLines(splitLines(tt.a), splitLines(tt.b))
		var from, to []string
		kept := 0
		for _, e := range script {
			if e.op != '+' {
				from = append(from, e.line)
			}
			if e.op != '-' {
				to = append(to, e.line)
			}
			if e.op == ' ' {
				kept++
			}
		}
		if !slices.Equal(from, splitLines(tt.a)) || !slices.Equal(to, splitLines(tt.b)) {
			t.Errorf("script %v does not lead from %q to %q", script, tt.a, tt.b)
		}
		if kept != tt.kept {
			t.Errorf("script from %q to %q keeps %d lines, want %d", tt.a, tt.b, kept, tt.kept)
		}
	}
}

const diffPath = ordersPath + "/changelogs/101:diffSchema"

func TestDiffSchema_comparesWithAnotherChangelog(t *testing.T) {
	r := call(t, newDemo(t), http.MethodPost, diffPath, readonlyToken,
		`{"name":"`+ordersName+`/changelogs/101","changelog":"`+ordersName+`/changelogs/102"}`)
	wantStatus(t, r, http.StatusOK)
	var got struct{ Diff string }
	r.decode(t, &got)
	want := "+  phone text,\n" +
		"-  total_cents bigint NOT NULL\n" +
		"+  total_cents bigint NOT NULL,\n" +
		"+  status text NOT NULL DEFAULT 'pending'\n" +
		"+\n" +
		"+CREATE INDEX orders_customer_id_idx ON public.orders (customer_id);\n"
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
	if r.body != `{"diff":"-  full_name text,\n"}`+"\n" {
		t.Errorf("body = %s", r.body)
	}
	// A changelog of another instance may be the target.
	r = call(t, s, http.MethodPost, diffPath, adminToken,
		`{"name":"`+ordersName+`/changelogs/101","changelog":"instances/staging-mysql/databases/orders/changelogs/301"}`)
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(r.body, `+  email varchar(255) NOT NULL\n`) {
		t.Errorf("cross-instance diff = %s", r.body)
	}
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
