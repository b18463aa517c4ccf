package catalog

import (
	"slices"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// row is one line of the catalog table: a table's own line (column nil)
// or one of its columns. It points into the decoded catalog, so building
// the rows copies no strings.
type row struct {
	schema string
	table  *client.TableCatalog
	column *client.ColumnCatalog
}

var catalogColumns = []output.Column[row]{
	{Header: "SCHEMA", Value: func(r row) string { return r.schema }},
	{Header: "TABLE", Value: func(r row) string { return r.table.Name }},
	{Header: "COLUMN", Value: func(r row) string {
		if r.column == nil {
			return ""
		}
		return r.column.Name
	}},
	{Header: "SEMANTIC TYPE", Value: func(r row) string {
		if r.column == nil {
			return ""
		}
		return r.column.SemanticType
	}},
	{Header: "CLASSIFICATION", Value: func(r row) string {
		if r.column == nil {
			return r.table.Classification
		}
		return r.column.Classification
	}},
	{Header: "LABELS", Value: func(r row) string {
		if r.column == nil {
			return ""
		}
		return labels(r.column.Labels)
	}},
}

// rowsOf lists the rows of cat in its order: each table's own row, then its
// columns. The slice is sized once.
func rowsOf(cat *client.DatabaseCatalog) []row {
	n := 0
	for i := range cat.Schemas {
		for j := range cat.Schemas[i].Tables {
			n++
			if cols := cat.Schemas[i].Tables[j].Columns; cols != nil {
				n += len(cols.Columns)
			}
		}
	}
	rows := make([]row, 0, n)
	for i := range cat.Schemas {
		s := &cat.Schemas[i]
		for j := range s.Tables {
			t := &s.Tables[j]
			rows = append(rows, row{schema: s.Name, table: t})
			if t.Columns == nil {
				continue
			}
			for k := range t.Columns.Columns {
				rows = append(rows, row{schema: s.Name, table: t, column: &t.Columns.Columns[k]})
			}
		}
	}
	return rows
}

// labels shows a label map as k=v pairs sorted by key, joined by ", ",
// building the one string it returns and nothing else for usual maps.
func labels(m map[string]string) string {
	switch len(m) {
	case 0:
		return ""
	case 1:
		for k, v := range m {
			return k + "=" + v
		}
	}
	var buf [16]string
	keys := buf[:0]
	size := 0
	for k, v := range m {
		keys = append(keys, k)
		size += len(k) + 1 + len(v) + 2
	}
	slices.Sort(keys)
	var b strings.Builder
	b.Grow(size - 2)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(m[k])
	}
	return b.String()
}
