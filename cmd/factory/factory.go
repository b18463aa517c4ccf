// Package factory gives commands what they depend on: the IO streams, the
// resolved configuration, the API client and the output printer, each made
// once and only when a command asks for it.
package factory

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/spf13/pflag"
	"golang.org/x/net/http/httpguts"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/credstore"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/fleet"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

// Factory builds the dependencies of commands lazily from the root flags.
type Factory struct {
	IO      *iostreams.IOStreams
	Version string
	Commit  string
	Getenv  func(string) string

	flags   *pflag.FlagSet
	auth    Auth             // the credential of Client, once made
	secrets *secret.Scrubber // of the run: its messages and the client's

	settingsOnce sync.Once
	settings     *config.Settings // nil when invalid
	read         *config.Settings // what was read, even when invalid: for its secrets
	settingsErr  error

	clientOnce sync.Once
	client     *client.Client
	clientErr  error
}

// New returns a Factory for the given streams, build and environment, its
// global flags unset until RegisterFlags gives it those of the command line.
func New(ios *iostreams.IOStreams, version, commit string, getenv func(string) string) *Factory {
	f := &Factory{IO: ios, Version: version, Commit: commit, Getenv: getenv, secrets: &secret.Scrubber{}}
	f.RegisterFlags(pflag.NewFlagSet("dbgov", pflag.ContinueOnError))
	return f
}

// Auth is the credential a client is made with, and where it came from.
type Auth struct {
	Token, ServiceAccount, ServiceKey string
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

// Settings resolves the configuration once: flags, environment, config file.
// Warnings it finds (a config file others can read) go to stderr once.
func (f *Factory) Settings() (*config.Settings, error) {
	f.settingsOnce.Do(func() {
		f.read, f.settingsErr = config.Resolve(f.flags, f.Getenv)
		if f.settingsErr == nil {
			f.settings = f.read
			for _, w := range f.settings.Warnings {
				f.Warn(w)
			}
		}
	})
	return f.settings, f.settingsErr
}

// Client returns the API client for the resolved settings. Without a URL it
// fails with a usage error that says how to set one.
func (f *Factory) Client() (*client.Client, error) {
	f.clientOnce.Do(func() { f.client, f.clientErr = f.newClient() })
	return f.client, f.clientErr
}

// FleetClient returns a new client for a run over many databases, concurrency
// at a time: a 429 or 503 answer pauses every request of it.
func (f *Factory) FleetClient(concurrency int) (*client.Client, error) {
	return f.newClient(func(o *client.Options) {
		o.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
			return fleet.Throttle(rt, client.DefaultRetryWait, client.DefaultMaxRetryWait)
		}
	})
}

// newClient returns a client for the resolved settings and credential, its
// options changed by change.
func (f *Factory) newClient(change ...func(*client.Options)) (*client.Client, error) {
	s, err := f.Settings()
	if err != nil || s.URL == "" {
		return f.ClientWith(Auth{}, change...)
	}
	for _, n := range s.Notices { // told when they reach the service, not by config commands
		f.note(n)
	}
	a := Auth{Token: s.Token, ServiceAccount: s.ServiceAccount, ServiceKey: s.ServiceKey}
	switch {
	case a.Token != "":
		a.Source = s.Source("token")
	case a.ServiceKey != "":
		a.Source = s.Source("service_key")
	case a.ServiceAccount == "":
		c, err := credstore.Load(s.Profile)
		if err != nil || c == nil {
			break
		}
		a = Auth{Token: c.Token, ServiceAccount: c.ServiceAccount, ServiceKey: c.ServiceKey, Source: "keyring"}
		if err := f.bound("the credential kept in the keyring for profile "+s.Profile, c.URL); err != nil {
			return nil, err
		}
	}
	if a.Source == "profile" && s.ProfileURL != "" {
		if err := f.bound("the credential of profile "+s.Profile+" in "+s.Path, s.ProfileURL); err != nil {
			return nil, err
		}
	}
	for _, key := range []string{"token", "service_key"} {
		if f.IO.ErrTTY && s.Source(key) == "flag" {
			f.Warn("--" + strings.ReplaceAll(key, "_", "-") + " is visible to other users of this machine (ps); use `dbgov auth login`, or the environment")
		}
	}
	if a.Token == "" && a.ServiceAccount != "" && a.ServiceKey != "" {
		a.Tokens = f.TokenCache(s.URL, a.ServiceAccount, a.ServiceKey, a.Source == "keyring")
	}
	f.auth = a
	return f.ClientWith(a, change...)
}

// bound refuses to send what, a stored credential checked against the
// service at url, to another: exit 3, naming both.
func (f *Factory) bound(what, url string) error {
	s := f.settings
	if credstore.SameService(url) == credstore.SameService(s.URL) {
		return nil
	}
	return exitcode.New(exitcode.Auth, "", fmt.Errorf("%s belongs to %s: it is not sent to %s (the URL from %s); "+
		"log in for that URL with `dbgov auth login`, or give a credential for the run (--token, DBGOV_TOKEN, or a service account and key)",
		what, secret.URL(url), secret.URL(s.URL), s.Source("url")))
}

// Deps are what a verb's run takes from the factory: the streams, and the
// printer and client, each made when first asked for.
type Deps struct {
	IO         *iostreams.IOStreams
	Client     func() (*client.Client, error)
	Printer    func() (output.Printer, error)
	JSONErrors func() bool      // whether stderr takes one JSON value a line
	Warn       func(msg string) // says msg on stderr as a warning
}

