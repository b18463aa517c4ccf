package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
)

func TestLabels_sortedByKey(t *testing.T) {
	many := map[string]string{}
	var want []string
	for i := range 20 {
		k := fmt.Sprintf("k%02d", i)
		many[k] = "v"
		want = append(want, k+"=v")
	}
	tests := []struct {
		name string
		in   map[string]string
		want string
	}{
		{"none", nil, ""},
		{"one", map[string]string{"pii": "yes"}, "pii=yes"},
		{"three", map[string]string{"retention": "7y", "pii": "yes", "owner": "crm"}, "owner=crm, pii=yes, retention=7y"},
		{"empty value", map[string]string{"b": "", "a": "1"}, "a=1, b="},
		{"a key that begins another", map[string]string{"a-b": "2", "a": "1"}, "a=1, a-b=2"},
		{"many", many, strings.Join(want, ", ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 5 { // map order varies from run to run
				if got := labelText(tt.in); got != tt.want {
					t.Fatalf("labels = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestCatalogTable_tableRowThenItsColumns(t *testing.T) {
	cat := &client.DatabaseCatalog{Schemas: []client.SchemaCatalog{
		{Name: "s1", Tables: []client.TableCatalog{
			{Name: "t1", Classification: "2", Columns: &client.ColumnCatalogs{Columns: []client.ColumnCatalog{{Name: "a"}, {Name: "b"}}}},
			{Name: "t2"},
		}},
		{Name: "empty"},
		{Name: "s2", Tables: []client.TableCatalog{{Name: "t3", Columns: &client.ColumnCatalogs{}}}},
	}}
	raw, err := json.Marshal(cat)
	if err != nil {
		t.Fatal(err)
	}
	table := catalogTable(raw, false)
	for pass := range 2 { // the printer goes over the rows twice
		var got []string
		err := table.Each(func(cells []string) bool {
			got = append(got, strings.Join(cells[:3], "."))
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := "s1.t1. s1.t1.a s1.t1.b s1.t2. s2.t3."; strings.Join(got, " ") != want {
			t.Errorf("pass %d: rows %v, want %s", pass, got, want)
		}
	}
	for _, many := range []bool{false, true} {
		var got []string
		if err := catalogTable([]byte(`{"name": "x", "schemas": [{"name": "s"}]}`), many).Each(func(cells []string) bool {
			got = append(got, strings.Join(cells[:3], "."))
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "", true: ".(empty catalog)."}[many]; strings.Join(got, " ") != want {
			t.Errorf("rows of an empty catalog, one of many databases %v: %q, want %q", many, got, want)
		}
	}
	n := 0
	if err := table.Each(func([]string) bool { n++; return n < 2 }); err != nil || n != 2 {
		t.Errorf("stopping after 2 rows: %d rows, %v", n, err)
	}
	if err := catalogTable([]byte(`{"schemas": {"name": "public"}}`), false).Each(func([]string) bool { return true }); err == nil || !strings.Contains(err.Error(), "not a catalog") {
		t.Errorf("rows of an answer that is not a catalog: %v", err)
	}
}

// BenchmarkTable reads the rows of a catalog answer of 5,000 tables of 20
// columns, as table output does twice: the part of it that is catalog
// update's own.
func BenchmarkTable(b *testing.B) {
	cat := &client.DatabaseCatalog{Schemas: []client.SchemaCatalog{{Name: "public"}}}
	for t := range 5000 {
		table := client.TableCatalog{Name: fmt.Sprintf("table_%d", t), Classification: "2", Columns: &client.ColumnCatalogs{}}
		for c := range 20 {
			table.Columns.Columns = append(table.Columns.Columns, client.ColumnCatalog{
				Name: fmt.Sprintf("column_%d", c), SemanticType: "email", Classification: "1-1",
				Labels: map[string]string{"pii": "yes", "owner": "team"},
			})
		}
		cat.Schemas[0].Tables = append(cat.Schemas[0].Tables, table)
	}
	raw, err := json.Marshal(cat)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := catalogTable(raw, false).Each(func([]string) bool {
			n++
			return true
		})
		if err != nil || n != 105000 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}
