package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"unicode"
)

// loginPath is where a service account trades its key for a token.
const loginPath = "/v1/auth/login"

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
	if r.NoAuth {
		return "", nil
	}
	if c.token != "" {
		return "Bearer " + c.token, nil
	}
	switch {
	case c.account != "" && c.key != "":
		token, err := c.serviceToken(ctx, "")
		return "Bearer " + token, err
	case c.account != "":
		return "", fmt.Errorf("%w: service account %s has no service key", ErrNoCredentials, c.account)
	case c.key != "":
		return "", fmt.Errorf("%w: a service key was given without its service account", ErrNoCredentials)
	case c.headers.Get("Authorization") != "", r.OptionalAuth:
		return "", nil
	}
	return "", fmt.Errorf("%w: %s %s needs a token or a service account and its key", ErrNoCredentials, r.Method, r.Path)
}

// refreshable reports whether a 401 on r may be cured by logging in again:
// only a service account's token is refreshed, never one given directly.
func (c *Client) refreshable(r *Request) bool {
	return !r.NoAuth && c.token == "" && c.account != "" && c.key != ""
}

// serviceToken returns the service account's token, logging in when there
// is none yet or only stale, the one a 401 refused. Callers share one
// login: the others wait for it. A failed login is kept and returned to
// every later caller, so that a run over many databases with a wrong key
// logs in once, not once a database, which the service's lockout punishes.
func (c *Client) serviceToken(ctx context.Context, stale string) (string, error) {
	c.loginMu.Lock()
	defer c.loginMu.Unlock()
	switch {
	case c.loginErr != nil:
		return "", c.loginErr
	case c.accountToken != "" && c.accountToken != stale:
		return c.accountToken, nil
	case c.tokens != nil && stale != "":
		c.tokens.Drop()
	case c.tokens != nil:
		if token := c.tokens.Get(); token != "" && CheckToken(token) == nil {
			c.log.notef("using the cached token of service account %s", c.account)
			c.secrets.Add(token)
			c.accountToken = token
			return token, nil
		}
	}
	token, err := c.login(ctx)
	if err != nil && ctx.Err() == nil {
		c.loginErr = err
	}
	return token, err
}

// login trades the service key for a token, which it returns; c.loginMu
// is held.
func (c *Client) login(ctx context.Context) (string, error) {
	c.log.notef("logging in as service account %s", c.account)
	body, err := json.Marshal(&LoginRequest{Email: c.account, Password: c.key})
	if err != nil {
		return "", fmt.Errorf("log in as %s: encode: %w", c.account, err)
	}
	r := &Request{Method: http.MethodPost, Path: loginPath, Body: body, NoAuth: true}
	res, err := c.exchange(ctx, r, "")
	if err != nil {
		return "", fmt.Errorf("log in as service account %s: %w", c.account, err)
	}
	var login LoginResponse
	if err := decodeBody(r, res, &login); err != nil {
		return "", fmt.Errorf("log in as service account %s: %w", c.account, err)
	}
	problem := ""
	switch {
	case login.Token == "":
		problem = "the answer holds no token"
	case CheckToken(login.Token) != nil:
		problem = "the token holds characters a header cannot carry"
	}
	if problem != "" {
		return "", fmt.Errorf("log in as service account %s: %w", c.account, &InvalidResponseError{
			Method: r.Method, Path: r.Path, HTTPStatus: res.status, ContentType: res.header.Get("Content-Type"),
			Err: errors.New(problem),
		})
	}
	c.secrets.Add(login.Token)
	c.accountToken = login.Token
	if c.tokens != nil {
		c.tokens.Put(login.Token)
	}
	return login.Token, nil
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
