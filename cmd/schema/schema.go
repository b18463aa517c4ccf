// Package schema implements `dbgov schema`.
package schema

import (
	"fmt"
	"github.com/spf13/cobra"
	"strings"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
)

// NewCmd builds the schema command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema <command>",
		Short: "Compare database schemas",
		Long: `Compare the schema a changelog of a database recorded with a target schema,
or with the schema another changelog recorded.`,
		Example: `  dbgov schema diff --instance prod-pg --database orders --changelog 101 --schema-file schema.sql`,
		// Without these, cobra answers an unknown verb with the help and
		// exit status 0, which a script would take for success.
		Args:                       unknownVerb,
		SuggestionsMinimumDistance: 2,
		DisableFlagsInUseLine:      true,
		RunE:                       func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newDiffCmd(f, nil))
	return cmd
}

// unknownVerb refuses an argument to the group, which can only be an unknown
// verb, as a usage error.
func unknownVerb(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	hint := ""
	switch s := cmd.SuggestionsFor(args[0]); len(s) {
	case 0:
	case 1:
		hint = fmt.Sprintf("; did you mean %s?", s[0])
	default:
		hint = fmt.Sprintf("; did you mean one of %s?", strings.Join(s, ", "))
	}
	return exitcode.Usagef("unknown command %q for %q%s\nrun '%s --help' for usage", args[0], cmd.CommandPath(), hint, cmd.CommandPath())
}
