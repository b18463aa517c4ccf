package schema

import (
	"cmp"
	"context"
	"encoding/base64"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/output"
)

// sdlHint is the hint for a schema text the service's declarative format
// refuses, such as a pg_dump file on 3.21.
const sdlHint = "this release reads schema text in its own declarative format: make the reference file with `dbgov schema dump` and compare with that"

// newDumpCmd builds schema dump. runF, when not nil, is called with the
// database flags in place of the dump: for tests of the flags.
func newDumpCmd(f *factory.Factory, runF func(*dbname.Flags) error) *cobra.Command {
	var db dbname.Flags
	return db.Command(f, help, "dump (--instance I --database D | --databases-from FILE)", "Print a database's schema as the service's schema diff reads it back",
		func(cmd *cobra.Command, _ []client.DatabaseName) error {
			if runF != nil {
				return runF(&db)
			}
			return db.Run(cmd.Context(), f, dump)
		})
}

// dump reads the schema of db in the form the release's schema diff reads:
// the declarative one (sdlSchema, its schema base64 bytes) where it has it.
func dump(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
	sdl, err := c.ThroughSDL(ctx, db)
	r, cerr := client.SchemaCall(db, sdl)
	var res struct{ Schema string }
	var raw []byte
	if err == nil && cerr == nil {
		raw, err = c.Send(ctx, r, &res)
	}
	text := []byte(res.Schema)
	if err == nil && sdl {
		if text, err = base64.StdEncoding.DecodeString(res.Schema); err != nil {
			err = &client.InvalidResponseError{Method: r.Method, Path: r.Path, HTTPStatus: 200, Err: fmt.Errorf("schema is not base64: %w", err)}
		}
	}
	if err = cmp.Or(cerr, err); err != nil {
		return dbname.Result{}, fmt.Errorf("read the schema of %s: %w", db, err)
	}
	return dbname.Result{Doc: output.Document{Raw: raw, Text: new(string(text))}}, nil
}
