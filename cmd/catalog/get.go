package catalog

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

func newGetCmd(f *factory.Factory) *cobra.Command {
	opts := &dbOptions{}
	return onDatabase(f, "get --instance I --database D", "Show the metadata catalog of a database", opts,
		func(ctx context.Context) error { return runGet(ctx, opts) })
}

func runGet(ctx context.Context, opts *dbOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	raw, err := c.GetCatalog(ctx, opts.Database)
	if err != nil {
		return fmt.Errorf("read the catalog of %s: %w", opts.Database, err)
	}
	return printCatalog(opts.IO.Out, p, opts.Database, raw, "the")
}
