// Package arity checks the number of a command's arguments, refusing a wrong
// count with a usage error (exit 2) that says what the command takes.
package arity

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// Exact wants n arguments, described as what.
func Exact(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return exitcode.Usagef("%s takes %s (got %d arguments)\nrun '%s --help' for usage", cmd.CommandPath(), what, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// AtLeast wants n arguments or more, described as what.
func AtLeast(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return exitcode.Usagef("%s takes %s\nrun '%s --help' for usage", cmd.CommandPath(), what, cmd.CommandPath())
		}
		return nil
	}
}
