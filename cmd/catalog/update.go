package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
)

func newUpdateCmd(f *factory.Factory) *cobra.Command {
	opts := &fileOptions{}
	cmd := onDatabase(f, "update --instance I --database D -f FILE", "Replace the metadata catalog of a database, or merge a file into it", &opts.dbOptions,
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
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	data, err := input.Read(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	// A JSON file that decoding would not change is sent as it is, so that a
	// large catalog is neither decoded nor encoded again; --dry-run shows it
	// decoded.
	body, verbatim := catalogjson.Verbatim(data, opts.Database.String()+"/catalog")
	req, err := client.UpdateCatalogJSONCall(opts.Database, body, opts.AllowMissing)
	if !verbatim || opts.DryRun || err != nil {
		var cat client.DatabaseCatalog
		if err := input.Decode(input.Name(opts.File), data, &cat); err != nil {
			return err
		}
		if req, err = client.UpdateCatalogCall(opts.Database, &cat, opts.AllowMissing); err != nil {
			return exitcode.NewUsage(fmt.Errorf("%s: %w", input.Name(opts.File), err))
		}
	} else {
		req.ReuseBody = true // the answer may take the file's memory
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if opts.DryRun {
		return dryrun.Print(ctx, opts.IO.Out, p, c, req)
	}
	// The body is decoded only by the formats that need typed values (table
	// and name); the others print it as it came.
	raw, err := c.Send(ctx, req, nil)
	if err != nil {
		err = fmt.Errorf("update the catalog of %s: %w", opts.Database, err)
		var api *client.APIError
		if opts.AllowMissing && errors.As(err, &api) && api.HTTPStatus == http.StatusForbidden {
			return exitcode.WithHint(err, "the service refuses --allow-missing (no role holds the permission it checks for it): run again without the flag")
		}
		return err
	}
	return printCatalog(ctx, opts.IO.Out, p, opts.Database, raw, "the updated")
}
