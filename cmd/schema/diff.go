package schema

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type diffOptions struct {
	IO            *iostreams.IOStreams
	Client        func() (*client.Client, error)
	Printer       func() (output.Printer, error)
	OutputOptions func() (output.Options, error)

	DB              client.DatabaseName
	Changelog       string // the id of the changelog compared from
	SchemaFile      string // the target schema's file, "-" for stdin
	TargetChangelog string // the target changelog: an id of DB or a full name
	ExitCode        bool
}

func newDiffCmd(f *factory.Factory, runF func(context.Context, *diffOptions) error) *cobra.Command {
	opts := &diffOptions{IO: f.IO, Client: f.Client, Printer: f.Printer, OutputOptions: f.OutputOptions}
	var db dbname.Flags
	var changelog string
	cmd := &cobra.Command{
		Use:   "diff --instance I --database D --changelog C (--schema-file FILE | --target-changelog NAME)",
		Short: "Show the statements that migrate a changelog's schema to a target",
		Long: `Show the statements that migrate the schema recorded by a changelog of a
database to a target schema: the text of a schema file (--schema-file), or
the schema recorded by another changelog (--target-changelog).

The changelog is given as its id or as its full name
instances/I/databases/D/changelogs/C. The target changelog is an id of the
same database or a full changelog name. The schema file is plain text; - reads
it from standard input.

The diff itself is printed, and nothing when the schemas agree; -o json, -o
yaml, --jq and --template get the service's answer, {"diff": "..."}, or {}
when the schemas agree. With --exit-code, dbgov exits with status 9 when the
schemas differ and 0 when they agree, as git diff --exit-code does.`,
		Example: `  # What would it take to bring changelog 101 to the schema in schema.sql?
  dbgov schema diff --instance prod-pg --database orders --changelog 101 --schema-file schema.sql

  # Compare two changelogs of the same database
  dbgov schema diff --database instances/prod-pg/databases/orders --changelog 101 --target-changelog 102

  # Fail a CI job when the live schema drifted from the one in the repository
  pg_dump --schema-only orders | dbgov schema diff --instance prod-pg --database orders \
      --changelog 101 --schema-file - --exit-code`,
		Args: arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := db.Resolve()
			if err != nil {
				return err
			}
			opts.DB = d
			if changelog == "" {
				return exitcode.Usagef("--changelog is required: the id or full name of the changelog to compare from")
			}
			if opts.Changelog, err = client.ParseChangelog(d, changelog); err != nil {
				return exitcode.NewUsage(err)
			}
			switch {
			case opts.SchemaFile != "" && opts.TargetChangelog != "":
				return exitcode.Usagef("--schema-file and --target-changelog cannot be used together: give one target")
			case opts.SchemaFile == "" && opts.TargetChangelog == "":
				return exitcode.Usagef("give the target to compare with: --schema-file FILE or --target-changelog NAME")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runDiff(cmd.Context(), opts)
		},
	}
	db.Add(cmd)
	cmd.Flags().StringVar(&changelog, "changelog", "", "`changelog` to compare from: its id, or its full name instances/I/databases/D/changelogs/C")
	cmd.Flags().StringVar(&opts.SchemaFile, "schema-file", "", "`file` holding the target schema as plain text (- for standard input)")
	cmd.Flags().StringVar(&opts.TargetChangelog, "target-changelog", "", "`changelog` whose schema is the target: an id of the same database, or a full name")
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit with status 9 when the schemas differ, 0 when they agree")
	return cmd
}

func runDiff(ctx context.Context, opts *diffOptions) error {
	c, err := opts.Client() // a missing URL is told before a large file is read
	if err != nil {
		return err
	}
	req := &client.DiffSchemaRequest{Changelog: opts.TargetChangelog}
	if opts.SchemaFile != "" {
		schema, err := input.Read(opts.SchemaFile, opts.IO.In)
		if err != nil {
			return fmt.Errorf("read the target schema: %w", err)
		}
		req.Schema = string(schema)
	}
	call, err := client.DiffSchemaCall(opts.DB, opts.Changelog, req)
	if err != nil {
		return exitcode.NewUsage(err)
	}
	if err := refuseNames(opts); err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	var res client.DiffSchemaResponse
	raw, err := c.Send(ctx, call, &res)
	if err != nil {
		return fmt.Errorf("diff the schema of changelog %s/changelogs/%s: %w", opts.DB, opts.Changelog, err)
	}
	if err := p.Print(opts.IO.Out, output.Document{
		Raw:  raw,
		Text: func() string { return res.Diff },
	}); err != nil {
		return err
	}
	if opts.ExitCode && res.Diff != "" {
		return &exitcode.SilentError{Code: exitcode.Differences}
	}
	return nil
}

// refuseNames refuses -o name before anything is sent: a diff names no
// resource.
func refuseNames(opts *diffOptions) error {
	o, err := opts.OutputOptions()
	if err != nil {
		return err
	}
	if o.Format == "name" && !o.Defaulted && o.JQ == "" && o.Template == "" {
		return exitcode.Usagef("schema diff has no resource names to print: use -o table, json or yaml")
	}
	return nil
}
