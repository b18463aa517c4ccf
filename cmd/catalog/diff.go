package catalog

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
)

type diffOptions struct {
	dbOptions
	File     string
	ExitCode bool
}

func newDiffCmd(f *factory.Factory) *cobra.Command {
	opts := &diffOptions{}
	cmd := onDatabase(f, "diff (--instance I --database D | --databases-from FILE) -f FILE", "Show what replacing the catalog of a database with a file would change", &opts.dbOptions,
		func(ctx context.Context) error {
			if opts.File == "" {
				return exitcode.Usagef("-f/--file is required: the catalog to compare with, as JSON or YAML (- for standard input)")
			}
			return runDiff(ctx, opts)
		})
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit 9 when there are changes")
	return cmd
}

func runDiff(ctx context.Context, opts *diffOptions) error {
	file, err := readCatalogFile(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		cur, err := readCatalog(ctx, c, db)
		if err != nil {
			return dbname.Result{}, err
		}
		changes, err := catalogjson.Diff(cur, file)
		if err != nil {
			return dbname.Result{}, compareError(db, opts.File, err)
		}
		r, err := changesResult(db, changes, nil, nil)
		r.Differs = opts.ExitCode && len(changes) > 0
		return r, err
	})
}
