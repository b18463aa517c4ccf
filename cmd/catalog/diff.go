package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

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

type diffOptions struct {
	DB       dbname.Flags
	f        *factory.Factory
	File     string
	ExitCode bool
}

// newDiffCmd builds catalog diff. runF, when not nil, is called with the
// options in place of the comparison: for tests of the flags.
func newDiffCmd(f *factory.Factory, runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{f: f}
	cmd := opts.DB.Command(f, help, "diff (--instance I --database D | --databases-from FILE) -f FILE", "Show what replacing the catalog of a database with a file would change",
		func(cmd *cobra.Command, _ []client.DatabaseName) error {
			if opts.File == "" {
				return errNoFile
			}
			if runF != nil {
				return runF(opts)
			}
			return runDiff(cmd.Context(), opts)
		}, &opts.File)
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit 9 when there are changes")
	return cmd
}

func runDiff(ctx context.Context, opts *diffOptions) error {
	file, err := readFile(opts.File, opts.f.IO.In)
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
		r, err := changesResult(db, changes, c, nil)
		if err == nil {
			r.Differs, r.Changes = opts.ExitCode && len(changes) > 0, *r.Doc.Text
		}
		return r, err
	})
}

// readFile reads the catalog file at path (- reads in) for diff and merge:
// its field names checked as update checks them, returned as JSON with its
// nulls, which a merge takes as removals.
func readFile(path string, in io.Reader) ([]byte, error) {
	data, err := input.Read(path, in)
	if err != nil {
		return nil, err
	}
	name := input.Name(path)
	file, err := input.ToJSON(name, data)
	if err == nil && !bytes.HasPrefix(bytes.TrimLeft(file, " \t\r\n"), []byte("{")) {
		err = exitcode.Usagef("%s: holds no catalog: want an object with name and schemas", name)
	}
	if err == nil {
		err = input.Decode(name, data, &catalogjson.Checked{})
	}
	return file, err
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
		text.WriteString("\n" + *request.Text)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return dbname.Result{}, fmt.Errorf("describe the changes: %w", err)
	}
	return dbname.Result{Doc: output.Document{Raw: raw, ListField: "changes", Text: new(text.String()), Diff: true, Names: []string{db.CatalogName()}}}, nil
}
