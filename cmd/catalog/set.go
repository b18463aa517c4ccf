package catalog

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
)

type setOptions struct {
	DB                    dbname.Flags
	f                     *factory.Factory
	Schema, Table, Column string
	SchemaGiven           bool
	Classification        *string // nil: left as it is; "": removed
	SemanticType          *string
	Labels                map[string]any // each label set, or removed (nil)
	Create, DryRun        bool
}

// node is a schema, table or column of the file set lays over the catalog:
// a field not changed is left out, a field removed is null.
type node struct {
	Name           string            `json:"name"`
	Classification *any              `json:"classification,omitempty"`
	SemanticType   *any              `json:"semanticType,omitempty"`
	Labels         map[string]any    `json:"labels,omitempty"`
	Columns        map[string][]node `json:"columns,omitempty"`
	Tables         []node            `json:"tables,omitempty"`
}

// newSetCmd builds catalog set. runF, when not nil, is called with the
// options in place of the change: for tests of the flags.
func newSetCmd(f *factory.Factory, runF func(*setOptions) error) *cobra.Command {
	opts := &setOptions{f: f}
	var classification, semanticType string
	var labels, removeLabels []string
	cmd := opts.DB.Command(f, help, "set (--instance I --database D | --databases-from FILE) [--schema S] --table T [--column C] [--classification X] [--semantic-type Y] [--label K=V]... [--remove-label K]...",
		"Change one table or column of the metadata catalog of a database", func(cmd *cobra.Command, _ []client.DatabaseName) error {
			changed := cmd.Flags().Changed
			if changed("classification") {
				opts.Classification = &classification
			}
			if changed("semantic-type") {
				opts.SemanticType = &semanticType
			}
			opts.SchemaGiven = changed("schema")
			var err error
			switch {
			case opts.Table == "":
				return exitcode.Usagef("--table is required: the table to change, or whose column to change")
			case changed("column") && opts.Column == "":
				return exitcode.Usagef("--column needs a column name")
			case opts.Column == "" && (opts.SemanticType != nil || len(labels)+len(removeLabels) > 0):
				return exitcode.Usagef("--semantic-type, --label and --remove-label need --column: tables have no semantic type or labels")
			case len(labels)+len(removeLabels) > 0:
				if opts.Labels, err = labelChanges(labels, removeLabels); err != nil {
					return err
				}
			case opts.Classification == nil && opts.SemanticType == nil:
				return exitcode.Usagef("nothing to change: give --classification, --semantic-type, --label or --remove-label")
			}
			if runF != nil {
				return runF(opts)
			}
			return runSet(cmd.Context(), opts)
		})
	cmd.Flags().StringVar(&opts.Schema, "schema", "", "schema `name` (default: the empty schema name)")
	cmd.Flags().StringVar(&opts.Table, "table", "", "table `name`")
	cmd.Flags().StringVar(&opts.Column, "column", "", "column `name`: change this column of the table")
	cmd.Flags().StringVar(&classification, "classification", "", "set the classification `id`; empty removes it")
	cmd.Flags().StringVar(&semanticType, "semantic-type", "", "set the semantic `type` of the column; empty removes it")
	cmd.Flags().StringArrayVar(&labels, "label", nil, "set the label `key=value` of the column (repeatable)")
	cmd.Flags().StringArrayVar(&removeLabels, "remove-label", nil, "remove the label `key` of the column (repeatable)")
	cmd.Flags().BoolVar(&opts.Create, "create", false, "create the table or column (and schema) when it does not exist")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the changes and the request that would be sent, and send nothing")
	return cmd
}

// runSet lays the one table or column of opts over the catalog of each database.
func runSet(ctx context.Context, opts *setOptions) error {
	file, err := json.Marshal(map[string][]node{"schemas": {{Name: opts.Schema, Tables: []node{opts.target()}}}})
	if err != nil {
		return err
	}
	e := edit{io: opts.f.IO, file: file, dryRun: opts.DryRun, many: opts.DB.Many(), check: opts.check}
	return opts.DB.Run(ctx, opts.f, e.merge)
}

// target is the table set changes, holding the column it changes if any.
func (opts *setOptions) target() node {
	n := node{Name: cmp.Or(opts.Column, opts.Table), Labels: opts.Labels}
	for field, flag := range map[**any]*string{&n.Classification: opts.Classification, &n.SemanticType: opts.SemanticType} {
		if flag != nil {
			v := any(*flag)
			if *flag == "" { // removes the field
				v = nil
			}
			*field = &v
		}
	}
	if opts.Column == "" {
		return n
	}
	return node{Name: opts.Table, Columns: map[string][]node{"columns": {n}}}
}

// check refuses to add a schema, table or column to the catalog cur of db
// without --create; a missing empty schema name without --schema says
// which schemas there are.
func (opts *setOptions) check(db client.DatabaseName, cur []byte, changes []catalogjson.Change) error {
	kinds := map[string]string{opts.Schema: "schema", opts.Schema + "." + opts.Table: "table", opts.Schema + "." + opts.Table + "." + opts.Column: "column"}
	for _, ch := range changes {
		if ch.Op != "add" || ch.Field != "" || opts.Create {
			continue
		}
		err := fmt.Errorf("%s %s is not in the catalog of %s (--create creates it)", kinds[ch.Path], ch.Path, db)
		var cat struct{ Schemas []struct{ Name string } }
		if ch.Path == "" && !opts.SchemaGiven && json.Unmarshal(cur, &cat) == nil && len(cat.Schemas) > 0 {
			names := make([]string, len(cat.Schemas))
			for i, s := range cat.Schemas {
				names[i] = s.Name
			}
			err = fmt.Errorf("the catalog of %s has no schema without a name: give --schema, one of %s", db, strings.Join(names, ", "))
		}
		return exitcode.WithCode(err, exitcode.NotFound, "NOT_FOUND")
	}
	return nil
}

// labelChanges is the labels object of --label key=value and of
// --remove-label key (null: remove it).
func labelChanges(set, remove []string) (map[string]any, error) {
	out := map[string]any{}
	for i, kv := range slices.Concat(set, remove) {
		k, v, ok := strings.Cut(kv, "=")
		if i >= len(set) {
			k, ok = kv, true
		}
		if _, twice := out[k]; twice || !ok || k == "" {
			return nil, exitcode.Usagef("label %q: want key=value for --label, a key for --remove-label, each key once", kv)
		}
		if out[k] = v; i >= len(set) {
			out[k] = nil
		}
	}
	return out, nil
}
