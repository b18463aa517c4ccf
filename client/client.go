// Package client is the typed client of the Database Governance Service's /v1
// JSON API: its resources, one request builder and one method per operation,
// the credentials, retries and errors of every call.
package client

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/go-resty/resty/v2"
	"golang.org/x/net/http/httpguts"

	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/internal/secret"
)

// Defaults of Options.
const (
	// DefaultTimeout limits each attempt of a request when Options.Timeout is 0.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxRetries is the number of retries when Options.MaxRetries is 0.
	DefaultMaxRetries = 3
	// DefaultRetryWait is the first backoff when Options.RetryWait is 0.
	DefaultRetryWait = 500 * time.Millisecond
	// DefaultMaxResponseSize caps an answer when Options.MaxResponseSize is 0.
	DefaultMaxResponseSize = 256 << 20
	// DefaultConcurrency is Options.Concurrency when 0: the most requests a
	// run over many databases sends at once.
	DefaultConcurrency = 64
	// maxRedirects is the most redirects a request follows.
	maxRedirects = 10
)

// Options configure a Client.
type Options struct {
	// BaseURL is the service's base address, such as https://gov.example.com;
	// a trailing slash or /v1 is tolerated. The client adds /v1/... itself.
	BaseURL string
	// Token is a bearer token; it wins over the service account.
	Token string
	// ServiceAccount is the email of a service account, which logs in with
	// ServiceKey through POST /v1/auth/login.
	ServiceAccount string
	// ServiceKey is the service account's key, sent as its password.
	ServiceKey string
	// WorkloadIdentity is a workload identity's email, which stands in for
	// the service account: the client trades an OIDC token of OIDCToken for
	// its token at POST /v1/auth:exchangeToken, once, and again after a 401.
	WorkloadIdentity string
	// OIDCToken returns the CI system's OIDC token for WorkloadIdentity,
	// asked afresh for each exchange; its error is returned as it is.
	OIDCToken func(ctx context.Context) (string, error)
	// WorkloadTokenCache, when not nil, returns the cache of the token
	// exchanged for oidcToken: one for each OIDC token, so that another
	// job's OIDC token never finds it.
	WorkloadTokenCache func(oidcToken string) TokenCache
	// Headers are extra headers sent with every request (for an access proxy,
	// say), never to another origin; the values of those named like a
	// credential are kept out of every message.
	Headers http.Header
	// Timeout limits each attempt of a request, its answer read whole; 0 means 30s.
	Timeout time.Duration
	// MaxResponseSize caps an answer, counted once decompressed; 0 means 256 MiB.
	MaxResponseSize int64
	// InsecureSkipTLSVerify turns off the check of the server's certificate.
	InsecureSkipTLSVerify bool
	// CACertFile names a PEM bundle of extra trusted CAs.
	CACertFile string
	// UserAgent is sent as User-Agent, e.g. dbgov/1.2.3.
	UserAgent string
	// Warn, when not nil, receives warnings: once, when credentials first go
	// over plain http:// to a host that is not loopback; once, when the
	// service's release is outside those dbgov knows.
	Warn func(msg string)
	// Notice, when not nil, receives news a person waiting at a terminal
	// wants, such as a long wait before a retry.
	Notice func(msg string)
	// Debug, when not nil, receives a log of each exchange with credentials masked.
	Debug io.Writer
	// MaxRetries bounds the retries of a request (a GET on 429, 502, 503, 504 or
	// a lost connection; any request that could not connect); 0 means 3, a
	// negative value none.
	MaxRetries int
	// RetryWait is the first backoff (0 means 500ms), doubled at each retry,
	// with jitter; a Retry-After header wins, honoured up to Timeout.
	RetryWait time.Duration
	// SharedBackoff, when set, makes a 429 or 503 answer pause every request
	// of the client for its Retry-After (else RetryWait); once a request gets
	// such an answer after all its retries, every later request fails at
	// once. It is for a run over many databases, which meet one busy service.
	SharedBackoff bool
	// Concurrency is the most requests the caller sends at once; the
	// transport keeps as many connections open for the next ones. 0 means
	// DefaultConcurrency.
	Concurrency int
	// Clock, when not nil, is the clock of the retries' waits and of the
	// shared backoff, for tests; nil means the wall clock.
	Clock Clock
	// TokenCache, when not nil, keeps the service account's token between
	// runs: asked before a login, given each new token, and told to drop
	// one the service refused.
	TokenCache TokenCache
	// Secrets, when not nil, is the scrubber of the client's errors and log:
	// the caller's, told of each credential the client meets.
	Secrets *secret.Scrubber
	// ServerVersion, when set, is the service's release (X.Y.Z), which the
	// client then never asks for.
	ServerVersion string
	// ServerCache, when not nil, keeps the service's description between runs.
	ServerCache ServerCache
}

