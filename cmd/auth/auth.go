// Package auth implements `dbgov auth`: log in with a credential kept in the
// operating system's keyring, show who dbgov acts as, log out. The three
// verbs are small and share their helpers, so they share this file.
package auth

import (
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/credstore"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// loginOptions are what `auth login` runs with: the global credential flags
// (a secret is "-": read from standard input or a prompt) or else the
// workload identity of the settings, and --insecure-storage.
type loginOptions struct {
	Token          string // --token
	ServiceAccount string // --service-account
	ServiceKey     string // --service-key
	Workload       bool   // the settings' workload identity logs in
	Insecure       bool   // --insecure-storage
}

// NewCmd builds the auth command group. runF, when not nil, is called with
// the checked options of login in place of the login: for tests of the flags.
func NewCmd(f *factory.Factory, runF func(*loginOptions) error) *cobra.Command {
	opts := &loginOptions{}
	login := helptext.Command(help, &cobra.Command{
		Use:   "login (--token - | --service-account EMAIL --service-key - | --workload-identity EMAIL) [--insecure-storage]",
		Short: "Check a credential with the service and keep it in the keyring",
		Args:  arity.Exact(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runLogin(cmd, f, opts, runF) },
	})
	login.Flags().BoolVar(&opts.Insecure, "insecure-storage", false, "keep the credential in the config file, in plain text, where no keyring can be reached")
	return helptext.Command(help, &cobra.Command{Use: "auth <command>", Short: "Log in, show who dbgov acts as, log out"}, login,
		helptext.Command(help, &cobra.Command{
			Use:   "status",
			Short: "Show the service, profile and identity commands act as",
			Args:  arity.Exact(0, "no arguments"),
			RunE:  func(cmd *cobra.Command, _ []string) error { return runStatus(cmd, f) },
		}),
		helptext.Command(help, &cobra.Command{
			Use:   "logout",
			Short: "Remove the profile's credential and cached tokens",
			Args:  arity.Exact(0, "no arguments"),
			RunE:  func(cmd *cobra.Command, _ []string) error { return runLogout(cmd, f) },
		}))
}

func runLogin(cmd *cobra.Command, f *factory.Factory, opts *loginOptions, runF func(*loginOptions) error) error {
	opts.Token, _ = cmd.Flags().GetString("token")
	opts.ServiceAccount, _ = cmd.Flags().GetString("service-account")
	opts.ServiceKey, _ = cmd.Flags().GetString("service-key")
	s, err := f.Settings()
	if err != nil {
		return err
	}
	none := opts.Token == "" && opts.ServiceAccount == "" && opts.ServiceKey == ""
	opts.Workload = none && s.WorkloadIdentity != ""
	if none && !opts.Workload && f.IO.InTTY {
		opts.Token = "-" // a person at a terminal is asked for the token
	}
	switch {
	case opts.Workload:
	case opts.Token != "" && opts.Token != "-", opts.ServiceKey != "" && opts.ServiceKey != "-":
		return exitcode.Usagef("auth login reads secrets from standard input or a prompt, never from an argument: give --token - or --service-key -")
	case (opts.Token == "") == (opts.ServiceAccount == ""), (opts.Token == "") == (opts.ServiceKey == ""):
		return exitcode.Usagef("give either --token - or --service-account EMAIL --service-key -, or --workload-identity EMAIL")
	}
	if runF != nil {
		return runF(opts)
	}
	if opts.Workload {
		return loginWorkload(cmd, f, s)
	}
	if _, err := credstore.Load(s.Profile); err != nil && !opts.Insecure {
		// Before anything is sent: a login for nothing counts toward a lockout.
		debugKeyring(f, s, err)
		return fmt.Errorf("no keyring can be reached to keep the credential (%w); --insecure-storage keeps it in the config file, in plain text", err)
	}
	a := factory.Auth{ServiceAccount: opts.ServiceAccount}
	if opts.Token != "" {
		a.Token, err = f.IO.ReadLine("token", true)
	} else if a.ServiceKey, err = f.IO.ReadLine("service key", true); err == nil {
		a.Tokens = f.TokenCache(s.URL, a.ServiceAccount, a.ServiceKey, !opts.Insecure)
		a.Tokens.Drop() // log in afresh: the key is what is checked
	}
	var c *client.Client
	if err == nil {
		c, err = f.ClientWith(a)
	}
	var me *client.User
	if err == nil {
		me, err = whoAmI(cmd, c)
	}
	if err != nil {
		return err
	}
	// The profile holds a credential only with insecure storage, with the
	// URL it was checked against: one left there would win over the keyring's.
	plain := map[string]string{"url": s.URL, "token": a.Token, "service_account": a.ServiceAccount, "service_key": a.ServiceKey}
	where := "the keyring"
	if !opts.Insecure {
		plain = map[string]string{"token": "", "service_account": "", "service_key": ""}
		err = credstore.Save(s.Profile, credstore.Credential{URL: s.URL, Token: a.Token, ServiceAccount: a.ServiceAccount, ServiceKey: a.ServiceKey})
	}
	if err == nil {
		var path string
		if path, err = editProfile(cmd, f, plain); opts.Insecure {
			where = "config file " + path + ", in plain text"
		}
	}
	if err == nil {
		fmt.Fprintf(f.IO.ErrOut, "Logged in to %s as %s (%s); the credential of profile %s is in %s\n",
			secret.URL(s.URL), me.Email, me.UserType, s.Profile, where)
	}
	return err
}

// loginWorkload checks that the workload identity of s exchanges a fresh
// OIDC token, and who the service says it is. It keeps nothing: each run
// exchanges an OIDC token of its own.
func loginWorkload(cmd *cobra.Command, f *factory.Factory, s *config.Settings) error {
	c, err := f.ClientWith(factory.Auth{WorkloadIdentity: s.WorkloadIdentity}, func(o *client.Options) { o.WorkloadTokenCache = nil })
	var me *client.User
	if err == nil {
		me, err = whoAmI(cmd, c)
	}
	if err == nil {
		fmt.Fprintf(f.IO.ErrOut, "Logged in to %s as %s (%s) with an OIDC token; nothing is kept, as each run exchanges its own\n",
			secret.URL(s.URL), me.Email, me.UserType)
	}
	return err
}

// status is what `auth status` shows.
type status struct {
	URL              string `json:"url"`
	URLSource        string `json:"urlSource"`
	Profile          string `json:"profile"`
	Server           string `json:"server,omitempty"`
	Email            string `json:"email,omitempty"`
	UserType         string `json:"userType,omitempty"`
	Credential       string `json:"credential"`
	CredentialSource string `json:"credentialSource,omitempty"`
	Storage          string `json:"storage"`
	InsecureStorage  bool   `json:"insecureStorage"`
	TokenExpires     string `json:"tokenExpires,omitempty"`
}

func runStatus(cmd *cobra.Command, f *factory.Factory) error {
	p, c, err := f.Deps().Connect()
	if err != nil {
		return err
	}
	me, callErr := whoAmI(cmd, c)
	s, _ := f.Settings()
	a := f.Auth
	storage := map[string]string{"keyring": "keyring", "profile": "config file " + s.Path + ", in plain text"}
	st := status{
		URL:              secret.URL(s.URL),
		URLSource:        s.Source("url"),
		Profile:          s.Profile,
		Credential:       "none",
		CredentialSource: a.Source,
		Storage:          cmp.Or(storage[a.Source], "none"),
		InsecureStorage:  a.Source == "profile",
	}
	if me != nil {
		st.Email, st.UserType = me.Email, string(me.UserType)
		if srv, err := c.Server(cmd.Context()); err == nil {
			st.Server = srv.Version
		}
	}
	token := a.Token
	if a.Token != "" {
		st.Credential = "token"
	} else if a.WorkloadIdentity != "" {
		st.Credential = "workload identity " + a.WorkloadIdentity
	} else if a.ServiceAccount != "" {
		st.Credential, token = "service account "+a.ServiceAccount, a.Tokens.Last()
	}
	left := "expired"
	if expires, ok := credstore.Expiry(token); ok {
		st.TokenExpires = expires.UTC().Format(time.RFC3339)
		if d := time.Until(expires).Round(time.Second); d > 0 {
			left = "in " + d.String()
		}
	}
	raw, _ := json.Marshal(st)
	var b strings.Builder
	for _, l := range [][3]string{{"URL", st.URL, st.URLSource}, {"Service", st.Server, ""}, {"Profile", st.Profile, ""},
		{"Logged in as", st.Email, st.UserType}, {"Credential", st.Credential, st.CredentialSource},
		{"Storage", st.Storage, ""}, {"Token expires", st.TokenExpires, left}} {
		if l[1] != "" && l[2] != "" {
			l[1] += " (" + l[2] + ")"
		}
		if l[1] != "" {
			fmt.Fprintf(&b, "%-14s %s\n", l[0]+":", l[1])
		}
	}
	err = p.Print(cmd.Context(), f.IO.Out, output.Document{Raw: raw, Text: new(b.String())})
	return cmp.Or(callErr, err)
}

func runLogout(cmd *cobra.Command, f *factory.Factory) error {
	s, err := f.Settings()
	if err != nil {
		return err
	}
	// A keyring that cannot be reached holds nothing this can remove.
	cred, kerr := credstore.Load(s.Profile)
	if cred != nil && cred.ServiceAccount != "" {
		f.TokenCache(s.URL, cred.ServiceAccount, cred.ServiceKey, true).Drop()
		f.TokenCache(cred.URL, cred.ServiceAccount, cred.ServiceKey, true).Drop()
	}
	if s.ServiceAccount != "" && s.ServiceKey != "" {
		f.TokenCache(s.URL, s.ServiceAccount, s.ServiceKey, false).Drop()
	}
	if kerr == nil {
		kerr = credstore.Remove(s.Profile)
	}
	debugKeyring(f, s, kerr)
	path, err := editProfile(cmd, f, map[string]string{"token": "", "service_account": "", "service_key": ""})
	from := "the keyring and " + path
	if kerr != nil {
		from = fmt.Sprintf("%s (the keyring cannot be reached: %v)", path, kerr)
	}
	if err == nil {
		fmt.Fprintf(f.IO.ErrOut, "Logged out of profile %s: its credential and cached tokens are gone from %s\n", s.Profile, from)
	}
	for _, key := range []string{"token", "service_key"} {
		if s.Source(key) == "environment" {
			f.IO.Warn(config.Variable(key) + " is set in the environment: commands still authenticate with it")
		}
	}
	return err
}

// debugKeyring tells, under --debug, what the keyring said when it failed.
func debugKeyring(f *factory.Factory, s *config.Settings, err error) {
	if ke := (*credstore.KeyringError)(nil); s.Debug && errors.As(err, &ke) {
		fmt.Fprintf(f.IO.ErrOut, "debug: the keyring: %v\n", ke.Detail)
	}
}

// whoAmI asks the service who c's credential stands for; the type of its
// account is told by the email where the service no longer says it.
func whoAmI(cmd *cobra.Command, c *client.Client) (*client.User, error) {
	var me client.User
	if _, err := c.Send(cmd.Context(), &client.Request{Method: http.MethodGet, Path: "/v1/users/me"}, &me); err != nil {
		return nil, fmt.Errorf("ask the service who the credential stands for: %w", err)
	}
	me.UserType = cmp.Or(me.UserType, client.AccountType(me.Email))
	return &me, nil
}

// editProfile sets the credential keys of the profile in the config file to
// values ("" removes a key), saving the file when that changes it.
func editProfile(cmd *cobra.Command, f *factory.Factory, values map[string]string) (path string, err error) {
	err = config.Edit(cmd.Context(), cmd.Root().PersistentFlags(), f.Getenv, func(file *config.File, profile string) error {
		path = file.Path()
		for key, v := range values {
			old, _ := file.Get(profile, key)
			var err error
			switch {
			case old == v:
			case v == "":
				err = file.Unset(profile, key)
			default:
				err = file.Set(profile, key, v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return path, err
}
