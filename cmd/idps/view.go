package idps

import (
	"net"
	"strconv"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

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