// Client calls the /v1 API. It is safe for concurrent use.
type Client struct {
	// opts are the options given, defaults filled in; for a workload
	// identity, ServiceAccount is its email and ServiceKey empty. Its
	// TokenCache is replaced by the OIDC token's own on a workload's login.
	opts    Options
	base    string // scheme://host[/prefix], without a trailing slash
	rc      *resty.Client
	headers http.Header    // extra headers, canonical names
	backoff *sharedBackoff // nil unless Options.SharedBackoff
	log     *debugLog      // nil when debugging is off
	// secrets masks the credentials this client knows in its errors and log.
	secrets *secret.Scrubber

	// plainHost is the host of a base address that is plain http:// to a
	// host that is not loopback; Warn hears of it once credentials go there.
	plainHost string
	warnOnce  sync.Once

	// loginMu guards accountToken and loginErr, and is held during a login.
	loginMu sync.Mutex
	// accountToken is the service account's current token.
	accountToken string
	// loginErr is the error of a failed login, returned from then on.
	loginErr error

	serverMu sync.Mutex // held while the service's release is learnt
	server   *Server    // once learnt
}

// New checks opts and returns a Client; nothing is sent until a call.
func New(opts Options) (*Client, error) {
	base, err := normalizeBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	headers, err := checkHeaders(opts.Headers)
	if err != nil {
		return nil, err
	}
	if opts.ServerVersion != "" {
		if _, err := ParseRelease(opts.ServerVersion); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
		}
	}
	if err := CheckToken(opts.Token); err != nil {
		return nil, fmt.Errorf("%w: the token holds what a header cannot carry: %w", ErrInvalidOptions, err)
	}
	tlsConfig, err := newTLSConfig(opts.InsecureSkipTLSVerify, opts.CACertFile)
	if err != nil {
		return nil, err
	}
	if opts.WorkloadIdentity != "" && opts.OIDCToken == nil {
		return nil, fmt.Errorf("%w: workload identity %s has no source of OIDC tokens", ErrInvalidOptions, opts.WorkloadIdentity)
	}
	c := &Client{base: base, headers: headers, secrets: cmp.Or(opts.Secrets, &secret.Scrubber{})}
	u, _ := url.Parse(base)
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		c.plainHost = u.Host
	}
	c.secrets.Add(opts.Token, opts.ServiceKey)
	c.secrets.AddURL(base)
	for name, values := range headers {
		if secret.IsHeader(name) {
			c.secrets.Add(values...)
		}
	}
	if opts.Debug != nil {
		c.log = &debugLog{w: opts.Debug, scrub: c.secrets}
	}
	// Without a workload identity the OIDC options are dropped; with one,
	// the client logs in as it, a service account without a key.
	if opts.WorkloadIdentity == "" {
		opts.OIDCToken, opts.WorkloadTokenCache = nil, nil
	} else {
		opts.ServiceAccount, opts.ServiceKey = opts.WorkloadIdentity, ""
	}
	opts.UserAgent = cmp.Or(opts.UserAgent, "dbgov")
	opts.Timeout = cmp.Or(max(opts.Timeout, 0), DefaultTimeout)
	opts.MaxResponseSize = cmp.Or(max(opts.MaxResponseSize, 0), DefaultMaxResponseSize)
	opts.MaxRetries = max(cmp.Or(opts.MaxRetries, DefaultMaxRetries), 0)
	opts.RetryWait = cmp.Or(max(opts.RetryWait, 0), DefaultRetryWait)
	opts.Concurrency = cmp.Or(max(opts.Concurrency, 0), DefaultConcurrency)
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	c.opts = opts
	if opts.SharedBackoff {
		c.backoff = &sharedBackoff{clock: opts.Clock, first: opts.RetryWait, max: opts.Timeout}
	}
	c.rc = c.newResty(tlsConfig)
	return c, nil
}

