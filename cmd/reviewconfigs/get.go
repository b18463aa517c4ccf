package reviewconfigs

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type getOptions struct {
	IO      *iostreams.IOStreams
	Client  func() (*client.Client, error)
	Printer func() (output.Printer, error)

	ID string
}

func newGetCmd(f *factory.Factory, runF func(context.Context, *getOptions) error) *cobra.Command {
	opts := &getOptions{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter}
	cmd := &cobra.Command{
		Use:   "get ID",
		Short: "Show a SQL review configuration and its rules",
		Long: `Show a SQL review configuration: its title, whether it is enabled, the
resources that use it, and its rules with their level, engine and payload.
ID is the configuration's id or its full name reviewConfigs/ID.`,
		Example: `  dbgov review-configs get sql-review-prod
  dbgov review-configs get reviewConfigs/sql-review-prod -o json
  dbgov review-configs get sql-review-prod --jq '.rules[] | select(.level == "ERROR") | .type'`,
		Args: arity.Exact(1, "a review configuration ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := client.ParseReviewConfig(args[0])
			if err != nil {
				return exitcode.NewUsage(err)
			}
			opts.ID = id
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runGet(cmd.Context(), opts)
		},
	}
	return cmd
}

func runGet(ctx context.Context, opts *getOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	cfg, raw, err := c.GetReviewConfig(ctx, opts.ID)
	if err != nil {
		return fmt.Errorf("get review config %s: %w", opts.ID, err)
	}
	return p.Print(ctx, opts.IO.Out, output.Document{
		Raw:    raw,
		Names:  func() []string { return []string{cfg.Name} },
		Tables: func() []output.Table { return tables(cfg) },
	})
}
