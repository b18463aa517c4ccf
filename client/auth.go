package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// loginPath is where a service account trades its key for a token, and
// exchangePath where a workload identity trades an OIDC token for one.
const (
	loginPath    = "/v1/auth/login"
	exchangePath = "/v1/auth:exchangeToken"
)

// isLoginPath reports whether path trades a credential for a token.
func isLoginPath(path string) bool {
	return strings.HasSuffix(path, loginPath) || strings.HasSuffix(path, exchangePath)
}

// TokenCache keeps a service account's token between runs; see
// Options.TokenCache. Get returns "" when it holds no usable token.
type TokenCache interface {
	Get() string
	Put(token string)
	Drop()
}

// authorization returns the Authorization value for r, logging the service
// account in first when it has no token yet. It is "" for a request that
// needs no credentials, or when an extra Authorization header stands in.
func (c *Client) authorization(ctx context.Context, r *Request) (string, error) {
	switch {
	case r.NoAuth:
		return "", nil
	case c.opts.Token != "":
		return "Bearer " + c.opts.Token, nil
	case c.canLogIn():
		token, err := c.serviceToken(ctx, "")
		return "Bearer " + token, err
	case c.opts.ServiceAccount != "":
		return "", fmt.Errorf("%w: service account %s has no service key", ErrNoCredentials, c.opts.ServiceAccount)
	case c.opts.ServiceKey != "":
		return "", fmt.Errorf("%w: a service key was given without its service account", ErrNoCredentials)
	case c.headers.Get("Authorization") != "", r.OptionalAuth:
		return "", nil
	}
	return "", fmt.Errorf("%w: %s %s needs a token or a service account and its key", ErrNoCredentials, r.Method, r.Path)
}

// canLogIn reports whether the client gets its token by a login: a service
// account with its key, or a workload identity with its OIDC tokens.
func (c *Client) canLogIn() bool {
	return c.opts.ServiceAccount != "" && (c.opts.ServiceKey != "" || c.opts.OIDCToken != nil)
}

// refreshable reports whether a 401 on r may be cured by logging in again:
// only a token of a login is refreshed, never one given directly.
func (c *Client) refreshable(r *Request) bool {
	return !r.NoAuth && c.opts.Token == "" && c.canLogIn()
}

// serviceToken returns the token of the service account or workload
// identity, logging in when there is none yet or only stale, the one a 401
// refused. Callers share one login: the others wait for it. A failed login
// is kept and returned to every later caller, so that a run over many
// databases with a wrong key logs in once, not once a database, which the
// service's lockout punishes.
func (c *Client) serviceToken(ctx context.Context, stale string) (string, error) {
	c.loginMu.Lock()
	defer c.loginMu.Unlock()
	switch {
	case c.loginErr != nil:
		return "", c.loginErr
	case c.accountToken != "" && c.accountToken != stale:
		return c.accountToken, nil
	case c.opts.TokenCache != nil && stale != "":
		c.opts.TokenCache.Drop()
	}
	token, err := c.login(ctx, stale == "")
	if err != nil && ctx.Err() == nil {
		c.loginErr = err
	}
	return token, err
}

// login returns a token of the service account or workload identity: the
// one the cache keeps for its key or fresh OIDC token, when cached allows,
// else one that key or OIDC token is traded for; c.loginMu is held.
func (c *Client) login(ctx context.Context, cached bool) (string, error) {
	who := "service account " + c.opts.ServiceAccount
	what, doing := "log in as "+who, "logging in as "+who
	path := loginPath
	var body any = &LoginRequest{Email: c.opts.ServiceAccount, Password: c.opts.ServiceKey}
	if c.opts.OIDCToken != nil {
		oidc, err := c.opts.OIDCToken(ctx)
		if err != nil {
			return "", err
		}
		c.secrets.Add(oidc)
		if c.opts.WorkloadTokenCache != nil {
			c.opts.TokenCache = c.opts.WorkloadTokenCache(oidc)
		}
		who = "workload identity " + c.opts.ServiceAccount
		what, doing = "exchange the OIDC token for "+who, "exchanging the OIDC token for "+who
		path = exchangePath
		body = &ExchangeTokenRequest{Token: oidc, Email: c.opts.ServiceAccount}
	}
	if cached && c.opts.TokenCache != nil {
		if token := c.opts.TokenCache.Get(); token != "" && CheckToken(token) == nil {
			c.log.notef("using the cached token of %s", who)
			c.secrets.Add(token)
			c.accountToken = token
			return token, nil
		}
	}
	c.log.notef("%s", doing)
	raw, _ := json.Marshal(body) // strings alone: it cannot fail
	r := &Request{Method: http.MethodPost, Path: path, Body: raw, NoAuth: true}
	res, err := c.exchange(ctx, r, "")
	var login LoginResponse
	if err == nil {
		err = decodeBody(r, res, &login)
	}
	token := cmp.Or(login.Token, login.AccessToken)
	switch api := (*APIError)(nil); {
	case errors.As(err, &api) && api.HTTPStatus == http.StatusUnauthorized && c.opts.OIDCToken != nil:
		err = exitcode.WithHint(err, "the identity may be deactivated, or the OIDC token's issuer, audience or subject not those it allows (--oidc-audience asks GitHub Actions for another audience)")
	case err != nil: // reported below
	case token == "":
		err = res.invalid(r, errors.New("the answer holds no token"))
	case CheckToken(token) != nil:
		err = res.invalid(r, errors.New("the token holds characters a header cannot carry"))
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	c.secrets.Add(token)
	c.accountToken = token
	if c.opts.TokenCache != nil {
		c.opts.TokenCache.Put(token)
	}
	return token, nil
}

// CheckToken checks that a token can be sent in an Authorization header:
// visible ASCII only. Its messages never repeat the token.
func CheckToken(token string) error {
	for _, r := range token {
		switch {
		case r == '\n' || r == '\r':
			return errors.New("it contains a line break (a trailing newline from a file?)")
		case unicode.IsControl(r):
			return errors.New("it contains a control character")
		case unicode.IsSpace(r):
			return errors.New("it contains a space")
		case r > unicode.MaxASCII:
			return errors.New("it contains a character that is not ASCII")
		}
	}
	return nil
}
