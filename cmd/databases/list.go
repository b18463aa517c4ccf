// Package databases implements `dbgov databases`: finding the databases of
// an instance, a project or the workspace.
package databases

import (
	"context"
	"embed"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/cmd/listing"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the databases command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "databases <command>", Aliases: []string{"database"},
		Short: "Find the databases of an instance, a project or the workspace"}, newListCmd(f, nil))
}

type listOptions struct {
	factory.Deps
	listing.Flags
	Instance, Project string
	Workspace         bool
}

func newListCmd(f *factory.Factory, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	cmd := helptext.Command(help, &cobra.Command{
		Use:   "list (--instance I | --project P | --workspace) [--filter EXPR] [--limit N]",
		Short: "List the databases of an instance, a project or the workspace",
		Args:  arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			given := 0
			for _, set := range []bool{opts.Instance != "", opts.Project != "", opts.Workspace} {
				if set {
					given++
				}
			}
			if given != 1 {
				return exitcode.Usagef("give exactly one parent: --instance I, --project P or --workspace")
			}
			if err := opts.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	})
	cmd.Flags().StringVar(&opts.Instance, "instance", "", "list the databases of the instance with this `id`")
	cmd.Flags().StringVar(&opts.Project, "project", "", "list the databases of the project with this `id`")
	cmd.Flags().BoolVar(&opts.Workspace, "workspace", false, "list every database of the workspace")
	opts.Add(cmd, true)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	p, c, err := opts.Connect()
	if err != nil {
		return err
	}
	parent := []string{"instances", opts.Instance}
	switch {
	case opts.Project != "":
		parent = []string{"projects", opts.Project}
	case opts.Workspace:
		id, err := c.Workspace(ctx)
		if err != nil {
			return err
		}
		parent = []string{"workspaces", id}
	}
	r, err := client.ListCall("databases", opts.Filter, parent...)
	if err != nil {
		return err
	}
	items := opts.Items(ctx, c, r, "databases", "databases of "+strings.Join(parent, "/"))
	return p.Print(ctx, opts.IO.Out, databaseList.ItemsDocument("databases", "", items))
}

// databaseList is how databases print: by their short name I/D, which
// --databases-from reads too.
var databaseList = output.List[client.Database]{
	Columns: []output.Column[client.Database]{
		{Header: "DATABASE", Value: func(d *client.Database) string {
			return strings.Replace(strings.TrimPrefix(d.Name, "instances/"), "/databases/", "/", 1)
		}},
		{Header: "PROJECT", Priority: 1, Value: func(d *client.Database) string { return strings.TrimPrefix(d.Project, "projects/") }},
		{Header: "ENVIRONMENT", Priority: 2, Value: func(d *client.Database) string {
			return strings.TrimPrefix(d.EffectiveEnvironment, "environments/")
		}},
		{Header: "ENGINE", Priority: 3, Value: func(d *client.Database) string { return string(d.InstanceResource.Engine) }},
		{Header: "SYNCED", Priority: 2, Kind: output.Time, Value: func(d *client.Database) string { return d.SuccessfulSyncTime }},
	},
	Name: func(d *client.Database) string { return d.Name },
}
