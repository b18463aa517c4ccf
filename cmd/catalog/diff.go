package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
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

// fileOptions are those of the commands comparing the catalog with a file:
// diff, update and set, whose file its flags make.
type fileOptions struct {
	dbOptions
	File                                  string
	ExitCode, Merge, DryRun, AllowMissing bool
	Patch                                 []byte                                                // set's file
	Check                                 func(client.DatabaseName, []catalogjson.Change) error // set's check of the changes
}

func newDiffCmd(f *factory.Factory) *cobra.Command {
	opts := &fileOptions{}
	cmd := onDatabase(f, "diff (--instance I --database D | --databases-from FILE) -f FILE", "Show what replacing the catalog of a database with a file would change", &opts.dbOptions,
		func(ctx context.Context) error { return compare(ctx, opts) })
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit 9 when there are changes")
	return cmd
}

// compare reads the catalog and prints what putting the file in its place
// would change, or with Merge what laying the file over it changes, which
// it then writes unless DryRun (printing the request) or nothing changes.
// The write reads the catalog again and refuses when it changed meanwhile.
func compare(ctx context.Context, opts *fileOptions) error {
	file, err := opts.Patch, error(nil)
	if file == nil {
		// JSON that ToJSON would take is used as it is, not copied.
		if file, err = input.Read(opts.File, opts.IO.In); err == nil && !jsontext.Value(file).IsValid() {
			file, err = input.ToJSON(input.Name(opts.File), file)
		}
		if err == nil && !bytes.HasPrefix(bytes.TrimLeft(file, " \t\r\n"), []byte("{")) {
			err = exitcode.Usagef("%s: holds no catalog: want an object with name and schemas", input.Name(opts.File))
		}
		if err != nil {
			return err
		}
	}
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		cur, err := readCatalog(ctx, c, db)
		if err != nil {
			return dbname.Result{}, err
		}
		var merged []byte
		if opts.DryRun {
			merged = make([]byte, 0, len(cur)+len(cur)/16)
		}
		var changes []catalogjson.Change
		if opts.Merge {
			merged, changes, err = catalogjson.Merge(merged, cur, file)
		} else {
			changes, err = catalogjson.Diff(cur, file)
		}
		if err != nil {
			return dbname.Result{}, compareError(db, opts.File, err)
		}
		if opts.Check != nil {
			if err := opts.Check(db, changes); err != nil {
				return dbname.Result{}, err
			}
		}
		var req *client.Request
		switch {
		case !opts.Merge:
		case len(changes) == 0:
			if !opts.DB.Many() {
				fmt.Fprintf(opts.IO.ErrOut, "No changes: the catalog of %s is already as asked; nothing is sent\n", db)
			}
		case opts.DryRun:
			if req, err = client.UpdateCatalogJSONCall(db, merged, false); err != nil {
				return dbname.Result{}, err
			}
		default:
			again, err := c.GetCatalog(ctx, db)
			if err != nil {
				return dbname.Result{}, fmt.Errorf("read the catalog of %s again: %w", db, err)
			}
			if !bytes.Equal(cur, again) {
				if d, err := catalogjson.Diff(cur, again); err != nil || len(d) > 0 {
					return dbname.Result{}, exitcode.WithCode(fmt.Errorf("the catalog of %s changed while it was being merged: nothing was written; run again to merge into the new catalog", db),
						exitcode.Rejected, "ABORTED")
				}
			}
			// The first read is the same catalog: its memory takes the result.
			if merged, _, err = catalogjson.Merge(cur[:0], again, file); err != nil {
				return dbname.Result{}, compareError(db, opts.File, err)
			}
			if _, err := c.UpdateCatalog(ctx, db, merged, false); err != nil {
				return dbname.Result{}, fmt.Errorf("update the catalog of %s: %w", db, err)
			}
		}
		r, err := changesResult(db, changes, c, req)
		r.Differs = opts.ExitCode && len(changes) > 0
		return r, err
	})
}

// compareError is the error of comparing the catalog of db with the file
// at path: the file's fault, or the answer's.
func compareError(db client.DatabaseName, path string, err error) error {
	if errors.Is(err, catalogjson.ErrFile) {
		return exitcode.NewUsage(fmt.Errorf("%s: %w", input.Name(path), err))
	}
	return fmt.Errorf("compare with the catalog of %s: the service's answer is not a catalog: %w", db, err)
}

// changesResult shows the changes to the catalog of db, and the request
// that would make them when req is set: in table mode a line a change, then
// the request; otherwise {"changes": [...], "request": {...}}.
func changesResult(db client.DatabaseName, changes []catalogjson.Change, c *client.Client, req *client.Request) (dbname.Result, error) {
	doc := struct {
		Changes []catalogjson.Change `json:"changes"`
		Request json.RawMessage      `json:"request,omitempty"`
	}{Changes: append([]catalogjson.Change{}, changes...)}
	var text strings.Builder
	for _, ch := range changes {
		text.WriteString(ch.String() + "\n")
	}
	if req != nil {
		request, err := dryrun.Document(c, req)
		if err != nil {
			return dbname.Result{}, err
		}
		doc.Request = request.Raw
		text.WriteString("\n" + request.Text())
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return dbname.Result{}, fmt.Errorf("describe the changes: %w", err)
	}
	return dbname.Result{Doc: output.Document{Raw: raw, ListField: "changes", Text: text.String,
		Names: func() []string { return []string{db.String() + "/catalog"} }}}, nil
}
