// Package reviewconfigs implements `dbgov review-configs`.
package reviewconfigs

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds the review-configs command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "review-configs <command>",
		Aliases: []string{"review-config"},
		Short:   "Read SQL review configurations",
	}
	cmd.AddCommand(newGetCmd(f, nil))
	return cmd
}
