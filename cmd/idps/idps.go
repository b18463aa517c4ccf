// Package idps implements `dbgov idps`: the identity providers people log in
// with.
package idps

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds the idps command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "idps <command>",
		Aliases: []string{"idp", "identity-providers"},
		Short:   "Read the identity providers (OAuth 2.0, OIDC, LDAP)",
		Long: `Read the identity providers people log in with: OAuth 2.0, OpenID Connect
and LDAP. Listing them needs no credentials.`,
	}
	cmd.AddCommand(newListCmd(f, nil))
	return cmd
}
