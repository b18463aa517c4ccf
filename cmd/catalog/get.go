package catalog

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
)

func newGetCmd(f *factory.Factory) *cobra.Command {
	var dbs dbname.Flags
	return dbs.Command(f, help, "get (--instance I --database D | --databases-from FILE)", "Show the metadata catalog of a database",
		func(cmd *cobra.Command, _ []client.DatabaseName) error {
			return dbs.Run(cmd.Context(), f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
				raw, err := readCatalog(ctx, c, db)
				if err != nil {
					return dbname.Result{}, err
				}
				return dbname.Result{Doc: catalogDoc(db, raw, dbs.Many())}, nil
			})
		})
}
