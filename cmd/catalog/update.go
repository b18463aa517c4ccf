package catalog

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/output"
)

type updateOptions struct {
	dbOptions
	File         string
	AllowMissing bool
	Merge        bool
	DryRun       bool
}

func newUpdateCmd(f *factory.Factory) *cobra.Command {
	opts := &updateOptions{}
	cmd := onDatabase(f, "update --instance I --database D -f FILE", "Replace the metadata catalog of a database, or merge a file into it", &opts.dbOptions,
		func(ctx context.Context) error {
			switch {
			case opts.File == "":
				return exitcode.Usagef("-f/--file is required: the catalog to send, as JSON or YAML (- for standard input)")
			case opts.Merge && opts.AllowMissing:
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

func runUpdate(ctx context.Context, opts *updateOptions) error {
	if opts.Merge {
		file, err := readCatalogFile(opts.File, opts.IO.In)
		if err != nil {
			return err
		}
		return edit(ctx, &opts.dbOptions, file, opts.File, opts.DryRun, func([]catalogjson.Change) error { return nil })
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	data, err := input.Read(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	req, err := updateRequest(opts, data)
	if err != nil {
		return err
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

// updateRequest is the PATCH sending the file data. A JSON file that decoding
// would not change is sent as it is, so that a large catalog is neither
// decoded nor encoded again; --dry-run shows it decoded.
func updateRequest(opts *updateOptions, data []byte) (*client.Request, error) {
	if body, ok := catalogjson.Verbatim(data, opts.Database.String()+"/catalog"); ok && !opts.DryRun {
		if req, err := client.UpdateCatalogJSONCall(opts.Database, body, opts.AllowMissing); err == nil {
			req.ReuseBody = true // the answer may take the file's memory
			return req, nil
		}
	}
	var cat client.DatabaseCatalog
	if err := input.Decode(input.Name(opts.File), data, &cat); err != nil {
		return nil, err
	}
	req, err := client.UpdateCatalogCall(opts.Database, &cat, opts.AllowMissing)
	if err != nil {
		return nil, exitcode.NewUsage(fmt.Errorf("%s: %w", input.Name(opts.File), err))
	}
	return req, nil
}

// printCatalog prints the catalog raw of db, which is what (the updated
// catalog, the current one). Table and name output read raw as they go, a
// table at a time, so a large catalog is never decoded whole; a body that
// is not a catalog is an error there, while json, yaml, jq and template
// show it as it is.
func printCatalog(ctx context.Context, w io.Writer, p output.Printer, db client.DatabaseName, raw []byte, which string) error {
	var nameErr error
	doc := output.Document{
		Raw: raw,
		Names: func() []string {
			var cat struct {
				Name string `json:"name"`
			}
			if nameErr = json.Unmarshal(raw, &cat); nameErr == nil {
				nameErr = catalogjson.EachTable(raw, func(string, *client.TableCatalog) error { return nil })
			}
			if nameErr != nil {
				return nil
			}
			return []string{cmp.Or(cat.Name, db.String()+"/catalog")}
		},
		Tables: func() []output.Table {
			return []output.Table{catalogTable(raw)}
		},
	}
	err := p.Print(ctx, w, doc)
	if err == nil && nameErr != nil {
		err = fmt.Errorf("the service's answer is not a catalog: %w", nameErr)
	}
	if err != nil {
		return fmt.Errorf("show %s catalog of %s: %w", which, db, err)
	}
	return nil
}
