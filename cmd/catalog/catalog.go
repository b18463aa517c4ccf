// Package catalog implements `dbgov catalog`: the metadata catalog of a
// database (classifications, labels and semantic types of its tables and
// columns).
package catalog

import (
	"context"
	"embed"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

// NewCmd builds the catalog command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog <command>",
		Short: "Manage the metadata catalog of a database",
		Long: `Manage the metadata catalog of a database: the classification, labels and
semantic type of its schemas, tables and columns.`,
	}
	cmd.AddCommand(newGetCmd(f), newDiffCmd(f), newUpdateCmd(f), newSetCmd(f))
	return cmd
}

// dbOptions are what every catalog command has: its streams and
// dependencies, and the one database it works on.
type dbOptions struct {
	IO       *iostreams.IOStreams
	Client   func() (*client.Client, error)
	Printer  func() (output.Printer, error)
	Database client.DatabaseName
}

// current returns the printer, the client and the catalog of the database
// as the service sent it.
func (o *dbOptions) current(ctx context.Context) (p output.Printer, c *client.Client, raw []byte, err error) {
	if p, err = o.Printer(); err == nil {
		c, err = o.Client()
	}
	if err == nil {
		if raw, err = c.GetCatalog(ctx, o.Database); err != nil {
			err = fmt.Errorf("read the catalog of %s: %w", o.Database, err)
		}
	}
	return p, c, raw, err
}

//go:embed help
var help embed.FS

// onDatabase builds the command use (its verb first) on one database, its
// help from help/VERB.txt; it resolves opts.Database, and checks that a
// command with -f got it, before it calls run.
func onDatabase(f *factory.Factory, use, short string, opts *dbOptions, run func(context.Context) error) *cobra.Command {
	*opts = dbOptions{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter}
	verb, _, _ := strings.Cut(use, " ")
	text, _ := help.ReadFile("help/" + verb + ".txt")
	long, example, _ := strings.Cut(strings.TrimSpace(string(text)), "\n\nExamples:\n")
	var db dbname.Flags
	cmd := &cobra.Command{Use: use, Short: short, Long: long, Example: example, Args: arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			opts.Database, err = db.Resolve()
			if file := cmd.Flags().Lookup("file"); err == nil && file != nil && file.Value.String() == "" {
				err = exitcode.Usagef("-f/--file is required: the catalog, as JSON or YAML (- for standard input)")
			}
			if err != nil {
				return err
			}
			return run(cmd.Context())
		}}
	db.Add(cmd)
	return cmd
}
