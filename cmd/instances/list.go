// Package instances implements `dbgov instances`: the database servers the
// service manages.
package instances

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

// NewCmd builds the instances command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "instances <command>", Aliases: []string{"instance"},
		Short: "Find the database servers the service manages"}, listing.Cmd(f, help, list, nil))
}

// list declares `instances list`.
var list = listing.Spec[client.Instance]{
	Use: "list [--filter EXPR] [--limit N]", Short: "List the instances", Collection: "instances", Filter: true,
	List: output.List[client.Instance]{
		Columns: []output.Column[client.Instance]{
			{Header: "NAME", Kind: output.Name, Value: func(i *client.Instance) string { return i.Name }},
			{Header: "TITLE", Priority: 2, MinWidth: 10, Value: func(i *client.Instance) string { return i.Title }},
			{Header: "ENGINE", Priority: 1, Value: func(i *client.Instance) string { return string(i.Engine) }},
			{Header: "ENVIRONMENT", Priority: 1, Value: func(i *client.Instance) string { return strings.TrimPrefix(i.Environment, "environments/") }},
			{Header: "STATE", Priority: 3, Value: func(i *client.Instance) string { return i.State }},
		},
		Name: func(i *client.Instance) string { return i.Name },
	},
}
