package catalog

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
)

func newGetCmd(f *factory.Factory) *cobra.Command {
	opts := &dbOptions{}
	return onDatabase(f, "get (--instance I --database D | --databases-from FILE)", "Show the metadata catalog of a database", opts,
		func(ctx context.Context) error { return runGet(ctx, opts) })
}

func runGet(ctx context.Context, opts *dbOptions) error {
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		raw, err := readCatalog(ctx, c, db)
		return catalogResult(db, raw, "the"), err
	})
}
