package catalog

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/catalogjson"
	"github.com/dbgov/dbgov/internal/exitcode"
)

type diffOptions struct {
	dbOptions
	File     string
	ExitCode bool
}

func newDiffCmd(f *factory.Factory) *cobra.Command {
	opts := &diffOptions{}
	cmd := onDatabase(f, "diff --instance I --database D -f FILE", "Show what replacing the catalog of a database with a file would change", &opts.dbOptions,
		func(ctx context.Context) error {
			if opts.File == "" {
				return exitcode.Usagef("-f/--file is required: the catalog to compare with, as JSON or YAML (- for standard input)")
			}
			return runDiff(ctx, opts)
		})
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "catalog `file`, JSON or YAML; - reads standard input")
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit 9 when there are changes")
	return cmd
}

func runDiff(ctx context.Context, opts *diffOptions) error {
	file, err := readCatalogFile(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	p, _, cur, err := opts.current(ctx)
	if err != nil {
		return err
	}
	changes, err := catalogjson.Diff(cur, file)
	if err != nil {
		return compareError(opts.Database, opts.File, err)
	}
	if err := printChanges(ctx, opts.IO.Out, p, opts.Database, changes, nil, nil); err != nil {
		return err
	}
	if opts.ExitCode && len(changes) > 0 {
		return &exitcode.SilentError{Code: exitcode.Differences}
	}
	return nil
}
