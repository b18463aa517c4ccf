// Package idps implements `dbgov idps`: the identity providers people log in
// with.
package idps

import (
	"context"
	"embed"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the idps command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "idps <command>", Aliases: []string{"idp", "identity-providers"}, Short: "Read the identity providers (OAuth 2.0, OIDC, LDAP)"}, newListCmd(f))
}

func newListCmd(f *factory.Factory) *cobra.Command {
	deps := f.Deps()
	return helptext.Command(help, &cobra.Command{
		Use:   "list [--show-secrets]",
		Short: "List the identity providers",
		Args:  arity.Exact(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runList(cmd.Context(), deps) },
	})
}

func runList(ctx context.Context, deps factory.Deps) error {
	return deps.Show(ctx, func(c *client.Client) (output.Document, error) {
		resp, raw, err := c.ListIdentityProviders(ctx)
		if err != nil {
			return output.Document{}, fmt.Errorf("list identity providers: %w", err)
		}
		return idpList.Document(raw, "identityProviders", resp.IdentityProviders, "idps/"), nil
	})
}
