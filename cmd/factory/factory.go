// Package factory gives commands what they depend on: the IO streams, the
// resolved configuration, the API client and the output printer, each made
// once and only when a command asks for it.
package factory

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/net/http/httpguts"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/credstore"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

// Factory is what commands depend on: the streams, and the settings and the
// API client, both made on first use. New builds it in order.
type Factory struct {
	IO              *iostreams.IOStreams
	Version, Commit string
	Getenv          func(string) string
	// Clock gives the client's retries and backoff the time; nil for the
	// wall clock. Tests give their own to see the waits without timing them.
	Clock client.Clock

	// Settings resolves the configuration once: flags, environment, config
	// file. Its warnings (a config file others can read) go to stderr.
	Settings func() (*config.Settings, error)
	// Client returns the API client for the resolved settings, made once.
	// Without a URL it fails with a usage error that says how to set one.
	Client func() (*client.Client, error)
	// Auth is the credential the client of Client was made with; set when
	// Client first runs.
	Auth Auth

	flags *pflag.FlagSet
	read  *config.Settings // what was read, even when invalid: for its secrets
}

// New returns a Factory for the given streams, build and environment, its
// global flags unset until RegisterFlags gives it those of the command line.
// The settings come from the flags and the environment, the client from the
// settings, and the form of stderr (JSON lines, the secrets it masks) from
// both.
func New(ios *iostreams.IOStreams, version, commit string, getenv func(string) string) *Factory {
	f := &Factory{IO: ios, Version: version, Commit: commit, Getenv: getenv}
	ios.Secrets = &secret.Scrubber{}
	f.RegisterFlags(pflag.NewFlagSet("dbgov", pflag.ContinueOnError))
	f.Settings = sync.OnceValues(f.resolve)
	f.Client = sync.OnceValues(func() (*client.Client, error) { return f.newClient() })
	return f
}

// Auth is the credential a client is made with, and where it came from.
type Auth struct {
	// Token is a bearer token; when set it wins over the service account.
	Token string
	// ServiceAccount and ServiceKey log in as a service account.
	ServiceAccount string
	ServiceKey     string
	// WorkloadIdentity, when set, stands in for the service account: its
	// token is exchanged for the CI system's OIDC token.
	WorkloadIdentity string
	// Source is "flag", "environment", "profile" or "keyring"; "" for none.
	Source string
	// Tokens keeps a service account's tokens; nil for none.
	Tokens *credstore.TokenCache
}

// RegisterFlags adds the global flags to fs (the root's persistent flags) and
// remembers fs so that settings can be resolved from it.
func (f *Factory) RegisterFlags(fs *pflag.FlagSet) {
	f.flags = fs
	config.RegisterFlags(fs)
	output.AddFlags(fs)
}

// resolve reads the settings from the flags, the environment and the config
// file, sets whether stderr takes JSON, gives their credentials to the
// scrubber (even when they are invalid), and prints their warnings.
func (f *Factory) resolve() (*config.Settings, error) {
	s, err := config.Resolve(f.flags, f.Getenv)
	f.read = s
	if err != nil {
		s = nil
	}
	f.IO.JSONErrors = f.JSONErrors(s)
	f.Secrets()
	if err != nil {
		return nil, err
	}
	for _, w := range s.Warnings {
		f.IO.Warn(w)
	}
	return s, nil
}

// FleetClient returns a new client for a run over many databases, concurrency
// at a time: a 429 or 503 answer pauses every request of it.
func (f *Factory) FleetClient(concurrency int) (*client.Client, error) {
	return f.newClient(func(o *client.Options) {
		o.SharedBackoff = true
		o.Concurrency = concurrency
	})
}

