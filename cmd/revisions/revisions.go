// Package revisions implements `dbgov revisions`: the schema revisions of a
// database.
package revisions

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds the revisions command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "revisions <command>",
		Aliases: []string{"revision"},
		Short:   "Manage the schema revisions of a database",
	}
	cmd.AddCommand(newBatchCreateCmd(f, nil))
	return cmd
}
