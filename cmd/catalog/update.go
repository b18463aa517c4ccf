package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
)

func newUpdateCmd(f *factory.Factory) *cobra.Command {
	opts := &fileOptions{}
	cmd := onDatabase(f, "update (--instance I --database D | --databases-from FILE) -f FILE", "Replace the metadata catalog of a database, or merge a file into it", &opts.dbOptions,
		func(ctx context.Context) error {
			if opts.Merge && opts.AllowMissing {
				return exitcode.Usagef("--merge needs a catalog to merge into: it cannot be used with --allow-missing")
			}
			return runUpdate(ctx, opts)
		})
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.AllowMissing, "allow-missing", false, "create the catalog when the database has none")
	cmd.Flags().BoolVar(&opts.Merge, "merge", false, "lay the file over the current catalog instead of replacing it")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the request that would be sent, and send nothing")
	return cmd
}

func runUpdate(ctx context.Context, opts *fileOptions) error {
	if opts.Merge {
		return compare(ctx, opts)
	}
	if _, err := opts.f.Client(); err != nil { // a missing URL is told before a large file is read
		return err
	}
	data, err := input.Read(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	verbatim := catalogjson.Verbatim(data) // read once for every database
	decoded := sync.OnceValues(func() (cat client.DatabaseCatalog, err error) {
		return cat, input.Decode(input.Name(opts.File), data, &cat)
	})
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		// A JSON file that decoding would not change is sent as it is, so
		// that a large catalog is neither decoded nor encoded again;
		// --dry-run shows it decoded.
		body, asIs := verbatim(db.String() + "/catalog")
		req, err := client.UpdateCatalogJSONCall(db, body, opts.AllowMissing)
		if !asIs || opts.DryRun || err != nil {
			cat, err := decoded()
			if err != nil {
				return dbname.Result{}, err
			}
			if req, err = client.UpdateCatalogCall(db, &cat, opts.AllowMissing); err != nil {
				return dbname.Result{}, exitcode.NewUsage(fmt.Errorf("%s: %w", input.Name(opts.File), err))
			}
		} else {
			// The answer may take the file's memory, unless other databases read it too.
			req.ReuseBody = !opts.DB.Many()
		}
		if opts.DryRun {
			doc, err := dryrun.Document(c, req)
			return dbname.Result{Doc: doc}, err
		}
		// The body is decoded only by the formats that need typed values
		// (table and name); the others print it as it came.
		raw, err := c.Send(ctx, req, nil)
		if err != nil {
			err = fmt.Errorf("update the catalog of %s: %w", db, err)
			var api *client.APIError
			if opts.AllowMissing && errors.As(err, &api) && api.HTTPStatus == http.StatusForbidden {
				err = exitcode.WithHint(err, "the service refuses --allow-missing (no role holds the permission it checks for it): run again without the flag")
			}
			return dbname.Result{}, err
		}
		return catalogResult(db, raw, "the updated"), nil
	})
}
