package catalog

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
)

type getOptions struct {
	DB dbname.Flags
	f  *factory.Factory
}

func newGetCmd(f *factory.Factory) *cobra.Command {
	opts := &getOptions{f: f}
	return newCommand(f, "get (--instance I --database D | --databases-from FILE)", "Show the metadata catalog of a database", &opts.DB,
		func(ctx context.Context) error { return runGet(ctx, opts) })
}

func runGet(ctx context.Context, opts *getOptions) error {
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		raw, err := readCatalog(ctx, c, db)
		if err != nil {
			return dbname.Result{}, err
		}
		return dbname.Result{Doc: catalogDoc(db, raw, opts.DB.Many())}, nil
	})
}
