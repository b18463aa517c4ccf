// Package schema implements `dbgov schema`.
package schema

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds the schema command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema <command>",
		Short: "Compare database schemas",
		Long: `Compare the current schema of a database, or the schema one of its
changelogs recorded, with a target schema or another changelog's.`,
		Example:               `  dbgov schema diff --instance prod-pg --database orders --schema-file schema.sql`,
		DisableFlagsInUseLine: true,
	}
	cmd.AddCommand(newDiffCmd(f, nil))
	return cmd
}
