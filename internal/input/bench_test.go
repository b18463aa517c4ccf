package input

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dbgov/dbgov/client"
)

// benchCatalog is a catalog file of 5,000 tables of 20 columns, about 12 MB.
func benchCatalog(tb testing.TB) []byte {
	schema := client.SchemaCatalog{Name: "public"}
	for t := range 5000 {
		table := client.TableCatalog{Name: fmt.Sprintf("table_%05d", t), Classification: "1-1", Columns: &client.ColumnCatalogs{}}
		for c := range 20 {
			table.Columns.Columns = append(table.Columns.Columns, client.ColumnCatalog{
				Name:           fmt.Sprintf("column_%02d", c),
				SemanticType:   "default",
				Labels:         map[string]string{"owner": "data-platform", "tier": fmt.Sprint(c % 3)},
				Classification: "1-2",
			})
		}
		schema.Tables = append(schema.Tables, table)
	}
	data, err := json.Marshal(client.DatabaseCatalog{Name: "instances/i/databases/d/catalog", Schemas: []client.SchemaCatalog{schema}})
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkDecode decodes a large catalog file strictly into client types,
// as a file that cannot be sent as it is is read.
func BenchmarkDecode(b *testing.B) {
	data := benchCatalog(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var cat client.DatabaseCatalog
		if err := Decode("catalog.json", data, &cat); err != nil {
			b.Fatal(err)
		}
	}
}
