// Package listing is the list verb of the nouns whose items the service
// pages (instances, databases, revisions, changelogs): a noun declares what
// it lists and how it prints; the list is printed as its pages arrive.
package listing

import (
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/output"
)

// Where the items of a list are: Spec.Parent.
const (
	// Top lists a collection of the service itself.
	Top = iota
	// OneOf lists the items of the one parent given: --instance I,
	// --project P or --workspace.
	OneOf
	// PerDatabase lists the items of a database, --instance and
	// --database, or of each of --databases-from.
	PerDatabase
)

// Spec declares a list command: what it lists, where, and how it prints.
type Spec[T any] struct {
	// Use and Short are the usage line and summary of the command.
	Use, Short string
	// Collection is the last segment of the path and the list's field.
	Collection string
	// List declares the table and the names of the items.
	List output.List[T]
	// Parent says where the items are: Top, OneOf or PerDatabase.
	Parent int
	// Filter adds --filter, sent to the service as written.
	Filter bool
}

// Options are the flags of a list command.
type Options struct {
	Filter, Instance, Project string
	Limit                     int // 0: every item
	Workspace                 bool
	DB                        dbname.Flags
}

// Cmd builds the list command s declares. runF, when not nil, is called
// with the checked options in place of listing: for tests of the flags.
func Cmd[T any](f *factory.Factory, help fs.FS, s Spec[T], runF func(*Options) error) *cobra.Command {
	o := &Options{}
	cmd := helptext.Command(help, &cobra.Command{Use: s.Use, Short: s.Short, Args: arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case o.Limit < 0:
				return exitcode.Usagef("--limit must be 0 (no limit) or more, not %d", o.Limit)
			case s.Parent == OneOf && !arity.One(o.Instance != "", o.Project != "", o.Workspace):
				return exitcode.Usagef("give exactly one of --instance I, --project P or --workspace")
			case s.Parent == PerDatabase:
				if _, err := o.DB.Databases(f.IO.In); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(o)
			}
			return s.run(cmd.Context(), f, o)
		}})
	switch s.Parent {
	case OneOf:
		cmd.Flags().StringVar(&o.Instance, "instance", "", "list those of the instance with this `id`")
		cmd.Flags().StringVar(&o.Project, "project", "", "list those of the project with this `id`")
		cmd.Flags().BoolVar(&o.Workspace, "workspace", false, "list every one of the workspace")
	case PerDatabase:
		o.DB.AddMany(cmd)
	}
	cmd.Flags().IntVar(&o.Limit, "limit", 0, "list at most `N` (0: every one)")
	if s.Filter {
		cmd.Flags().StringVar(&o.Filter, "filter", "", "list those the service's filter `EXPR` keeps, sent as written (its syntax changed in 3.17)")
	}
	return cmd
}

// run prints the list, or with --databases-from the list of each database.
func (s Spec[T]) run(ctx context.Context, f *factory.Factory, o *Options) error {
	if s.Parent == PerDatabase {
		return o.DB.Run(ctx, f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
			doc, err := s.document(ctx, c, o, "instances", db.Instance, "databases", db.Database)
			return dbname.Result{Doc: doc}, err
		})
	}
	return f.Deps().Show(ctx, func(c *client.Client) (output.Document, error) {
		var parent []string
		switch {
		case o.Instance != "":
			parent = []string{"instances", o.Instance}
		case o.Project != "":
			parent = []string{"projects", o.Project}
		case o.Workspace:
			id, err := c.Workspace(ctx)
			if err != nil {
				return output.Document{}, err
			}
			parent = []string{"workspaces", id}
		}
		return s.document(ctx, c, o, parent...)
	})
}

// document is the document of the list under parent: read as it is
// printed, or whole for one database of many.
func (s Spec[T]) document(ctx context.Context, c *client.Client, o *Options, parent ...string) (output.Document, error) {
	r, err := client.ListCall(s.Collection, o.Filter, parent...)
	if err != nil {
		return output.Document{}, err
	}
	under := strings.Join(append(parent, s.Collection), "/") + "/"
	items := func(page func(string, []json.RawMessage) error) error {
		return c.List(ctx, r, s.Collection, o.Limit, page)
	}
	if o.DB.Many() {
		return output.Whole(s.List.ItemsDocument(s.Collection, under, items))
	}
	return s.List.ItemsDocument(s.Collection, under, items), nil
}

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
