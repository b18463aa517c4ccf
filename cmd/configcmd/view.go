package configcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
)

type viewOptions struct {
	IO   *iostreams.IOStreams
	Open func() (*config.File, string, error)

	ShowSecrets bool
}

func newViewCmd(f *factory.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "view",
		Short: "Print the config file",
		Long: `Print the whole config file as YAML, every profile included, without its
comments. Secrets (token, service_key, header values) are shown as ********
unless --show-secrets is given. An empty or missing file prints {}.`,
		Example: `  dbgov config view
  dbgov config view --show-secrets`,
		Args: exitcode.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Open = opener(f, cmd)
			opts.ShowSecrets = showSecrets(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	return cmd
}

func runView(_ context.Context, opts *viewOptions) error {
	file, _, err := opts.Open()
	if err != nil {
		return err
	}
	text, err := file.View(opts.ShowSecrets)
	if err != nil {
		return fmt.Errorf("show config file %s: %w", file.Path(), err)
	}
	if _, err := opts.IO.Out.Write(text); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	return nil
}
