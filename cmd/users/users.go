// Package users implements `dbgov users`: reading user accounts in batches
// and restoring deleted ones.
package users

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds the users command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "users <command>",
		Aliases: []string{"user"},
		Short:   "Read and restore user accounts",
		Long: `Read user accounts (people, bots, service accounts and workload identities)
and restore deleted ones. A user is named by its email, alice@example.com, or
by its full name, users/alice@example.com.`,
	}
	cmd.AddCommand(
		newBatchGetCmd(f, nil),
		newUndeleteCmd(f, nil),
	)
	return cmd
}
