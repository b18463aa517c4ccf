package configcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/iostreams"
)

type unsetOptions struct {
	IO   *iostreams.IOStreams
	Open func() (*config.File, string, error)

	Key string
}

func newUnsetCmd(f *factory.Factory, runF func(context.Context, *unsetOptions) error) *cobra.Command {
	opts := &unsetOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "unset KEY",
		Short: "Remove a setting from the profile",
		Long: `Remove KEY from the profile in use, so that its default applies again.
Removing a key that is not set does nothing. The keys are:
` + keyList() + `.`,
		Example: `  dbgov config unset token
  dbgov config unset --profile staging headers`,
		Args:              arity.Exact(1, "a KEY"),
		ValidArgsFunction: completeKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key = args[0]
			opts.Open = opener(f, cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runUnset(cmd.Context(), opts)
		},
	}
	return cmd
}

func runUnset(_ context.Context, opts *unsetOptions) error {
	file, profile, err := opts.Open()
	if err != nil {
		return err
	}
	if err := file.Unset(profile, opts.Key); err != nil {
		return err
	}
	if err := file.Save(); err != nil {
		return err
	}
	if opts.IO.ErrTTY {
		fmt.Fprintf(opts.IO.ErrOut, "Unset %s in profile %s of %s\n", opts.Key, profile, file.Path())
	}
	return nil
}
