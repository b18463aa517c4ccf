package configcmd

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
)

type useProfileOptions struct {
	files
	Getenv func(string) string
	Name   string
}

func newUseProfileCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "use-profile NAME",
		Short:             "Make a profile the current one",
		Args:              arity.Exact(1, "a profile NAME"),
		ValidArgsFunction: completeProfiles(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUseProfile(cmd.Context(), &useProfileOptions{files: filesOf(f, cmd), Getenv: f.Getenv, Name: args[0]})
		},
	}
}

func runUseProfile(ctx context.Context, opts *useProfileOptions) error {
	var existed bool
	var path string
	err := opts.Edit(ctx, func(file *config.File, _ string) error {
		existed, path = slices.Contains(file.Profiles(), opts.Name), file.Path()
		return file.UseProfile(opts.Name)
	})
	if err != nil {
		return err
	}
	if !existed {
		fmt.Fprintf(opts.IO.ErrOut, "warning: profile %s has no settings yet; add some with `dbgov config set url https://...`\n", opts.Name)
	}
	if env := opts.Getenv("DBGOV_PROFILE"); env != "" && env != opts.Name {
		fmt.Fprintf(opts.IO.ErrOut, "warning: DBGOV_PROFILE=%s is set and overrides the current profile\n", env)
	}
	if opts.IO.ErrTTY {
		fmt.Fprintf(opts.IO.ErrOut, "Using profile %s of %s\n", opts.Name, path)
	}
	return nil
}