// newClient returns a client for the resolved settings, its options changed
// by change. Its credential is the first of: a token, a workload identity,
// a service key with its account, and, when not even an account is given,
// the one kept in the keyring for the profile. A credential kept for a
// service (in the keyring, or in a profile with a url) goes to no other.
func (f *Factory) newClient(change ...func(*client.Options)) (*client.Client, error) {
	s, err := f.Settings()
	if err != nil || s.URL == "" {
		return f.ClientWith(Auth{}, change...)
	}
	// The notices are told by the commands that reach the service, not by
	// the config commands.
	for _, n := range s.Notices {
		f.IO.Note(n)
	}
	a := Auth{Token: s.Token, ServiceAccount: s.ServiceAccount, ServiceKey: s.ServiceKey}
	switch {
	case a.Token != "":
		a.Source = s.Source("token")
	case s.WorkloadIdentity != "":
		a = Auth{WorkloadIdentity: s.WorkloadIdentity, Source: s.Source("workload_identity")}
	case a.ServiceKey != "":
		a.Source = s.Source("service_key")
	case a.ServiceAccount == "":
		c, err := credstore.Load(s.Profile)
		if err != nil || c == nil {
			break
		}
		a = Auth{Token: c.Token, ServiceAccount: c.ServiceAccount, ServiceKey: c.ServiceKey, Source: "keyring"}
		if err := f.bound(s, "the credential kept in the keyring for profile "+s.Profile, c.URL); err != nil {
			return nil, err
		}
	}
	if a.Source == "profile" && s.ProfileURL != "" && a.WorkloadIdentity == "" {
		if err := f.bound(s, "the credential of profile "+s.Profile+" in "+s.Path, s.ProfileURL); err != nil {
			return nil, err
		}
	}
	for _, key := range []string{"token", "service_key"} {
		if f.IO.ErrTTY && s.Source(key) == "flag" {
			f.IO.Warn("--" + strings.ReplaceAll(key, "_", "-") + " is visible to other users of this machine (ps); use `dbgov auth login`, or the environment")
		}
	}
	if a.Token == "" && a.ServiceAccount != "" && a.ServiceKey != "" {
		a.Tokens = f.TokenCache(s.URL, a.ServiceAccount, a.ServiceKey, a.Source == "keyring")
	}
	f.Auth = a
	return f.ClientWith(a, change...)
}

// bound returns an auth error (exit 3) when a stored credential, described by
// what and kept for the service at keptFor, would go to another service
// than s.URL; nil when both are the same service.
func (f *Factory) bound(s *config.Settings, what, keptFor string) error {
	if credstore.SameService(keptFor) == credstore.SameService(s.URL) {
		return nil
	}
	return exitcode.WithCode(fmt.Errorf("%s belongs to %s: it is not sent to %s (the URL from %s); "+
		"log in for that URL with `dbgov auth login`, or give a credential for the run (--token, DBGOV_TOKEN, or a service account and key)",
		what, secret.URL(keptFor), secret.URL(s.URL), s.Source("url")), exitcode.Auth, "")
}

// Deps are what a verb's run takes from the factory: the streams, and the
// printer and client, each made when first asked for.
type Deps struct {
	IO      *iostreams.IOStreams
	Client  func() (*client.Client, error)
	Printer func() (output.Printer, error)
}

// Deps returns the streams, client and printer of f.
func (f *Factory) Deps() Deps {
	return Deps{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter}
}

// Connect makes the printer, then the client, so that bad output flags are
// told before a missing URL or credential.
func (d Deps) Connect() (output.Printer, *client.Client, error) {
	p, err := d.Printer()
	if err != nil {
		return nil, nil, err
	}
	c, err := d.Client()
	return p, c, err
}

// Show connects, asks the service for the document get makes with the
// client, and prints it.
func (d Deps) Show(ctx context.Context, get func(*client.Client) (output.Document, error)) error {
	p, c, err := d.Connect()
	if err != nil {
		return err
	}
	doc, err := get(c)
	if err != nil {
		return err
	}
	return p.Print(ctx, d.IO.Out, doc)
}

// TokenCache returns the cache of the tokens that the service at serviceURL
// gives account (a service account or a workload identity) for key (its key
// or OIDC token). The tokens are kept in the keyring when inKeyring, else in
// the cache directory; with DBGOV_NO_TOKEN_CACHE=1, for this run only.
func (f *Factory) TokenCache(serviceURL, account, key string, inKeyring bool) *credstore.TokenCache {
	dir := credstore.CacheDir(f.Getenv)
	if s, _ := f.Settings(); s != nil && s.NoTokenCache {
		inKeyring, dir = false, ""
	}
	c := credstore.NewTokenCache(inKeyring, dir, serviceURL, account, key)
	c.Warn = f.IO.Warn
	return c
}

