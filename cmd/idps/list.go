package idps

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type listOptions struct {
	IO      *iostreams.IOStreams
	Client  func() (*client.Client, error)
	Printer func() (output.Printer, error)
}

func newListCmd(f *factory.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter}
	cmd := &cobra.Command{
		Use:   "list [--show-secrets]",
		Short: "List the identity providers",
		Long: `List the identity providers, one a row: title, domain, type, and where it
is reached: the issuer of an OIDC provider, the authorization URL of an OAuth 2.0
provider, the host:port of an LDAP server. It needs no credentials.

Client secrets and LDAP bind passwords print as ******** in -o json, -o yaml,
--jq and --template unless --show-secrets is given; the table never shows them.`,
		Example: `  dbgov idps list
  dbgov idps list -o json
  dbgov idps list --show-secrets --jq '.identityProviders[] | select(.type == "OIDC") | .config.oidcConfig.clientId'`,
		Args: arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	resp, raw, err := c.ListIdentityProviders(ctx)
	if err != nil {
		return fmt.Errorf("list identity providers: %w", err)
	}
	return p.Print(ctx, opts.IO.Out, output.Document{
		Raw:       raw,
		ListField: "identityProviders",
		Names:     func() []string { return idpList.Names(resp.IdentityProviders) },
		Tables:    func() []output.Table { return []output.Table{idpList.Table(resp.IdentityProviders, "idps/")} },
	})
}
