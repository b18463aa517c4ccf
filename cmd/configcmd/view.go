package configcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type viewOptions struct {
	IO      *iostreams.IOStreams
	Open    func() (*config.File, string, error)
	Printer func() (output.Printer, error)

	ShowSecrets bool
}

func newViewCmd(f *factory.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{IO: f.IO, Printer: f.PrintFlags().DefaultFrom(factory.EnvOnly).ToPrinter}
	cmd := &cobra.Command{
		Use:   "view",
		Short: "Print the config file",
		Long: `Print the whole config file as YAML, every profile included, without its
comments. Secrets (token, service_key, header values) are shown as ********
unless --show-secrets is given. An empty or missing file prints {}.
With -o json, --jq or --template the same document is given as JSON.`,
		Example: `  dbgov config view
  dbgov config view --show-secrets
  dbgov config view --jq '.profiles | keys[]'`,
		Args: arity.Exact(0, "no arguments"),
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

func runView(ctx context.Context, opts *viewOptions) error {
	file, _, err := opts.Open()
	if err != nil {
		return err
	}
	text, err := file.View(opts.ShowSecrets)
	if err != nil {
		return fmt.Errorf("show config file %s: %w", file.Path(), err)
	}
	raw, err := input.ToJSON(file.Path(), text)
	if err != nil {
		return fmt.Errorf("show config file %s: %w", file.Path(), err)
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	return p.Print(ctx, opts.IO.Out, output.Document{
		Raw:  raw,
		Text: func() string { return string(text) },
	})
}
