package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

func TestLabels_sortedByKey(t *testing.T) {
	many := map[string]string{}
	var want []string
	for i := range 20 { // more keys than labels keeps on the stack
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
		{"many", many, strings.Join(want, ", ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 5 { // map order varies from run to run
				if got := labels(tt.in); got != tt.want {
					t.Fatalf("labels = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestRowsOf_tableRowThenItsColumns(t *testing.T) {
	cat := &client.DatabaseCatalog{Schemas: []client.SchemaCatalog{
		{Name: "s1", Tables: []client.TableCatalog{
			{Name: "t1", Classification: "2", Columns: &client.ColumnCatalogs{Columns: []client.ColumnCatalog{{Name: "a"}, {Name: "b"}}}},
			{Name: "t2"},
		}},
		{Name: "empty"},
		{Name: "s2", Tables: []client.TableCatalog{{Name: "t3", Columns: &client.ColumnCatalogs{}}}},
	}}
	var got []string
	for _, r := range rowsOf(cat) {
		col := "-"
		if r.column != nil {
			col = r.column.Name
		}
		got = append(got, r.schema+"."+r.table.Name+"."+col)
	}
	want := "s1.t1.- s1.t1.a s1.t1.b s1.t2.- s2.t3.-"
	if strings.Join(got, " ") != want {
		t.Errorf("rows %v, want %s", got, want)
	}
	if rows := rowsOf(cat); cap(rows) != len(rows) {
		t.Errorf("rows slice has capacity %d for %d rows", cap(rows), len(rows))
	}
}

// BenchmarkTable builds the table of a decoded catalog of 5,000 tables of
// 20 columns: the part of table output that is catalog update's own.
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
		t := output.TableOf(rowsOf(cat), catalogColumns)
		n := 0
		for range t.Each {
			n++
		}
		if n != 105000 {
			b.Fatalf("%d rows", n)
		}
	}
}
