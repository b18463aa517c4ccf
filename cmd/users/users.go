// Package users implements `dbgov users`: reading user accounts in batches
// and restoring deleted ones.
package users

import (
	"embed"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
)

//go:embed help
var help embed.FS

// NewCmd builds the users command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "users <command>", Aliases: []string{"user"}, Short: "Read and restore user accounts"}, newBatchGetCmd(f, nil), newUndeleteCmd(f, nil))
}
