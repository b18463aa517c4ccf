package catalog

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/output"
)

// catalogResult is what shows the catalog raw of db, which is what (the
// updated catalog, the current one). Table and name output read it a table
// at a time and refuse an answer that is not a catalog; the others show it as it is.
func catalogResult(db client.DatabaseName, raw []byte, which string) dbname.Result {
	var nameErr error
	return dbname.Result{Doc: output.Document{Raw: raw,
		Tables: func() []output.Table { return []output.Table{catalogTable(raw)} },
		Names: func() []string {
			var cat struct{ Name string }
			if nameErr = json.Unmarshal(raw, &cat); nameErr == nil {
				nameErr = catalogjson.EachTable(raw, func(string, *client.TableCatalog) error { return nil })
			}
			if nameErr != nil {
				return nil
			}
			return []string{cmp.Or(cat.Name, db.String()+"/catalog")}
		}},
		Printed: func(err error) error {
			if err == nil && nameErr != nil {
				err = fmt.Errorf("the service's answer is not a catalog: %w", nameErr)
			}
			if err != nil {
				return fmt.Errorf("show %s catalog of %s: %w", which, db, err)
			}
			return nil
		}}
}

// row is one line of the catalog table: one of a table's columns, or the
// table's own line, whose column holds the table's classification and
// object schema. It points into the decoded table: building it copies no strings.
type row struct {
	schema string
	table  *client.TableCatalog
	column *client.ColumnCatalog
	labels []byte // the last labels' text, and a string of it
	text   string
}

var catalogColumns = []output.Column[row]{
	{Header: "SCHEMA", Priority: 1, Value: func(r *row) string { return r.schema }},
	{Header: "TABLE", Value: func(r *row) string { return r.table.Name }},
	{Header: "COLUMN", Value: func(r *row) string { return r.column.Name }},
	{Header: "SEMANTIC TYPE", Priority: 2, MinWidth: 13, Value: func(r *row) string {
		return withObjectSchema(r.column.SemanticType, r.column.ObjectSchema)
	}},
	{Header: "CLASSIFICATION", Priority: 1, Value: func(r *row) string { return r.column.Classification }},
	{Header: "LABELS", Priority: 3, MinWidth: 15, Value: (*row).labelText},
}

// catalogTable is the table of the catalog document raw, read a table at
// a time each time the printer goes over its rows.
func catalogTable(raw []byte) output.Table {
	return output.TableEach(catalogColumns, func(yield func(*row) bool) error {
		var r row
		var own client.ColumnCatalog
		err := catalogjson.EachTable(raw, func(schema string, table *client.TableCatalog) error {
			own = client.ColumnCatalog{Classification: table.Classification, ObjectSchema: table.ObjectSchema}
			r.schema, r.table, r.column = schema, table, &own
			for k := 0; yield(&r); k++ {
				if table.Columns == nil || k == len(table.Columns.Columns) {
					return nil
				}
				r.column = &table.Columns.Columns[k]
			}
			return errEnough
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

// labelText shows the column's labels as k=v pairs sorted by key, joined
// by ", ", making a string only when they differ from the row before's.
func (r *row) labelText() string {
	if len(r.column.Labels) == 0 {
		return ""
	}
	var buf [16]string
	keys := buf[:0]
	for k := range r.column.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b := r.labels[:0]
	for _, k := range keys {
		b = append(append(append(append(b, k...), '='), r.column.Labels[k]...), ", "...)
	}
	if r.labels, b = b, b[:len(b)-2]; r.text != string(b) {
		r.text = string(b)
	}
	return r.text
}

// withObjectSchema is the semantic type s, then the type of the object
// schema o when there is one: "email, OBJECT (object schema)".
func withObjectSchema(s string, o *client.ObjectSchema) string {
	if o == nil {
		return s
	}
	return strings.Trim(s+", "+string(o.Type)+" (object schema)", ", ")
}
