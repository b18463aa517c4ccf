package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/output"
)

// row is one line of the catalog table: a table's own line (column nil)
// or one of its columns. It points into the decoded table, so building
// the row copies no strings.
type row struct {
	schema string
	table  *client.TableCatalog
	column *client.ColumnCatalog
}

var catalogColumns = []output.Column[row]{
	{Header: "SCHEMA", Priority: 1, Value: func(r *row) string { return r.schema }},
	{Header: "TABLE", Value: func(r *row) string { return r.table.Name }},
	{Header: "COLUMN", Value: func(r *row) string {
		if r.column == nil {
			return ""
		}
		return r.column.Name
	}},
	{Header: "SEMANTIC TYPE", Priority: 2, MinWidth: 13, Value: func(r *row) string {
		if r.column == nil {
			return withObjectSchema("", r.table.ObjectSchema)
		}
		return withObjectSchema(r.column.SemanticType, r.column.ObjectSchema)
	}},
	{Header: "CLASSIFICATION", Priority: 1, Value: func(r *row) string {
		if r.column == nil {
			return r.table.Classification
		}
		return r.column.Classification
	}},
	{Header: "LABELS", Priority: 3, MinWidth: 15, Value: func(r *row) string {
		if r.column == nil {
			return ""
		}
		return labels(r.column.Labels)
	}},
}

// catalogTable is the table of the catalog document raw, read a table at
// a time each time the printer goes over its rows.
func catalogTable(raw []byte) output.Table {
	return output.TableEach(catalogColumns, func(yield func(*row) bool) error {
		var r row
		err := catalogjson.EachTable(raw, func(schema string, table *client.TableCatalog) error {
			if r = (row{schema: schema, table: table}); !yield(&r) {
				return errEnough
			}
			if table.Columns == nil {
				return nil
			}
			for k := range table.Columns.Columns {
				if r.column = &table.Columns.Columns[k]; !yield(&r) {
					return errEnough
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, errEnough) {
			return fmt.Errorf("the service's answer is not a catalog: %w", err)
		}
		return nil
	})
}

// errEnough stops the walk over a catalog's tables when the printer has
// all the rows it wants.
var errEnough = errors.New("enough rows")

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

// withObjectSchema is the semantic type s, then the type of the object
// schema o when there is one: "email, OBJECT (object schema)".
func withObjectSchema(s string, o *client.ObjectSchema) string {
	if o == nil {
		return s
	}
	return strings.Trim(s+", "+string(o.Type)+" (object schema)", ", ")
}
