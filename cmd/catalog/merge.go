package catalog

import (
	"bytes"
	"context"
	"fmt"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// edit is a change that update --merge and set lay over the catalog of a
// database: the file, and how to lay it.
type edit struct {
	io     *iostreams.IOStreams // where a merge that changes nothing says so
	file   []byte               // the JSON laid over the catalog
	path   string               // the file's path, for messages
	dryRun bool                 // show the request instead of sending it
	many   bool                 // one database of many
	// check, when set, refuses the changes to the catalog cur of db.
	check func(db client.DatabaseName, cur []byte, changes []catalogjson.Change) error
}

// merge reads the catalog of db, lays the file over it and writes the
// result, unless nothing changes or dryRun. Before writing, it reads the
// catalog again and writes nothing when it changed meanwhile.
func (e *edit) merge(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
	cur, err := readCatalog(ctx, c, db)
	if err != nil {
		return dbname.Result{}, err
	}
	// Merge writes the merged catalog only into a dst that is not nil: only a
	// dry run shows it here, since a write merges what it reads again.
	var merged []byte
	if e.dryRun {
		merged = make([]byte, 0, len(cur))
	}
	merged, changes, err := catalogjson.Merge(merged, cur, e.file)
	if err != nil {
		return dbname.Result{}, compareError(db, e.path, err)
	}
	if e.check != nil {
		if err := e.check(db, cur, changes); err != nil {
			return dbname.Result{}, err
		}
	}
	var req *client.Request
	switch {
	case len(changes) == 0:
		if !e.many && !e.io.JSONErrors {
			fmt.Fprintf(e.io.ErrOut, "No changes: the catalog of %s is already as asked; nothing is sent\n", db)
		}
	case e.dryRun:
		req, err = client.UpdateCatalogJSONCall(db, merged)
	default:
		err = e.write(ctx, c, db, cur)
	}
	if err != nil {
		return dbname.Result{}, err
	}
	r, err := changesResult(db, changes, c, req)
	if len(changes) > 0 && !e.dryRun {
		r.Written = "the catalog of " + db.String()
	}
	return r, err
}

// write reads the catalog of db again and, when it is still cur, lays the
// file over it and sends the result.
func (e *edit) write(ctx context.Context, c *client.Client, db client.DatabaseName, cur []byte) error {
	again, err := c.GetCatalog(ctx, db)
	if again, err = checkAnswer(db, again, err, "read the catalog of "+db.String()+" again"); err != nil {
		return err
	}
	if !bytes.Equal(cur, again) {
		if d, err := catalogjson.Diff(cur, again); err != nil || len(d) > 0 {
			return exitcode.WithCode(fmt.Errorf("the catalog of %s changed while it was being merged: nothing was written; run again to merge into the new catalog", db),
				exitcode.Rejected, "ABORTED")
		}
	}
	merged, _, err := catalogjson.Merge(make([]byte, 0, len(again)), again, e.file)
	if err != nil {
		return compareError(db, e.path, err)
	}
	answer, err := c.UpdateCatalog(ctx, db, merged)
	_, err = checkAnswer(db, answer, err, "update the catalog of "+db.String())
	return err
}
