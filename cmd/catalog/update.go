package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
)

type updateOptions struct {
	factory.Deps
	DB                          dbname.Flags
	f                           *factory.Factory
	File                        string
	AllowMissing, Merge, DryRun bool
}

func newUpdateCmd(f *factory.Factory) *cobra.Command {
	opts := &updateOptions{Deps: f.Deps(), f: f}
	cmd := newCommand(f, "update (--instance I --database D | --databases-from FILE) -f FILE", "Replace the metadata catalog of a database, or merge a file into it", &opts.DB,
		func(ctx context.Context) error {
			switch {
			case opts.File == "":
				return errNoFile
			case opts.Merge && opts.AllowMissing:
				return exitcode.Usagef("--merge needs a catalog to merge into: it cannot be used with --allow-missing")
			case opts.Merge:
				return runMerge(ctx, opts)
			}
			return runUpdate(ctx, opts)
		})
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.AllowMissing, "allow-missing", false, "create the catalog when the database has none")
	cmd.Flags().BoolVar(&opts.Merge, "merge", false, "lay the file over the current catalog instead of replacing it")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the request that would be sent, and send nothing")
	return cmd
}

// runUpdate replaces the catalog of each database with the file.
func runUpdate(ctx context.Context, opts *updateOptions) error {
	if _, err := opts.Client(); err != nil { // a missing URL is told before a large file is read
		return err
	}
	var cat catalogjson.File
	data, err := input.Read(opts.File, opts.IO.In)
	if err == nil {
		err = input.Decode(input.Name(opts.File), data, &cat)
	}
	if err != nil {
		return err
	}
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		if cat.Name != "" && cat.Name != db.CatalogName() {
			return dbname.Result{}, exitcode.Usagef("%s: catalog name %q is not the catalog of %s (%s)", input.Name(opts.File), cat.Name, db, db.CatalogName())
		}
		req, err := client.UpdateCatalogJSONCall(db, cat.Body(db.CatalogName()), opts.AllowMissing)
		if err != nil {
			return dbname.Result{}, err
		}
		if opts.DryRun {
			doc, err := dryrun.Document(c, req)
			return dbname.Result{Doc: doc}, err
		}
		raw, err := c.Send(ctx, req, nil)
		if err == nil {
			err = checkAnswer(db, raw)
		}
		if err != nil {
			err = fmt.Errorf("update the catalog of %s: %w", db, err)
			var api *client.APIError
			if opts.AllowMissing && errors.As(err, &api) && api.HTTPStatus == http.StatusForbidden {
				err = exitcode.WithHint(err, "the service refuses --allow-missing (no role holds the permission it checks for it): run again without the flag")
			}
			return dbname.Result{}, err
		}
		return dbname.Result{Doc: catalogDoc(db, raw, opts.DB.Many()), Written: "the catalog of " + db.String()}, nil
	})
}

// runMerge lays the file over the catalog of each database.
func runMerge(ctx context.Context, opts *updateOptions) error {
	file, err := readFile(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	e := edit{Deps: opts.Deps, file: file, path: opts.File, dryRun: opts.DryRun, many: opts.DB.Many()}
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		return e.merge(ctx, c, db)
	})
}
