// Package idps implements `dbgov idps`: the identity providers people log in
// with.
package idps

import (
	"context"
	"embed"
	"fmt"
	"net"
	"strconv"

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
	return helptext.Command(help, &cobra.Command{Use: "idps <command>", Aliases: []string{"idp", "identity-providers"}, Short: "Read the identity providers (OAuth 2.0, OIDC, LDAP)"}, newListCmd(f, nil))
}

// newListCmd builds idps list. runF, when not nil, is called with the
// dependencies in place of the listing: for tests of the arguments.
func newListCmd(f *factory.Factory, runF func(*factory.Deps) error) *cobra.Command {
	deps := f.Deps()
	return helptext.Command(help, &cobra.Command{
		Use:   "list [--show-secrets]",
		Short: "List the identity providers",
		Args:  arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(&deps)
			}
			return runList(cmd.Context(), deps)
		},
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

// idpList is how identity providers print. Secret fields (clientSecret,
// bindPassword) have no column: a table never shows them.
var idpList = output.List[client.IdentityProvider]{
	Columns: []output.Column[client.IdentityProvider]{
		{Header: "NAME", Kind: output.Name, MinWidth: 20, Value: func(p *client.IdentityProvider) string { return p.Name }},
		{Header: "TITLE", Priority: 2, MinWidth: 10, Value: func(p *client.IdentityProvider) string { return p.Title }},
		{Header: "DOMAIN", Priority: 3, MinWidth: 12, Value: func(p *client.IdentityProvider) string { return p.Domain }},
		{Header: "TYPE", Priority: 1, Value: func(p *client.IdentityProvider) string { return string(p.Type) }},
		{Header: "ENDPOINT", Priority: 4, MinWidth: 20, Value: endpoint},
	},
	Name: func(p *client.IdentityProvider) string { return p.Name },
}

// endpoint is where a provider is reached: the issuer of an OIDC provider,
// the authorization URL of an OAuth 2.0 one, host:port of an LDAP server
// (the host alone when no port is set). It follows the configuration sent,
// whatever the type says.
func endpoint(p *client.IdentityProvider) string {
	c := p.Config
	switch {
	case c == nil:
		return ""
	case c.OIDCConfig != nil:
		return c.OIDCConfig.Issuer
	case c.OAuth2Config != nil:
		return c.OAuth2Config.AuthURL
	case c.LDAPConfig != nil:
		if c.LDAPConfig.Port == 0 {
			return c.LDAPConfig.Host
		}
		return net.JoinHostPort(c.LDAPConfig.Host, strconv.Itoa(int(c.LDAPConfig.Port)))
	}
	return ""
}
