package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/output"
)

// readCatalogFile reads the catalog file at path ("-": stdin) as JSON. It
// may hold fields this version does not know, as catalog get shows them.
func readCatalogFile(path string, stdin io.Reader) ([]byte, error) {
	data, err := input.Read(path, stdin)
	if err == nil {
		data, err = input.ToJSON(input.Name(path), data)
	}
	if err == nil && !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		err = exitcode.Usagef("%s: holds no catalog: want an object with name and schemas", input.Name(path))
	}
	return data, err
}

// compareError is the error of comparing the catalog of db with the file
// at path: the file's fault, or the answer's.
func compareError(db client.DatabaseName, path string, err error) error {
	if errors.Is(err, catalogjson.ErrFile) {
		return exitcode.NewUsage(fmt.Errorf("%s: %w", input.Name(path), err))
	}
	return fmt.Errorf("compare with the catalog of %s: the service's answer is not a catalog: %w", db, err)
}

// edit lays patch (the file at path, as JSON) over the catalog of each
// database and writes the result unless it changes nothing: the GET, the
// check of the changes, a second GET that must find the catalog as the
// first did, then the PATCH. It prints the changes; a dry run stops after
// the first GET and prints the request it would send too.
func edit(ctx context.Context, opts *dbOptions, patch []byte, path string, dryRun bool, check func(client.DatabaseName, []catalogjson.Change) error) error {
	return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
		cur, err := readCatalog(ctx, c, db)
		if err != nil {
			return dbname.Result{}, err
		}
		var merged []byte
		if dryRun {
			merged = make([]byte, 0, len(cur)+len(cur)/16)
		}
		merged, changes, err := catalogjson.Merge(merged, cur, patch)
		if err != nil {
			return dbname.Result{}, compareError(db, path, err)
		}
		if err := check(db, changes); err != nil {
			return dbname.Result{}, err
		}
		switch {
		case len(changes) == 0:
			if !opts.DB.Many() {
				fmt.Fprintf(opts.IO.ErrOut, "No changes: the catalog of %s is already as asked; nothing is sent\n", db)
			}
			return changesResult(db, nil, nil, nil)
		case dryRun:
			req, err := client.UpdateCatalogJSONCall(db, merged, false)
			if err != nil {
				return dbname.Result{}, err
			}
			return changesResult(db, changes, c, req)
		}
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
		if merged, _, err = catalogjson.Merge(cur[:0], again, patch); err != nil {
			return dbname.Result{}, compareError(db, path, err)
		}
		if _, err := c.UpdateCatalog(ctx, db, merged, false); err != nil {
			return dbname.Result{}, fmt.Errorf("update the catalog of %s: %w", db, err)
		}
		return changesResult(db, changes, nil, nil)
	})
}

// changesResult prints the changes to the catalog of db, and the request
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
