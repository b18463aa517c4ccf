package catalog

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
)

// updateOptions are catalog update's flags and its factory.
type updateOptions struct {
	DB           dbname.Flags
	f            *factory.Factory
	File         string // -f: the catalog file, - for standard input
	AllowMissing bool   // refused: no release of the service grants it
	Merge        bool   // lay the file over the catalog instead of replacing it
	DryRun       bool
}

// newUpdateCmd builds catalog update. runF, when not nil, is called with the
// options in place of the update: for tests of the flags.
func newUpdateCmd(f *factory.Factory, runF func(*updateOptions) error) *cobra.Command {
	opts := &updateOptions{f: f}
	cmd := opts.DB.Command(f, help, "update (--instance I --database D | --databases-from FILE) -f FILE", "Replace the metadata catalog of a database, or merge a file into it",
		func(cmd *cobra.Command, _ []client.DatabaseName) error {
			switch {
			case opts.File == "":
				return errNoFile
			case opts.AllowMissing:
				return exitcode.Usagef("--allow-missing: no release of the service grants it (3.13 to 3.21.1 answer 403 for everyone, and every database has a catalog); nothing was sent")
			case runF != nil:
				return runF(opts)
			case opts.Merge:
				return runMerge(cmd.Context(), opts)
			}
			return runUpdate(cmd.Context(), opts)
		}, &opts.File)
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.AllowMissing, "allow-missing", false, "refused: no release of the service grants it")
	cmd.Flags().BoolVar(&opts.Merge, "merge", false, "lay the file over the current catalog instead of replacing it")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the request that would be sent, and send nothing")
	return cmd
}

// runUpdate replaces the catalog of each database with the file.
func runUpdate(ctx context.Context, opts *updateOptions) error {
	if _, err := opts.f.Client(); err != nil { // a missing URL is told before a large file is read
		return err
	}
	data, err := input.Read(opts.File, opts.f.IO.In)
	var cat catalogjson.Checked
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
		body := catalogjson.Body{Name: db.CatalogName(), Checked: &cat, JSON: make([]byte, 0, len(data)+len(db.CatalogName())+16)}
		if err := input.Decode(input.Name(opts.File), data, &body); err != nil {
			return dbname.Result{}, err
		}
		req, err := client.UpdateCatalogJSONCall(db, body.JSON)
		if err != nil {
			return dbname.Result{}, err
		}
		if opts.DryRun {
			doc, err := dryrun.Document(c, req)
			return dbname.Result{Doc: doc}, err
		}
		raw, err := c.Send(ctx, req, nil)
		if raw, err = checkAnswer(db, raw, err, "update the catalog of "+db.String()); err != nil {
			return dbname.Result{}, err
		}
		return dbname.Result{Doc: catalogDoc(db, raw, opts.DB.Many()), Written: "the catalog of " + db.String()}, nil
	})
}

// runMerge lays the file over the catalog of each database.
func runMerge(ctx context.Context, opts *updateOptions) error {
	file, err := readFile(opts.File, opts.f.IO.In)
	if err != nil {
		return err
	}
	e := edit{io: opts.f.IO, file: file, path: opts.File, dryRun: opts.DryRun, many: opts.DB.Many()}
	return opts.DB.Run(ctx, opts.f, e.merge)
}
