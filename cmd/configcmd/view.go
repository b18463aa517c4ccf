package configcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/output"
)

type viewOptions struct {
	files
	Printer     func() (output.Printer, error)
	ShowSecrets bool
}

func newViewCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:        "view",
		Short:      "Print the config file",
		SuggestFor: []string{"list", "show"},
		Args:       arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runView(cmd.Context(), &viewOptions{files: filesOf(f, cmd), Printer: f.LocalPrinter, ShowSecrets: showSecrets(cmd)})
		},
	}
}

func runView(_ context.Context, opts *viewOptions) error {
	file, _, err := opts.Open()
	if err != nil {
		return err
	}
	text, raw, err := file.View(opts.ShowSecrets)
	if err != nil {
		return fmt.Errorf("show config file %s: %w", file.Path(), err)
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	return p.Print(opts.IO.Out, output.Document{Raw: raw, Text: func() string { return string(text) }})
}
