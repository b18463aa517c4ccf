package catalog

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
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
	cmd := onDatabase(f, "update (--instance I --database D | --databases-from FILE) -f FILE", "Replace the metadata catalog of a database, or merge a file into it", &opts.dbOptions,
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
		return edit(ctx, &opts.dbOptions, file, opts.File, opts.DryRun, func(client.DatabaseName, []catalogjson.Change) error { return nil })
	}
	if _, err := opts.f.Client(); err != nil { // a missing URL is told before a large file is read
		return err
	}
	data, err := input.Read(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	decoded := sync.OnceValues(func() (cat client.DatabaseCatalog, err error) {
		return cat, input.Decode(input.Name(opts.File), data, &cat)
	})
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		// The same request is printed by --dry-run or sent.
		req := verbatimRequest(opts, db, data)
		if req == nil {
			cat, err := decoded()
			if err != nil {
				return dbname.Result{}, err
			}
			if req, err = client.UpdateCatalogCall(db, &cat, opts.AllowMissing); err != nil {
				return dbname.Result{}, exitcode.NewUsage(fmt.Errorf("%s: %w", input.Name(opts.File), err))
			}
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

// verbatimRequest returns the request sending the catalog file data as it
// is, its name filled in when it has none, or nil when the file has to be
// decoded: it is YAML, holds what decoding would refuse or drop, or names
// a catalog that is not the database's (Decode and UpdateCatalogCall then
// say what is wrong). A large JSON catalog is so sent without being
// decoded and encoded again. --dry-run shows the request as decoded.
func verbatimRequest(opts *updateOptions, db client.DatabaseName, data []byte) *client.Request {
	if opts.DryRun {
		return nil
	}
	top, ok := input.Verbatim(data, (*client.DatabaseCatalog)(nil))
	if !ok {
		return nil
	}
	want := db.String() + "/catalog"
	body := data
	if name, given := top["name"]; given {
		var got string
		if err := json.Unmarshal(name, &got); err != nil || got != want {
			return nil
		}
	} else {
		quoted, err := json.Marshal(want)
		if err != nil {
			return nil
		}
		// The name goes first, before the members of the file's object.
		rest := bytes.TrimLeft(data, " \t\r\n")[1:]
		body = make([]byte, 0, cap(data)+len(quoted)+10)
		body = append(append(append(body, `{"name":`...), quoted...), ',')
		if trimmed := bytes.TrimLeft(rest, " \t\r\n"); trimmed[0] == '}' {
			body = append(body[:len(body)-1], trimmed...)
		} else {
			body = append(body, rest...)
		}
	}
	req, err := client.UpdateCatalogJSONCall(db, body, opts.AllowMissing)
	if err != nil {
		return nil
	}
	// Nothing reads the file once it is sent: the answer, often of the
	// same size, may take its memory, unless other databases read it too.
	req.ReuseBody = !opts.DB.Many()
	return req
}

// catalogResult prints the catalog raw of db, which is what (the updated
// catalog, the current one). Table and name output read raw as they go, a
// table at a time, so a large catalog is never decoded whole; a body that
// is not a catalog is an error there, while json, yaml, jq and template
// show it as it is.
func catalogResult(db client.DatabaseName, raw []byte, which string) dbname.Result {
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
	return dbname.Result{Doc: doc, Printed: func(err error) error {
		if err == nil && nameErr != nil {
			err = fmt.Errorf("the service's answer is not a catalog: %w", nameErr)
		}
		if err != nil {
			return fmt.Errorf("show %s catalog of %s: %w", which, db, err)
		}
		return nil
	}}
}
