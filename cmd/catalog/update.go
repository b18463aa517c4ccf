package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type updateOptions struct {
	IO      *iostreams.IOStreams
	Client  func() (*client.Client, error)
	Printer func() (output.Printer, error)

	Database     client.DatabaseName
	File         string
	AllowMissing bool
	DryRun       bool
}

func newUpdateCmd(f *factory.Factory, runF func(context.Context, *updateOptions) error) *cobra.Command {
	opts := &updateOptions{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter}
	var db dbname.Flags
	cmd := &cobra.Command{
		Use:   "update --instance I --database D -f FILE",
		Short: "Replace the metadata catalog of a database",
		Long: `Replace the metadata catalog of a database with the one in FILE, and show
the catalog the service kept: a row per table (COLUMN empty) and a row per
column, with its semantic type, classification and labels.

FILE is JSON or YAML ("-" reads standard input) holding the catalog itself:
name and schemas, each schema with its tables, each table with its columns.
The update replaces the whole catalog: what FILE leaves out is removed. The
catalog name instances/I/databases/D/catalog is filled in when FILE has none;
a FILE naming the catalog of another database is refused. A field this
version does not know, a value of the wrong type or an unknown enum value is
refused before anything is sent.

With --allow-missing, a database without a catalog gets one; without it,
the service refuses to update a catalog that does not exist.`,
		Example: `  dbgov catalog update --instance prod-pg --database orders -f catalog.yaml
  dbgov catalog update --database instances/prod-pg/databases/orders -f catalog.json --allow-missing
  dbgov catalog update --instance prod-pg --database orders -f catalog.yaml --dry-run
  generate-catalog | dbgov catalog update --instance prod-pg --database orders -f - -o json`,
		Args: arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := db.Resolve()
			if err != nil {
				return err
			}
			if opts.File == "" {
				return exitcode.Usagef("-f/--file is required: the catalog to send, as JSON or YAML (- for standard input)")
			}
			opts.Database = d
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runUpdate(cmd.Context(), opts)
		},
	}
	db.Add(cmd)
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.AllowMissing, "allow-missing", false, "create the catalog when the database has none")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the request that would be sent, and send nothing")
	return cmd
}

func runUpdate(ctx context.Context, opts *updateOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	data, err := input.Read(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	// Built once: the same request is printed by --dry-run or sent.
	req := verbatimRequest(opts, data)
	if req == nil {
		var cat client.DatabaseCatalog
		if err := input.Decode(input.Name(opts.File), data, &cat); err != nil {
			return err
		}
		req, err = client.UpdateCatalogCall(opts.Database, &cat, opts.AllowMissing)
		if err != nil {
			return exitcode.NewUsage(fmt.Errorf("%s: %w", input.Name(opts.File), err))
		}
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if opts.DryRun {
		return dryrun.Print(opts.IO.Out, p, c, req)
	}
	// The body is decoded only by the formats that need typed values (table
	// and name); the others print it as it came.
	raw, err := c.Send(ctx, req, nil)
	if err != nil {
		return fmt.Errorf("update the catalog of %s: %w", opts.Database, err)
	}
	if err := printCatalog(opts, p, raw); err != nil {
		return fmt.Errorf("show the updated catalog of %s: %w", opts.Database, err)
	}
	return nil
}

// verbatimRequest returns the request sending the catalog file data as it
// is, its name filled in when it has none, or nil when the file has to be
// decoded: it is YAML, holds what decoding would refuse or drop, or names
// a catalog that is not the database's (Decode and UpdateCatalogCall then
// say what is wrong). A large JSON catalog is so sent without being
// decoded and encoded again. --dry-run shows the request as decoded.
func verbatimRequest(opts *updateOptions, data []byte) *client.Request {
	if opts.DryRun {
		return nil
	}
	top, ok := input.Verbatim(data, (*client.DatabaseCatalog)(nil))
	if !ok {
		return nil
	}
	want := opts.Database.String() + "/catalog"
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
	req, err := client.UpdateCatalogJSONCall(opts.Database, body, opts.AllowMissing)
	if err != nil {
		return nil
	}
	// Nothing reads the file once it is sent: the answer, often of the
	// same size, may take its memory.
	req.ReuseBody = true
	return req
}

// printCatalog prints the catalog the service returned. Table and name
// output read raw as they go, a table at a time, so a large catalog is
// never decoded whole; a body that is not a catalog is an error there,
// while json, yaml, jq and template show it as it is.
func printCatalog(opts *updateOptions, p output.Printer, raw []byte) error {
	var nameErr error
	doc := output.Document{
		Raw: raw,
		Names: func() []string {
			var cat struct {
				Name string `json:"name"`
			}
			nameErr = json.Unmarshal(raw, &cat)
			if nameErr == nil {
				nameErr = client.EachCatalogTable(raw, func(string, *client.TableCatalog) error { return nil })
			}
			switch {
			case nameErr != nil:
				return nil
			case cat.Name == "":
				return []string{opts.Database.String() + "/catalog"}
			}
			return []string{cat.Name}
		},
		Tables: func() []output.Table {
			return []output.Table{catalogTable(raw)}
		},
	}
	if err := p.Print(opts.IO.Out, doc); err != nil {
		return err
	}
	if nameErr != nil {
		return fmt.Errorf("the service's answer is not a catalog: %w", nameErr)
	}
	return nil
}
