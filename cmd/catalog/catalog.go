// Package catalog implements `dbgov catalog`: the metadata catalog of a
// database (classifications, labels and semantic types of its tables and
// columns).
package catalog

import (
	"context"
	"embed"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
)

//go:embed help
var help embed.FS

// NewCmd builds the catalog command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "catalog <command>", Short: "Manage the metadata catalog of a database"},
		newGetCmd(f, nil), newDiffCmd(f, nil), newUpdateCmd(f, nil), newSetCmd(f, nil))
}

// newGetCmd builds catalog get. runF, when not nil, is called with the
// database flags in place of the reading: for tests of the flags.
func newGetCmd(f *factory.Factory, runF func(*dbname.Flags) error) *cobra.Command {
	var dbs dbname.Flags
	return dbs.Command(f, help, "get (--instance I --database D | --databases-from FILE)", "Show the metadata catalog of a database",
		func(cmd *cobra.Command, _ []client.DatabaseName) error {
			if runF != nil {
				return runF(&dbs)
			}
			return dbs.Run(cmd.Context(), f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
				raw, err := readCatalog(ctx, c, db)
				if err != nil {
					return dbname.Result{}, err
				}
				return dbname.Result{Doc: catalogDoc(db, raw, dbs.Many())}, nil
			})
		})
}

// errNoFile is the error of a verb that needs -f without it.
var errNoFile = exitcode.Usagef("-f/--file is required: the catalog, as JSON or YAML (- for standard input)")

// readCatalog reads the catalog of db. Every verb reads it here: an answer
// that is not that catalog is an invalid response.
func readCatalog(ctx context.Context, c *client.Client, db client.DatabaseName) ([]byte, error) {
	raw, err := c.GetCatalog(ctx, db)
	return checkAnswer(db, raw, err, "read the catalog of "+db.String())
}

// checkAnswer returns raw, the service's answer to a read or write of the
// catalog of db, refused when it is not that catalog. An error, err or the
// refusal, is wrapped with doing, what was being done.
func checkAnswer(db client.DatabaseName, raw []byte, err error, doing string) ([]byte, error) {
	if err == nil {
		if err = catalogjson.Check(raw, db.CatalogName()); err != nil {
			err = &client.InvalidResponseError{Err: fmt.Errorf("the service's answer is not a catalog: %w", err)}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	return raw, nil
}
