package input

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
)

// benchCatalog is a catalog file of 5,000 tables of 20 columns, about 12 MB.
func benchCatalog() []byte {
	var b strings.Builder
	b.WriteString(`{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [`)
	for t := range 5000 {
		if t > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"name": "table_%05d", "classification": "1-1", "columns": {"columns": [`, t)
		for c := range 20 {
			if c > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"name": "column_%02d", "semanticType": "default", "labels": {"owner": "data-platform", "tier": "%d"}, "classification": "1-2"}`, c, c%3)
		}
		b.WriteString(`]}}`)
	}
	b.WriteString(`]}]}`)
	return []byte(b.String())
}

// BenchmarkDecode decodes a large catalog file strictly into client types,
// as a file that cannot be sent as it is is read.
func BenchmarkDecode(b *testing.B) {
	data := benchCatalog()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var cat client.DatabaseCatalog
		if err := Decode("catalog.json", data, &cat); err != nil {
			b.Fatal(err)
		}
	}
}