// ClientWith returns a new client for the resolved settings with the
// credential of a, its options changed by change. Without a URL it fails
// with a usage error that says how to set one.
func (f *Factory) ClientWith(a Auth, change ...func(*client.Options)) (*client.Client, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	if s.URL == "" {
		return nil, exitcode.Usagef("no service URL: pass --url, set DBGOV_URL, or run `dbgov config set url https://...`")
	}
	headers := http.Header{}
	for _, h := range s.Headers {
		headers.Add(h.Name, h.Value)
	}
	opts := client.Options{
		BaseURL:               s.URL,
		Token:                 a.Token,
		ServiceAccount:        a.ServiceAccount,
		ServiceKey:            a.ServiceKey,
		Headers:               headers,
		Timeout:               s.Timeout,
		MaxResponseSize:       s.MaxResponseSize,
		InsecureSkipTLSVerify: s.InsecureSkipTLSVerify,
		CACertFile:            s.CACert,
		UserAgent:             "dbgov/" + f.Version,
		Warn:                  f.IO.Warn,
		Notice:                f.IO.Note,
		Secrets:               f.Secrets(),
		ServerCache:           credstore.NewServerCache(credstore.CacheDir(f.Getenv), s.URL),
		ServerVersion:         s.ServerVersion,
		Clock:                 f.Clock,
	}
	if a.Tokens != nil { // not a nil pointer in the interface
		opts.TokenCache = a.Tokens
	}
	if a.WorkloadIdentity != "" {
		opts.WorkloadIdentity = a.WorkloadIdentity
		opts.OIDCToken = f.oidcToken
		opts.WorkloadTokenCache = func(oidc string) client.TokenCache {
			return f.TokenCache(s.URL, a.WorkloadIdentity, oidc, false)
		}
	}
	if s.Debug {
		opts.Debug = f.IO.ErrOut
	}
	for _, ch := range change {
		ch(&opts)
	}
	c, err := client.New(opts)
	return c, exitcode.NewUsage(err)
}

// PrintFlags returns the output flags, -o defaulting to DBGOV_OUTPUT and
// then the config file, and --summary-file to DBGOV_SUMMARY_FILE.
func (f *Factory) PrintFlags() output.PrintFlags {
	setting := func(value func(*config.Settings) string) func() (string, error) {
		return func() (string, error) {
			s, err := f.Settings()
			return value(cmp.Or(s, &config.Settings{})), err
		}
	}
	return output.PrintFlags{
		Flags:       f.flags,
		IO:          f.IO,
		HiddenEnv:   config.SecretVariables(),
		Format:      setting(func(s *config.Settings) string { return s.Output }),
		SummaryFile: setting(func(s *config.Settings) string { return s.SummaryFile }),
	}
}

