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
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// NewCmd builds the catalog command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "catalog <command>", Short: "Manage the metadata catalog of a database"},
		newGetCmd(f), newDiffCmd(f), newUpdateCmd(f), newSetCmd(f))
}

// dbOptions are what every catalog command has: its streams and factory,
// and the databases it works on.
type dbOptions struct {
	IO *iostreams.IOStreams
	DB dbname.Flags
	f  *factory.Factory
}

// readCatalog returns the catalog of db as the service sent it.
func readCatalog(ctx context.Context, c *client.Client, db client.DatabaseName) ([]byte, error) {
	raw, err := c.GetCatalog(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read the catalog of %s: %w", db, err)
	}
	return raw, nil
}

//go:embed help
var help embed.FS

// onDatabase builds the command use (its verb first) on one database or
// many, its help from help/VERB.txt; it checks the database flags, and that
// a command with -f got it, before it calls run.
func onDatabase(f *factory.Factory, use, short string, opts *dbOptions, run func(context.Context) error) *cobra.Command {
	*opts = dbOptions{IO: f.IO, f: f}
	cmd := helptext.Command(help, &cobra.Command{Use: use, Short: short, Args: arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := opts.DB.Databases(f)
			if file := cmd.Flags().Lookup("file"); err == nil && file != nil && file.Value.String() == "" {
				err = exitcode.Usagef("-f/--file is required: the catalog, as JSON or YAML (- for standard input)")
			}
			if err != nil {
				return err
			}
			return run(cmd.Context())
		}})
	opts.DB.AddMany(cmd)
	return cmd
}
