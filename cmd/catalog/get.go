package catalog

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

func newGetCmd(f *factory.Factory) *cobra.Command {
	opts := &dbOptions{}
	return onDatabase(f, "get --instance I --database D", "Show the metadata catalog of a database", opts,
		func(ctx context.Context) error { return runGet(ctx, opts) })
}

func runGet(ctx context.Context, opts *dbOptions) error {
	p, _, raw, err := opts.current(ctx)
	if err != nil {
		return err
	}
	return printCatalog(ctx, opts.IO.Out, p, opts.Database, raw, "the")
}
