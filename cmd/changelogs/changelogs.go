// Package changelogs implements `dbgov changelogs`: the schema changes the
// service recorded for a database.
package changelogs

import (
	"embed"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/cmd/listing"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the changelogs command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "changelogs <command>", Aliases: []string{"changelog"}, Short: "Read the schema changes recorded for a database"},
		listing.Cmd(f, help, list, nil))
}

// list declares `changelogs list`.
var list = listing.Spec[client.Changelog]{
	Use:        "list (--instance I --database D | --databases-from FILE) [--limit N]",
	Short:      "List the changelogs of a database",
	Collection: "changelogs", Parent: listing.PerDatabase, List: output.List[client.Changelog]{Columns: []output.Column[client.Changelog]{
		{Header: "NAME", Kind: output.Name, Value: func(c *client.Changelog) string { return c.Name }},
		{Header: "STATUS", Value: func(c *client.Changelog) string { return c.Status }},
		{Header: "PLAN", Priority: 2, MinWidth: 15, Value: func(c *client.Changelog) string { return c.PlanTitle }},
		{Header: "CREATED", Priority: 1, Kind: output.Time, Value: func(c *client.Changelog) string { return c.CreateTime }},
	},
		Name: func(c *client.Changelog) string { return c.Name }},
}