// normalizeBaseURL checks a base URL and strips a trailing slash or /v1.
func normalizeBaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", fmt.Errorf("%w: no service URL given", ErrInvalidOptions)
	}
	base, err := CheckBaseURL(raw)
	if err != nil {
		return "", fmt.Errorf("%w: service URL %q: %w", ErrInvalidOptions, secret.URL(raw), err)
	}
	return base, nil
}

// CheckBaseURL checks the service's base address (an http or https URL with
// a host, a port in range, neither query nor fragment) and returns it in one
// spelling: the host in lower case, without a default port, a trailing slash
// or /v1. Its messages never repeat the value, which may hold credentials.
func CheckBaseURL(raw string) (string, error) {
	if strings.IndexFunc(raw, unicode.IsControl) >= 0 {
		return "", errors.New("the URL contains a control character")
	}
	u, err := url.Parse(raw)
	if ue := (*url.Error)(nil); errors.As(err, &ue) && strings.Contains(raw, "://") {
		return "", fmt.Errorf("not a valid URL: %w", ue.Err)
	}
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return "", errors.New("the URL must begin with http:// or https://")
	}
	port, _ := strconv.Atoi(u.Port())
	switch {
	case u.Host == "" || u.Hostname() == "":
		return "", errors.New("the URL has no host")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#"):
		return "", errors.New("the URL may not hold a query (?) or a fragment (#); give the service's base address")
	case u.Port() != "" && (port < 1 || port > 65535):
		return "", fmt.Errorf("port %s is out of range (1 to 65535)", u.Port())
	}
	u.Host = strings.ToLower(u.Host)
	if (u.Scheme == "http" && port == 80) || (u.Scheme == "https" && port == 443) {
		u.Host = strings.TrimSuffix(u.Host, ":"+u.Port())
	}
	// Trailing slashes go, then a /v1, then the slashes before it.
	return strings.TrimRight(strings.TrimSuffix(strings.TrimRight(u.String(), "/"), "/v1"), "/"), nil
}

// CheckHeader checks an extra request header: the name an HTTP token, the
// value free of line breaks and control characters but tab. Its messages
// name the header but never repeat its value.
func CheckHeader(name, value string) error {
	if !httpguts.ValidHeaderFieldName(name) {
		return fmt.Errorf("header name %q is not a valid HTTP header name", name)
	}
	if strings.IndexFunc(value, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) >= 0 {
		return fmt.Errorf("the value of header %s contains a control character", name)
	}
	return nil
}

// checkHeaders validates extra headers and returns them with canonical names.
func checkHeaders(h http.Header) (http.Header, error) {
	out := make(http.Header, len(h))
	for name, values := range h {
		for _, v := range values {
			if err := CheckHeader(name, v); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
			}
		}
		canonical := http.CanonicalHeaderKey(name)
		out[canonical] = append(out[canonical], values...)
	}
	return out, nil
}

