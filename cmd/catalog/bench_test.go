package catalog_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// bigCatalog is a catalog of tables × columns, each column with a semantic
// type, a classification and two labels.
func bigCatalog(tables, columns int) string {
	var b strings.Builder
	b.WriteString(`{"name": "instances/prod-pg/databases/orders/catalog", "schemas": [{"name": "public", "tables": [`)
	for t := range tables {
		if t > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name": "table_%d", "classification": "2", "columns": {"columns": [`, t)
		for c := range columns {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name": "column_%d", "semanticType": "email", "classification": "1-1", "labels": {"pii": "yes", "owner": "team-%d"}}`, c, t%7)
		}
		b.WriteString(`]}}`)
	}
	b.WriteString(`]}]}`)
	return b.String()
}

// BenchmarkUpdate echoes a catalog of 5,000 tables of 20 columns in each
// format.
func BenchmarkUpdate(b *testing.B) {
	cat := bigCatalog(5000, 20)
	file := cmdtest.WriteFile(b, "catalog.json", cat)
	for _, bm := range []struct {
		name string
		args []string
	}{
		{"table", nil},
		{"json", []string{"-o", "json"}},
		{"jq", []string{"--jq", ".schemas[0].tables | length"}},
		{"jq-each", []string{"--jq", ".schemas[].tables[].name"}},
		{"name", []string{"-o", "name"}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			reg := httpmock.New(b)
			reg.Register(http.MethodPatch, catalogPath, 200, cat)
			args := update(append([]string{"-f", file}, bm.args...)...)
			runEach(b, reg.URL(), len(cat), args)
		})
	}
}

// BenchmarkCompare diffs and merges a file reclassifying every fourth table
// of a catalog of 5,000 tables of 20 columns; the merge reads the catalog
// twice and sends it.
func BenchmarkCompare(b *testing.B) {
	cat := bigCatalog(5000, 20)
	n := 0
	edited := regexp.MustCompile(`"classification": "2", "columns"`).ReplaceAllStringFunc(cat, func(s string) string {
		if n++; n%4 == 1 {
			return strings.Replace(s, `"2"`, `"1"`, 1)
		}
		return s
	})
	file := cmdtest.WriteFile(b, "catalog.json", edited)
	for _, verb := range []string{"diff", "update --merge"} {
		b.Run(verb, func(b *testing.B) {
			reg := httpmock.New(b)
			reg.Register(http.MethodGet, catalogPath, 200, cat)
			if strings.Contains(verb, "merge") {
				reg.Register(http.MethodPatch, catalogPath, 200, edited)
			}
			args := append(strings.Fields("catalog "+verb), "--instance", "prod-pg", "--database", "orders", "-f", file)
			runEach(b, reg.URL(), len(cat), args)
		})
	}
}

// runEach runs dbgov with args against url each round of b, which handles
// size bytes.
func runEach(b *testing.B, url string, size int, args []string) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if res := cmdtest.Run(b, cmdtest.Options{URL: url}, args...); res.Code != 0 {
			b.Fatalf("exit %d: %s", res.Code, res.Stderr)
		}
	}
}
