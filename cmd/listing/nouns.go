package listing

import (
	"embed"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/output"
)

// The help of each noun, in NOUN/help/.
//
//go:embed instances/help databases/help changelogs/help
var help embed.FS

// NewCmds builds the nouns whose one verb is list: instances, databases and
// changelogs.
func NewCmds(f *factory.Factory) []*cobra.Command {
	return []*cobra.Command{
		group(f, &cobra.Command{Use: "instances <command>", Aliases: []string{"instance"}, Short: "Find the database servers the service manages"}, instances),
		group(f, &cobra.Command{Use: "databases <command>", Aliases: []string{"database"}, Short: "Find the databases of an instance, a project or the workspace"}, databases),
		group(f, &cobra.Command{Use: "changelogs <command>", Aliases: []string{"changelog"}, Short: "Read the schema changes recorded for a database"}, changelogs),
	}
}

// group is the command group cmd with its list verb, both with the help
// of the noun.
func group[T any](f *factory.Factory, cmd *cobra.Command, s Spec[T]) *cobra.Command {
	files, _ := fs.Sub(help, s.Collection)
	return helptext.Command(files, cmd, Cmd(f, files, s, nil))
}

// instances declares `instances list`.
var instances = Spec[client.Instance]{Use: "list [--filter EXPR] [--limit N]", Short: "List the instances", Collection: "instances", Filter: true,
	List: output.List[client.Instance]{
		Columns: []output.Column[client.Instance]{
			{Header: "NAME", Kind: output.Name, Value: func(i *client.Instance) string { return i.Name }},
			{Header: "TITLE", Priority: 2, MinWidth: 10, Value: func(i *client.Instance) string { return i.Title }},
			{Header: "ENGINE", Priority: 1, Value: func(i *client.Instance) string { return string(i.Engine) }},
			{Header: "ENVIRONMENT", Priority: 1, Value: func(i *client.Instance) string { return strings.TrimPrefix(i.Environment, "environments/") }},
			{Header: "STATE", Priority: 3, Value: func(i *client.Instance) string { return i.State }},
		},
		Name: func(i *client.Instance) string { return i.Name },
	}}

// databases declares `databases list`. A database is shown by its short
// name I/D, as --databases-from reads it.
var databases = Spec[client.Database]{Use: "list (--instance I | --project P | --workspace) [--filter EXPR] [--limit N]",
	Short: "List the databases of an instance, a project or the workspace", Collection: "databases", Parent: OneOf, Filter: true,
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
	}}

// changelogs declares `changelogs list`.
var changelogs = Spec[client.Changelog]{Use: "list (--instance I --database D | --databases-from FILE) [--limit N]",
	Short: "List the changelogs of a database", Collection: "changelogs", Parent: PerDatabase,
	List: output.List[client.Changelog]{
		Columns: []output.Column[client.Changelog]{
			{Header: "NAME", Kind: output.Name, Value: func(c *client.Changelog) string { return c.Name }},
			{Header: "STATUS", Value: func(c *client.Changelog) string { return c.Status }},
			{Header: "PLAN", Priority: 2, MinWidth: 15, Value: func(c *client.Changelog) string { return c.PlanTitle }},
			{Header: "CREATED", Priority: 1, Kind: output.Time, Value: func(c *client.Changelog) string { return c.CreateTime }},
		},
		Name: func(c *client.Changelog) string { return c.Name },
	}}