// newTLSConfig builds the TLS settings, adding the CA bundle to the system's.
func newTLSConfig(insecure bool, caFile string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: insecure} //nolint:gosec // the user asked for it
	if caFile == "" {
		return cfg, nil
	}
	pem, err := readCABundle(caFile)
	if err != nil {
		return nil, fmt.Errorf("%w: read CA bundle: %v", ErrInvalidOptions, err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%w: CA bundle %s holds no PEM certificate", ErrInvalidOptions, caFile)
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// maxCABundle bounds the CA bundle read: far above any real bundle, and no
// more than a device or a FIFO given by mistake can make dbgov read.
const maxCABundle = 1 << 20

// readCABundle reads the CA bundle at path, refusing one over maxCABundle.
func readCABundle(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pem, err := io.ReadAll(io.LimitReader(f, maxCABundle+1))
	if err == nil && len(pem) > maxCABundle {
		err = fmt.Errorf("%s is larger than 1 MiB", path)
	}
	return pem, err
}

// URL returns the full URL r would be sent to.
func (c *Client) URL(r *Request) string {
	u := c.base + r.Path
	switch {
	case r.RawQuery != "":
		u += "?" + r.RawQuery
	case len(r.Query) > 0:
		u += "?" + r.Query.Encode()
	}
	return u
}

// DisplayURL is URL with the user information of the base address, if
// any, hidden: what may be shown to a person or a log (--dry-run).
func (c *Client) DisplayURL(r *Request) string {
	return secret.URL(c.URL(r))
}

// Send sends any /v1 request with the client's credentials, retries and
// errors, and decodes the JSON object of a 2xx answer into out (unless out
// is nil: then the body must be empty or JSON). It returns the body exactly
// as received, so that every field the service sent can be shown.
func (c *Client) Send(ctx context.Context, r *Request, out any) ([]byte, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	auth, err := c.authorization(ctx, r)
	if err != nil {
		return nil, err
	}
	res, err := c.exchange(ctx, r, auth)
	if err != nil {
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.HTTPStatus != http.StatusUnauthorized || !c.refreshable(r) {
			return nil, c.explain(err)
		}
		// A 401 was not processed: log in again and resend once.
		c.log.notef("HTTP 401: logging in again as %s and resending once", c.opts.ServiceAccount)
		token, err := c.serviceToken(ctx, strings.TrimPrefix(auth, "Bearer "))
		if err != nil {
			return nil, err
		}
		auth = "Bearer " + token
		if res, err = c.exchange(ctx, r, auth); err != nil {
			return nil, c.explain(err)
		}
	}
	if err := decodeBody(r, res, out); err != nil {
		return nil, err
	}
	return res.body, nil
}

// decodeBody checks the 2xx answer res to r and decodes its JSON object into
// out; with out nil it only checks that the body is empty or JSON.
func decodeBody(r *Request, res *response, out any) error {
	invalid := func(err error) error { return res.invalid(r, err) }
	trimmed := bytes.TrimLeft(res.body, " \t\n\r")
	if err := jsondoc.CheckDepth(trimmed); err != nil {
		return invalid(err)
	}
	switch {
	case out == nil && len(trimmed) > 0 && !jsontext.Value(res.body).IsValid(jsondoc.Lenient...):
		return invalid(errors.New("the body is not valid JSON"))
	case out == nil:
		return nil
	case len(trimmed) == 0:
		return invalid(errors.New("the body is empty, expected a JSON object"))
	case trimmed[0] != '{':
		return invalid(errors.New("the body is not a JSON object"))
	}
	if err := json.Unmarshal(res.body, out); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return invalid(&explainedError{
				msg: fmt.Sprintf("field %s holds a JSON %s, expected %s", typeErr.Field, typeErr.Value, jsonKind(typeErr.Type)),
				err: err,
			})
		}
		return invalid(err)
	}
	return nil
}

// invalid returns the error saying that res, the answer to r, cannot be
// used because of err.
func (res *response) invalid(r *Request, err error) *InvalidResponseError {
	return &InvalidResponseError{
		Method:      r.Method,
		Path:        r.Path,
		HTTPStatus:  res.status,
		ContentType: res.header.Get("Content-Type"),
		Err:         err,
	}
}

// jsonKind names the kind of JSON value a Go type decodes from. t is never
// a pointer (the decoder names the type pointed to); what is left is a number.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a number"
}

// explainedError says in its own words what a wrapped error means.
type explainedError struct {
	msg string
	err error
}

func (e *explainedError) Error() string { return e.msg }
func (e *explainedError) Unwrap() error { return e.err }

// discardLogger keeps resty's own log quiet; the debug log is written here.
type discardLogger struct{}

func (discardLogger) Errorf(string, ...any) {}
func (discardLogger) Warnf(string, ...any)  {}
func (discardLogger) Debugf(string, ...any) {}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// warnPlainHTTP warns, once, that credentials are about to go over plain
// http:// to another host: anyone on the network between can read them.
func (c *Client) warnPlainHTTP() {
	c.warnOnce.Do(func() {
		if c.opts.Warn != nil {
			c.opts.Warn(fmt.Sprintf("credentials are sent over plain http:// to %s; anyone on the network can read them, use https://", c.plainHost))
		}
	})
}