// Deps returns the streams, client, printer and stderr's form of f.
func (f *Factory) Deps() Deps {
	return Deps{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter, JSONErrors: f.JSONErrors, Warn: f.Warn}
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

// Auth returns the credential of the client Client made.
func (f *Factory) Auth() Auth { return f.auth }

// TokenCache returns the cache of a service account's tokens at url: in the
// keyring, else in the cache directory; with DBGOV_NO_TOKEN_CACHE=1, for
// this run only.
func (f *Factory) TokenCache(url, account, key string, inKeyring bool) *credstore.TokenCache {
	dir := credstore.CacheDir(f.Getenv)
	if s, _ := f.Settings(); s != nil && s.NoTokenCache {
		inKeyring, dir = false, ""
	}
	c := credstore.NewTokenCache(inKeyring, dir, url, account, key)
	c.Warn = f.Warn
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
		Warn:                  f.Warn,
		Notice:                f.note,
		Secrets:               f.Secrets(),
		ServerCache:           credstore.NewServerCache(credstore.CacheDir(f.Getenv), s.URL),
	}
	if a.Tokens != nil {
		opts.TokenCache = a.Tokens
	}
	if s.Debug {
		opts.Debug = f.IO.ErrOut
	}
	for _, ch := range change {
		ch(&opts)
	}
	c, err := client.New(opts)
	if err != nil {
		return nil, exitcode.NewUsage(err)
	}
	return c, nil
}

// PrintFlags returns the output flags, -o defaulting to DBGOV_OUTPUT and
// then the config file.
func (f *Factory) PrintFlags() output.PrintFlags {
	return output.PrintFlags{Flags: f.flags, IO: f.IO, HiddenEnv: config.SecretVariables(), Format: func() (string, error) {
		s, err := f.Settings()
		if err != nil {
			return "", err
		}
		return s.Output, nil
	}}
}

// ErrColor reports whether stderr gets colour (hints dim, errors red):
// --color always, or auto with stderr a terminal and NO_COLOR unset.
func (f *Factory) ErrColor() bool {
	on, _ := output.Colour(f.flags, f.IO.ErrTTY && f.Getenv("NO_COLOR") == "" && f.Getenv("TERM") != "dumb")
	return on
}

// flagValue is the value of the root flag name, and whether it was given.
func (f *Factory) flagValue(name string) (string, bool) {
	if fl := f.flags.Lookup(name); fl != nil {
		return fl.Value.String(), fl.Changed
	}
	return "", false
}

// Secrets returns the run's one scrubber, told every credential known now:
// those of the flags, the environment, the settings and the client.
func (f *Factory) Secrets() *secret.Scrubber {
	st := cmp.Or(f.read, &config.Settings{})
	flag := func(name string) string { v, _ := f.flagValue(name); return v }
	given, headers := config.SecretsGiven(f.flags, f.Getenv)
	f.secrets.Add(given...)
	f.secrets.Add(st.Token, st.ServiceKey, f.auth.Token, f.auth.ServiceKey)
	f.secrets.AddURL(flag("url"), f.Getenv(config.Variable("url")), st.URL)
	for _, h := range st.Headers {
		headers = append(headers, h.String())
	}
	for _, raw := range headers {
		if h, err := config.ParseHeader(raw); err != nil { // the value, and a name that may be one
			name, value, _ := strings.Cut(raw, ":")
			if name = strings.TrimSpace(name); !httpguts.ValidHeaderFieldName(name) || secret.IsHeader(name) {
				f.secrets.Add(name)
			}
			f.secrets.Add(raw, strings.TrimSpace(value))
		} else if secret.IsHeader(h.Name) {
			f.secrets.Add(h.Value)
		}
	}
	return f.secrets
}

// note says msg on stderr at a terminal, as a "note:" line.
func (f *Factory) note(msg string) {
	if f.IO.ErrTTY {
		fmt.Fprintf(f.IO.ErrOut, "note: %s\n", f.Secrets().String(msg))
	}
}

// Warn says msg on stderr: a "warning:" line, or under JSON output a line
// {"warning": msg}, so that stderr stays one JSON value a line.
func (f *Factory) Warn(msg string) {
	msg = f.Secrets().String(msg)
	if f.jsonOutput(f.settings) {
		if line, err := json.Marshal(map[string]string{"warning": msg}); err == nil {
			fmt.Fprintf(f.IO.ErrOut, "%s\n", line)
			return
		}
	}
	fmt.Fprintf(f.IO.ErrOut, "warning: %s\n", msg)
}

// jsonOutput reports whether the output is for programs (-o json, --jq,
// --template), from the settings when they are known (s may be nil), else
// from the flags and environment alone.
func (f *Factory) jsonOutput(s *config.Settings) bool {
	jq, _ := f.flagValue("jq")
	template, _ := f.flagValue("template")
	format, given := f.flagValue("output")
	isJSON := func(format string) bool { return format == "json" || format == "jsonl" }
	switch {
	case jq != "" || template != "":
		return true
	case s != nil:
		return isJSON(s.Output)
	case given:
		return isJSON(format)
	}
	return isJSON(f.Getenv(config.Variable("output")))
}

// JSONErrors reports whether errors go to stderr as one JSON line: when the
// output is for programs (-o json, --jq, --template). It holds even when the
// settings are invalid, read then from the flags and environment alone.
func (f *Factory) JSONErrors() bool {
	s, _ := f.Settings() // nil when they are invalid
	return f.jsonOutput(s)
}

// JSONErrorsByFlags is JSONErrors from the flags and environment alone, for
// a report made while the settings may still be being read.
func (f *Factory) JSONErrorsByFlags() bool { return f.jsonOutput(nil) }
