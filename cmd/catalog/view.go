package catalog

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/output"
)

// catalogDoc is the document of raw, the catalog of db as the service sent
// it. Its table is read a table at a time; one of many databases whose
// catalog has no table shows a row saying so.
func catalogDoc(db client.DatabaseName, raw []byte, many bool) output.Document {
	return output.Document{Raw: raw, Tables: []output.Table{catalogTable(raw, many)}, Names: []string{db.CatalogName()}}
}

// row is one line of the catalog table: one of a table's columns, or the
// table's own line, whose column holds the table's classification and
// object schema.
type row struct {
	schema string
	table  *client.TableCatalog
	column *client.ColumnCatalog
}

var catalogColumns = []output.Column[row]{
	{Header: "SCHEMA", Priority: 1, Value: func(r *row) string { return r.schema }},
	{Header: "TABLE", Value: func(r *row) string { return r.table.Name }},
	{Header: "COLUMN", Value: func(r *row) string { return r.column.Name }},
	{Header: "SEMANTIC TYPE", Priority: 2, MinWidth: 13, Value: func(r *row) string {
		// The type of the object schema follows: "email, OBJECT (object schema)".
		if o := r.column.ObjectSchema; o != nil {
			return strings.Trim(r.column.SemanticType+", "+string(o.Type)+" (object schema)", ", ")
		}
		return r.column.SemanticType
	}},
	{Header: "CLASSIFICATION", Priority: 1, Value: func(r *row) string { return r.column.Classification }},
	{Header: "LABELS", Priority: 1, MinWidth: 15, Value: func(r *row) string { return labelText(r.column.Labels) }},
}

// emptyCatalog is the row of a catalog without tables, among many databases.
var emptyCatalog = row{table: &client.TableCatalog{Name: "(empty catalog)"}, column: &client.ColumnCatalog{}}

// catalogTable is the table of the catalog document raw, read a table at
// a time each time the printer goes over its rows.
func catalogTable(raw []byte, many bool) output.Table {
	return output.TableEach(catalogColumns, func(yield func(*row) bool) error {
		empty := true
		err := catalogjson.EachTable(raw, func(schema string, table *client.TableCatalog) error {
			empty = false
			r := row{schema: schema, table: table, column: &client.ColumnCatalog{Classification: table.Classification, ObjectSchema: table.ObjectSchema}}
			if !yield(&r) {
				return errStop
			}
			if table.Columns == nil {
				return nil
			}
			for i := range table.Columns.Columns {
				r.column = &table.Columns.Columns[i]
				if !yield(&r) {
					return errStop
				}
			}
			return nil
		})
		switch {
		case err == errStop: // the printer has the rows it wants
		case err != nil:
			return fmt.Errorf("the service's answer is not a catalog: %w", err)
		case empty && many:
			r := emptyCatalog
			yield(&r)
		}
		return nil
	})
}

// errStop ends the walk over the tables when the printer wants no more rows.
var errStop = errors.New("enough rows")

// labelText shows labels as k=v pairs sorted by key, joined by ", ".
func labelText(labels map[string]string) string {
	pairs := make([]string, 0, len(labels))
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		pairs = append(pairs, k+"="+labels[k])
	}
	return strings.Join(pairs, ", ")
}
