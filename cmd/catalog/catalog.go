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
func (o *dbOptions) current(ctx context.Context) (output.Printer, *client.Client, []byte, error) {
	p, err := o.Printer()
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := o.Client()
	if err != nil {
		return nil, nil, nil, err
	}
	raw, err := c.GetCatalog(ctx, o.Database)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read the catalog of %s: %w", o.Database, err)
	}
	return p, c, raw, nil
}

//go:embed help
var help embed.FS

// onDatabase builds the command use (its verb first) on one database: its
// help comes from help/VERB.txt (the examples after "Examples:"), and it
// resolves the database flags into opts.Database before it calls run.
func onDatabase(f *factory.Factory, use, short string, opts *dbOptions, run func(context.Context) error) *cobra.Command {
	*opts = dbOptions{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter}
	verb, _, _ := strings.Cut(use, " ")
	text, _ := help.ReadFile("help/" + verb + ".txt")
	long, example, _ := strings.Cut(strings.TrimSpace(string(text)), "\n\nExamples:\n")
	var db dbname.Flags
	cmd := &cobra.Command{Use: use, Short: short, Long: long, Example: example, Args: arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := db.Resolve()
			if err != nil {
				return err
			}
			opts.Database = d
			return run(cmd.Context())
		}}
	db.Add(cmd)
	return cmd
}
