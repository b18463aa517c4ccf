// Package schema implements `dbgov schema`.
package schema

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the schema command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "schema <command>", Short: "Compare database schemas, and dump one as the service reads it", DisableFlagsInUseLine: true}, newDiffCmd(f, nil), newDumpCmd(f, nil))
}

type diffOptions struct {
	DB              dbname.Flags
	f               *factory.Factory
	Changelog       string // the changelog compared from: an id, a full name, or "" for the database itself
	SchemaFile      string // the target schema's file, "-" for stdin
	TargetChangelog string // the target changelog: an id or a full name
	ExitCode        bool

	schema string // the target schema, read from SchemaFile
}

// newDiffCmd builds schema diff. runF, when not nil, is called with the
// checked options in place of the diff: for tests of the flags.
func newDiffCmd(f *factory.Factory, runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{f: f}
	cmd := opts.DB.Command(f, help, "diff (--instance I --database D | --databases-from FILE) [--changelog C] (--schema-file FILE | --target-changelog NAME)",
		"Show the statements that migrate a database's schema to a target",
		func(cmd *cobra.Command, dbs []client.DatabaseName) error {
			if cmd.Flags().Changed("changelog") && !opts.DB.Many() {
				if _, err := client.ParseChangelog(dbs[0], opts.Changelog); err != nil {
					return exitcode.NewUsage(err)
				}
			}
			switch {
			case opts.SchemaFile != "" && opts.TargetChangelog != "":
				return exitcode.Usagef("--schema-file and --target-changelog cannot be used together: give one target")
			case opts.SchemaFile == "" && opts.TargetChangelog == "":
				return exitcode.Usagef("give the target to compare with: --schema-file FILE or --target-changelog NAME")
			}
			if runF != nil {
				return runF(opts)
			}
			return runDiff(cmd.Context(), opts)
		}, &opts.SchemaFile)
	cmd.Flags().StringVar(&opts.Changelog, "changelog", "", "`changelog` to compare from instead of the database: its id, or its full name")
	cmd.Flags().StringVar(&opts.SchemaFile, "schema-file", "", "`file` holding the target schema as plain text (- for standard input)")
	cmd.Flags().StringVar(&opts.TargetChangelog, "target-changelog", "", "`changelog` whose schema is the target: its id, or its full name")
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit with status 9 when the schemas differ, 0 when they agree")
	return cmd
}

func runDiff(ctx context.Context, opts *diffOptions) error {
	if _, err := opts.f.Client(); err != nil { // a missing URL is told before a large file is read
		return err
	}
	if opts.SchemaFile != "" {
		schema, err := input.Read(opts.SchemaFile, opts.f.IO.In)
		if err != nil {
			return fmt.Errorf("read the target schema: %w", err)
		}
		opts.schema = string(schema)
	}
	// -o name is refused before anything is sent: a diff names no resource.
	o, err := opts.f.PrintFlags().Options()
	if err == nil && o.Format == "name" && !o.FormatIsDefault && o.JQ == "" && o.Template == "" {
		err = exitcode.Usagef("schema diff has no resource names to print: use -o table, json or yaml")
	}
	if err != nil {
		return err
	}
	return opts.DB.Run(ctx, opts.f, opts.diff)
}

// diff compares the schema of db, or of its changelog, with the target of
// opts. Changelogs naming another database are refused before sending.
func (opts *diffOptions) diff(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
	req := client.DiffSchemaRequest{Schema: opts.schema}
	var ids []string // the changelogs named, compared from and to
	if opts.TargetChangelog != "" {
		id, err := client.ParseChangelog(db, opts.TargetChangelog)
		if err != nil {
			return dbname.Result{}, exitcode.NewUsage(fmt.Errorf("--target-changelog: %w", err))
		}
		req.Changelog, ids = db.String()+"/changelogs/"+id, append(ids, id)
	}
	from := "database " + db.String()
	id := "" // the changelog compared from, none for the database itself
	if opts.Changelog != "" {
		var err error
		if id, err = client.ParseChangelog(db, opts.Changelog); err != nil {
			return dbname.Result{}, exitcode.NewUsage(err)
		}
		from, ids = "changelog "+db.String()+"/changelogs/"+id, append(ids, id)
	}
	call, err := client.DiffSchemaCall(db, id, &req)
	if err != nil {
		return dbname.Result{}, exitcode.NewUsage(err)
	}
	if err := checkRelease(ctx, c, opts, db, ids); err != nil {
		return dbname.Result{}, fmt.Errorf("diff the schema of %s: %w", from, err)
	}
	var res client.DiffSchemaResponse
	raw, err := c.Send(ctx, call, &res)
	if err != nil {
		err = fmt.Errorf("diff the schema of %s: %w", from, err)
		if api := (*client.APIError)(nil); errors.As(err, &api) && strings.Contains(api.Message, "SDL does not allow") {
			err = exitcode.WithHint(err, sdlHint)
		}
		return dbname.Result{}, err
	}
	return dbname.Result{Doc: output.Document{Raw: raw, Text: &res.Diff}, Differs: opts.ExitCode && res.Diff != "", Changes: res.Diff}, nil
}

// checkRelease refuses, before sending, a diff the service's release cannot
// make: changelog ids not of its form, or a changelog compared with schema
// text where it does not diff through its declarative format.
func checkRelease(ctx context.Context, c *client.Client, opts *diffOptions, db client.DatabaseName, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	s, err := c.Server(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if p := s.Release.NameProblem("changelog", id); p != "" {
			return exitcode.Usagef("%s", p)
		}
	}
	if opts.Changelog == "" || opts.SchemaFile == "" {
		return nil
	}
	if sdl, err := c.ThroughSDL(ctx, db); err != nil || sdl {
		return err
	}
	return exitcode.WithHint(exitcode.Usagef("release %s cannot compare a changelog of %s with schema text: it does so only for PostgreSQL and CockroachDB (from %s) and MySQL (from %s)",
		s.Release, db, client.SDLDiffPostgres, client.SDLDiffMySQL), "compare with the database's current schema instead: schema diff without --changelog")
}
