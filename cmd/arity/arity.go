// Package arity checks the number of a command's arguments, refusing a wrong
// count with a usage error (exit 2) that says what the command takes.
package arity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// Exact wants n arguments, described as what.
func Exact(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			got := fmt.Sprintf("%d arguments", len(args))
			if len(args) == 1 {
				got = "1 argument"
			}
			return exitcode.Usagef("%s takes %s (got %s)\nrun '%s --help' for usage", verb(cmd), what, got, cmd.CommandPath())
		}
		return nil
	}
}

// AtLeast wants n arguments or more, described as what.
func AtLeast(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return exitcode.Usagef("%s takes %s\nrun '%s --help' for usage", verb(cmd), what, cmd.CommandPath())
		}
		return nil
	}
}

// Name wants one argument, what, a name that parse turns into the id it
// stores in *id; a name parse refuses is a usage error.
func Name(what string, parse func(string) (string, error), id *string) cobra.PositionalArgs {
	one := Exact(1, what)
	return func(cmd *cobra.Command, args []string) error {
		if err := one(cmd, args); err != nil {
			return err
		}
		v, err := parse(args[0])
		if err != nil {
			return exitcode.NewUsage(err)
		}
		*id = v
		return nil
	}
}

// One reports whether exactly one of given holds: of the flags that each
// name a command's one target, whether exactly one is given.
func One(given ...bool) bool {
	first := slices.Index(given, true)
	return first >= 0 && !slices.Contains(given[first+1:], true)
}

// verb names the command without the program's name, which the error line
// already begins with ("dbgov: users undelete takes ...").
func verb(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}
