package configcmd

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/iostreams"
)

type useProfileOptions struct {
	IO     *iostreams.IOStreams
	Open   func() (*config.File, string, error)
	Getenv func(string) string

	Name string
}

func newUseProfileCmd(f *factory.Factory, runF func(context.Context, *useProfileOptions) error) *cobra.Command {
	opts := &useProfileOptions{IO: f.IO, Getenv: f.Getenv}
	cmd := &cobra.Command{
		Use:   "use-profile NAME",
		Short: "Make a profile the current one",
		Long: `Make NAME the file's current profile: the one used when neither --profile nor
DBGOV_PROFILE names another. The profile need not exist yet; the next
` + "`dbgov config set`" + ` fills it.`,
		Example: `  dbgov config use-profile staging
  dbgov config use-profile default`,
		Args: arity.Exact(1, "a profile NAME"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			file, _, err := opener(f, cmd)()
			if err != nil {
				return nil, cobra.ShellCompDirectiveError
			}
			return file.Profiles(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			opts.Open = opener(f, cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runUseProfile(cmd.Context(), opts)
		},
	}
	return cmd
}

func runUseProfile(_ context.Context, opts *useProfileOptions) error {
	file, _, err := opts.Open()
	if err != nil {
		return err
	}
	existed := slices.Contains(file.Profiles(), opts.Name)
	if err := file.UseProfile(opts.Name); err != nil {
		return err
	}
	if err := file.Save(); err != nil {
		return err
	}
	if !existed {
		fmt.Fprintf(opts.IO.ErrOut, "warning: profile %s has no settings yet; add some with `dbgov config set url https://...`\n", opts.Name)
	}
	if env := opts.Getenv("DBGOV_PROFILE"); env != "" && env != opts.Name {
		fmt.Fprintf(opts.IO.ErrOut, "warning: DBGOV_PROFILE=%s is set and overrides the current profile\n", env)
	}
	if opts.IO.ErrTTY {
		fmt.Fprintf(opts.IO.ErrOut, "Using profile %s of %s\n", opts.Name, file.Path())
	}
	return nil
}
