// Package policies implements `dbgov policies`: the policies set on a
// database.
package policies

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds the policies command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "policies <command>",
		Aliases: []string{"policy"},
		Short:   "Read the policies of a database",
		Long: `Read the policies set on a database: rollout, masking rules, masking
exemptions, tags, data-source query limits and query-data limits.`,
	}
	cmd.AddCommand(newListCmd(f, nil))
	return cmd
}
