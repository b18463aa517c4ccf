// Package databases implements `dbgov databases`: finding the databases of
// an instance, a project or the workspace.
package databases

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/cmd/listing"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the databases command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "databases <command>", Aliases: []string{"database"},
		Short: "Find the databases of an instance, a project or the workspace"}, listing.Cmd(f, help, list, nil))
}

// list declares `databases list`. A database is shown by its short name
// I/D, as --databases-from reads it.
var list = listing.Spec[client.Database]{
	Use:        "list (--instance I | --project P | --workspace) [--filter EXPR] [--limit N]",
	Short:      "List the databases of an instance, a project or the workspace",
	Collection: "databases", Parent: listing.OneOf, Filter: true,
	List: output.List[client.Database]{
		Columns: []output.Column[client.Database]{
			{Header: "DATABASE", Value: func(d *client.Database) string {
				return strings.Replace(strings.TrimPrefix(d.Name, "instances/"), "/databases/", "/", 1)
			}},
			{Header: "PROJECT", Priority: 1, Value: func(d *client.Database) string { return strings.TrimPrefix(d.Project, "projects/") }},
			{Header: "ENVIRONMENT", Priority: 2, Value: func(d *client.Database) string { return strings.TrimPrefix(d.EffectiveEnvironment, "environments/") }},
			{Header: "ENGINE", Priority: 3, Value: func(d *client.Database) string { return string(d.InstanceResource.Engine) }},
			{Header: "SYNCED", Priority: 2, Kind: output.Time, Value: func(d *client.Database) string { return d.SuccessfulSyncTime }},
		},
		Name: func(d *client.Database) string { return d.Name },
	},
}
