// Package catalog implements `dbgov catalog`: the metadata catalog of a
// database (classifications, labels and semantic types of its tables and
// columns).
package catalog

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds the catalog command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog <command>",
		Short: "Manage the metadata catalog of a database",
		Long: `Manage the metadata catalog of a database: the classification, labels and
semantic type of its schemas, tables and columns.`,
	}
	cmd.AddCommand(newUpdateCmd(f, nil))
	return cmd
}
