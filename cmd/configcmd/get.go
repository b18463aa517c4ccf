package configcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/output"
)

type getOptions struct {
	files
	Key         string
	ShowSecrets bool
}

func newGetCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "get KEY",
		Short:             "Print a setting of the profile",
		Args:              arity.Exact(1, "a KEY"),
		ValidArgsFunction: completeKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGet(cmd.Context(), &getOptions{files: filesOf(f, cmd), Key: args[0], ShowSecrets: showSecrets(cmd)})
		},
	}
}

func runGet(_ context.Context, opts *getOptions) error {
	file, profile, err := opts.Open()
	if err != nil {
		return err
	}
	value, err := file.Get(profile, opts.Key)
	if err != nil {
		return err
	}
	if value == "" {
		return fmt.Errorf("%s is not set in profile %s of %s", opts.Key, profile, file.Path())
	}
	lines := strings.Split(value, "\n")
	for i, line := range lines {
		if !opts.ShowSecrets {
			line = config.Mask(opts.Key, line)
		}
		// A hand-edited file may hold anything: keep it off the terminal.
		lines[i] = output.EscapeControl(line)
	}
	if _, err := fmt.Fprintln(opts.IO.Out, strings.Join(lines, "\n")); err != nil {
		return fmt.Errorf("write %s: %w", opts.Key, err)
	}
	return nil
}