// Secrets returns the run's one scrubber, the streams', told every
// credential known now: those of the flags, the environment, the settings
// and the client.
func (f *Factory) Secrets() *secret.Scrubber {
	scrub := f.IO.Secrets
	st := cmp.Or(f.read, &config.Settings{})
	given, headers := config.SecretsGiven(f.flags, f.Getenv)
	scrub.Add(given...)
	scrub.Add(f.Getenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN"))
	scrub.Add(st.Token, st.ServiceKey, f.Auth.Token, f.Auth.ServiceKey)
	flagURL, _ := f.flags.GetString("url")
	scrub.AddURL(flagURL, f.Getenv(config.Variable("url")), st.URL)
	for _, h := range st.Headers {
		headers = append(headers, h.String())
	}
	for _, raw := range headers {
		// A header that does not parse is masked whole and by its value; its
		// name too when it names a credential or is no header name (perhaps a
		// value given without one).
		if h, err := config.ParseHeader(raw); err != nil {
			name, value, _ := strings.Cut(raw, ":")
			if name = strings.TrimSpace(name); !httpguts.ValidHeaderFieldName(name) || secret.IsHeader(name) {
				scrub.Add(name)
			}
			scrub.Add(raw, strings.TrimSpace(value))
		} else if secret.IsHeader(h.Name) {
			scrub.Add(h.Value)
		}
	}
	return scrub
}

// JSONErrors reports whether the output is for programs (-o json, --jq,
// --template), and so stderr takes one JSON value a line: from the settings
// when they are known, else (s nil, as for a report made while the settings
// may still be being read) from the flags and environment alone.
func (f *Factory) JSONErrors(s *config.Settings) bool {
	jq, _ := f.flags.GetString("jq")
	template, _ := f.flags.GetString("template")
	format := config.Given(f.flags, f.Getenv, "output")
	if s != nil {
		format = s.Output
	}
	return jq != "" || template != "" || format == "json" || format == "jsonl"
}

// ReadStderrForm readies stderr for the report of a run's error: it applies
// --color, and resolves the settings if no command did, since they say
// whether stderr takes JSON and which credentials it masks.
func (f *Factory) ReadStderrForm() {
	when, _ := f.flags.GetString("color")
	_ = f.IO.SetColor(when)
	_, _ = f.Settings()
	f.Secrets()
}

// oidcToken returns the CI system's OIDC token for the workload identity:
// the content of --oidc-token-file, else DBGOV_OIDC_TOKEN, else one asked
// of GitHub Actions. Each call reads it afresh, as an exchange after a 401
// wants a token that has not expired.
func (f *Factory) oidcToken(ctx context.Context) (string, error) {
	s, err := f.Settings()
	if err != nil {
		return "", err
	}
	requestURL := f.Getenv("ACTIONS_ID_TOKEN_REQUEST_URL")
	var token, from string
	switch {
	case s.OIDCTokenFile != "":
		data, err := input.Read(s.OIDCTokenFile, nil)
		if err != nil {
			return "", fmt.Errorf("read the OIDC token: %w", err)
		}
		token, from = string(data), "--oidc-token-file "+s.OIDCTokenFile
	case s.OIDCToken != "":
		token, from = s.OIDCToken, config.Variable("oidc_token")
	case requestURL != "":
		return actionsToken(ctx, requestURL, f.Getenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN"), s.OIDCAudience, s.Timeout)
	default:
		return "", exitcode.Usagef("no OIDC token for workload identity %s: give --oidc-token-file FILE or DBGOV_OIDC_TOKEN "+
			"(in GitLab CI, a variable of id_tokens), or run in a GitHub Actions job with the permission id-token: write", s.WorkloadIdentity)
	}
	if token = strings.TrimSpace(token); token == "" {
		return "", exitcode.Usagef("the OIDC token of %s is empty; nothing was sent", from)
	}
	return token, nil
}

// actionsToken asks GitHub Actions for the job's OIDC token, for audience
// when not "": GET requestURL with the job's request token, answered
// {"value": <JWT>}.
func actionsToken(ctx context.Context, requestURL, requestToken, audience string, timeout time.Duration) (string, error) {
	if audience != "" {
		requestURL += "&audience=" + url.QueryEscape(audience)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, requestURL, nil)
	if err != nil {
		return "", exitcode.Usagef("ACTIONS_ID_TOKEN_REQUEST_URL is not a URL: %v", err)
	}
	req.Header.Set("Authorization", "Bearer "+requestToken)
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return "", fmt.Errorf("ask GitHub Actions for an OIDC token: %w", err)
	}
	defer resp.Body.Close()
	var answer struct{ Value string }
	err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&answer)
	switch {
	case resp.StatusCode != http.StatusOK:
		return "", exitcode.WithHint(exitcode.WithCode(fmt.Errorf("GitHub Actions refused an OIDC token (HTTP %s)", resp.Status), exitcode.Auth, ""),
			"ACTIONS_ID_TOKEN_REQUEST_TOKEN must be the job's own, given with the permission id-token: write")
	case err != nil || answer.Value == "":
		return "", fmt.Errorf("GitHub Actions answered no OIDC token (HTTP %s)", resp.Status)
	}
	return answer.Value, nil
}
