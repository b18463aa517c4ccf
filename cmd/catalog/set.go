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
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
)

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

func newSetCmd(f *factory.Factory) *cobra.Command {
	opts := &fileOptions{Merge: true}
	var schema, table, column string
	var labels, removeLabels []string
	var create bool
	var cmd *cobra.Command
	cmd = onDatabase(f, "set (--instance I --database D | --databases-from FILE) [--schema S] --table T [--column C] [--classification X] [--semantic-type Y] [--label K=V]... [--remove-label K]...",
		"Change one table or column of the metadata catalog of a database", &opts.dbOptions, func(ctx context.Context) error {
			changed := cmd.Flags().Changed
			target := node{Name: cmp.Or(column, table)}
			for flag, field := range map[string]**any{"classification": &target.Classification, "semantic-type": &target.SemanticType} {
				if fl := cmd.Flags().Lookup(flag); fl.Changed {
					v := any(fl.Value.String())
					if v == "" { // removes the field
						v = nil
					}
					*field = &v
				}
			}
			var err error
			switch {
			case table == "":
				return exitcode.Usagef("--table is required: the table to change, or whose column to change")
			case changed("column") && column == "":
				return exitcode.Usagef("--column needs a column name")
			case column == "" && (changed("semantic-type") || len(labels)+len(removeLabels) > 0):
				return exitcode.Usagef("--semantic-type, --label and --remove-label need --column: tables have no semantic type or labels")
			case len(labels)+len(removeLabels) > 0:
				if target.Labels, err = labelChanges(labels, removeLabels); err != nil {
					return err
				}
			case target.Classification == nil && target.SemanticType == nil:
				return exitcode.Usagef("nothing to change: give --classification, --semantic-type, --label or --remove-label")
			}
			if column != "" {
				target = node{Name: table, Columns: map[string][]node{"columns": {target}}}
			}
			if opts.Patch, err = json.Marshal(map[string][]node{"schemas": {{Name: schema, Tables: []node{target}}}}); err != nil {
				return err
			}
			kinds := map[string]string{schema: "schema", schema + "." + table: "table", schema + "." + table + "." + column: "column"}
			opts.Check = func(db client.DatabaseName, changes []catalogjson.Change) error {
				for _, ch := range changes {
					if ch.Op == "add" && ch.Field == "" && !create {
						return exitcode.WithCode(fmt.Errorf("%s %s is not in the catalog of %s (--create creates it)", kinds[ch.Path], ch.Path, db),
							exitcode.NotFound, "NOT_FOUND")
					}
				}
				return nil
			}
			return compare(ctx, opts)
		})
	cmd.Flags().StringVar(&schema, "schema", "", "schema `name` (default: the empty schema name)")
	cmd.Flags().StringVar(&table, "table", "", "table `name`")
	cmd.Flags().StringVar(&column, "column", "", "column `name`: change this column of the table")
	cmd.Flags().String("classification", "", "set the classification `id`; empty removes it")
	cmd.Flags().String("semantic-type", "", "set the semantic `type` of the column; empty removes it")
	cmd.Flags().StringArrayVar(&labels, "label", nil, "set the label `key=value` of the column (repeatable)")
	cmd.Flags().StringArrayVar(&removeLabels, "remove-label", nil, "remove the label `key` of the column (repeatable)")
	cmd.Flags().BoolVar(&create, "create", false, "create the table or column (and schema) when it does not exist")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the changes and the request that would be sent, and send nothing")
	return cmd
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
