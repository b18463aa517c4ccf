package idps

import (
	"net"
	"strconv"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// idpColumns is the table of identity providers. Secret fields
// (clientSecret, bindPassword) have no column: a table never shows them.
var idpColumns = []output.Column[*client.IdentityProvider]{
	{Header: "NAME", Value: func(p *client.IdentityProvider) string { return p.Name }},
	{Header: "TITLE", Value: func(p *client.IdentityProvider) string { return p.Title }},
	{Header: "DOMAIN", Value: func(p *client.IdentityProvider) string { return p.Domain }},
	{Header: "TYPE", Value: func(p *client.IdentityProvider) string { return string(p.Type) }},
	{Header: "ENDPOINT", Value: endpoint},
}

// idpsTable is the table of providers, one row each.
func idpsTable(idps []client.IdentityProvider) output.Table {
	ptrs := make([]*client.IdentityProvider, len(idps))
	for i := range idps {
		ptrs[i] = &idps[i]
	}
	return output.TableOf(ptrs, idpColumns)
}

// idpNames lists the names of providers, for -o name.
func idpNames(idps []client.IdentityProvider) []string {
	names := make([]string, len(idps))
	for i := range idps {
		names[i] = idps[i].Name
	}
	return names
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
