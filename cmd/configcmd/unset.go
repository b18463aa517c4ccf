package configcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
)

type unsetOptions struct {
	files
	Key     string
	Headers []string // the names of the headers to remove; none removes all
}

func newUnsetCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "unset KEY [NAME...]",
		Short:             "Remove a setting from the profile",
		Args:              arity.AtLeast(1, "a KEY"),
		ValidArgsFunction: completeKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 && args[0] != "headers" {
				return exitcode.Usagef("unset takes NAMEs for headers only")
			}
			return runUnset(cmd.Context(), &unsetOptions{files: filesOf(f, cmd), Key: args[0], Headers: args[1:]})
		},
	}
}

func runUnset(ctx context.Context, opts *unsetOptions) error {
	var where string
	err := opts.Edit(ctx, func(file *config.File, profile string) error {
		where = "profile " + profile + " of " + file.Path()
		if len(opts.Headers) > 0 {
			return file.UnsetHeaders(profile, opts.Headers)
		}
		return file.Unset(profile, opts.Key)
	})
	if err == nil && opts.IO.ErrTTY {
		fmt.Fprintf(opts.IO.ErrOut, "Unset %s in %s\n", opts.Key, where)
	}
	return err
}
