// Package factory gives commands what they depend on: the IO streams, the
// resolved configuration, the API client and the output printer, each made
// once and only when a command asks for it.
package factory

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/spf13/pflag"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

// Factory builds the dependencies of commands lazily from the root flags.
type Factory struct {
	IO      *iostreams.IOStreams
	Version string
	Commit  string
	Getenv  func(string) string

	flags *pflag.FlagSet

	settingsOnce sync.Once
	settings     *config.Settings
	settingsErr  error

	clientOnce sync.Once
	client     *client.Client
	clientErr  error
}

// New returns a Factory for the given streams, build and environment.
func New(ios *iostreams.IOStreams, version, commit string, getenv func(string) string) *Factory {
	return &Factory{IO: ios, Version: version, Commit: commit, Getenv: getenv}
}

// Output flag names, registered by RegisterFlags beside config's.
const (
	flagJQ          = "jq"
	flagTemplate    = "template"
	flagNoHeaders   = "no-headers"
	flagShowSecrets = "show-secrets"
)

// RegisterFlags adds the global flags to fs (the root's persistent flags) and
// remembers fs so that settings can be resolved from it.
func (f *Factory) RegisterFlags(fs *pflag.FlagSet) {
	f.flags = fs
	config.RegisterFlags(fs)
	fs.String(flagJQ, "", "filter the JSON document with a jq `expression`; prints what jq -r would")
	fs.String(flagTemplate, "", "format the JSON document with a Go `template`")
	fs.Bool(flagNoHeaders, false, "print tables without the header row")
	fs.Bool(flagShowSecrets, false, "show secret fields (client secrets, bind passwords, OTP secrets, keys) instead of ********")
}

// Settings resolves the configuration once: flags, environment, config file.
// Warnings it finds (a config file others can read) go to stderr once.
func (f *Factory) Settings() (*config.Settings, error) {
	f.settingsOnce.Do(func() {
		fs := f.flags
		if fs == nil {
			fs = pflag.NewFlagSet("dbgov", pflag.ContinueOnError)
			config.RegisterFlags(fs)
		}
		f.settings, f.settingsErr = config.Resolve(fs, f.Getenv)
		if f.settingsErr == nil {
			for _, w := range f.settings.Warnings {
				f.warn(w)
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

func (f *Factory) newClient() (*client.Client, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	if s.URL == "" {
		return nil, exitcode.Usagef("no service URL: pass --url, set DBGOV_URL, or run `dbgov config set url https://...`")
	}
	maxSize, err := config.MaxResponseSize(f.flags, f.Getenv)
	if err != nil {
		return nil, exitcode.NewUsage(err)
	}
	headers := http.Header{}
	for _, h := range s.Headers {
		headers.Add(h.Name, h.Value)
	}
	opts := client.Options{
		BaseURL:               s.URL,
		Token:                 s.Token,
		ServiceAccount:        s.ServiceAccount,
		ServiceKey:            s.ServiceKey,
		Headers:               headers,
		Timeout:               s.Timeout,
		MaxResponseSize:       maxSize,
		InsecureSkipTLSVerify: s.InsecureSkipTLSVerify,
		CACertFile:            s.CACert,
		UserAgent:             "dbgov/" + f.Version,
		Warn:                  f.warn,
	}
	if s.Debug {
		opts.Debug = f.IO.ErrOut
	}
	if f.IO.ErrTTY {
		opts.Notice = func(msg string) { fmt.Fprintf(f.IO.ErrOut, "%s\n", msg) }
	}
	c, err := client.New(opts)
	if err != nil {
		return nil, exitcode.NewUsage(err)
	}
	return c, nil
}

// OutputOptions are the output flags as resolved.
func (f *Factory) OutputOptions() (output.Options, error) {
	s, err := f.Settings()
	if err != nil {
		return output.Options{}, err
	}
	if err := f.checkOutputFlags(); err != nil {
		return output.Options{}, err
	}
	opts := f.outputOptions(s.Output)
	opts.Defaulted = !f.outputFlagSet()
	return opts, nil
}

// checkOutputFlags refuses a --jq or --template given empty, which would
// otherwise be taken for no filter at all.
func (f *Factory) checkOutputFlags() error {
	if f.flags == nil {
		return nil
	}
	for _, name := range []string{flagJQ, flagTemplate} {
		if fl := f.flags.Lookup(name); fl != nil && fl.Changed && fl.Value.String() == "" {
			return exitcode.Usagef("--%s needs a non-empty value", name)
		}
	}
	return nil
}

// outputFlagSet reports whether -o was given on the command line.
func (f *Factory) outputFlagSet() bool {
	if f.flags == nil {
		return false
	}
	fl := f.flags.Lookup("output")
	return fl != nil && fl.Changed
}

// outputOptions are the output flags and the streams, with format as the
// -o value in force.
func (f *Factory) outputOptions(format string) output.Options {
	opts := output.Options{Format: format, TTY: f.IO.OutTTY, Color: f.IO.ColorEnabled, Width: f.IO.TermWidth}
	if f.flags != nil {
		opts.JQ, _ = f.flags.GetString(flagJQ)
		opts.Template, _ = f.flags.GetString(flagTemplate)
		opts.NoHeaders, _ = f.flags.GetBool(flagNoHeaders)
		opts.ShowSecrets, _ = f.flags.GetBool(flagShowSecrets)
	}
	return opts
}

// LocalPrinter returns the printer the output flags and DBGOV_OUTPUT choose,
// without reading the config file: the config commands must work on a file
// that holds a bad value, to repair it.
func (f *Factory) LocalPrinter() (output.Printer, error) {
	return f.flagPrinter(f.Getenv("DBGOV_OUTPUT"))
}

// FlagPrinter returns the printer the output flags alone choose, for
// commands that must answer whatever the configuration and environment hold
// (version).
func (f *Factory) FlagPrinter() (output.Printer, error) {
	return f.flagPrinter("")
}

func (f *Factory) flagPrinter(format string) (output.Printer, error) {
	if err := f.checkOutputFlags(); err != nil {
		return nil, err
	}
	explicit := f.outputFlagSet()
	if explicit {
		format = f.flags.Lookup("output").Value.String()
	}
	opts := f.outputOptions(format)
	opts.Defaulted = !explicit
	return newPrinter(opts)
}

// newPrinter builds the printer opts choose; bad options are usage errors.
func newPrinter(opts output.Options) (output.Printer, error) {
	p, err := output.New(opts)
	if err != nil {
		return nil, exitcode.NewUsage(err)
	}
	return p, nil
}

// Printer returns the printer the output flags choose.
func (f *Factory) Printer() (output.Printer, error) {
	opts, err := f.OutputOptions()
	if err != nil {
		return nil, err
	}
	return newPrinter(opts)
}

// warn says msg on stderr: a "warning:" line, or under JSON output a line
// {"warning": msg}, so that stderr stays one JSON value a line.
func (f *Factory) warn(msg string) {
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
	if f.flags != nil {
		if v, _ := f.flags.GetString(flagJQ); v != "" {
			return true
		}
		if v, _ := f.flags.GetString(flagTemplate); v != "" {
			return true
		}
	}
	if s != nil {
		return s.Output == "json"
	}
	if f.flags != nil {
		if fl := f.flags.Lookup("output"); fl != nil && fl.Changed {
			return fl.Value.String() == "json"
		}
	}
	return f.Getenv("DBGOV_OUTPUT") == "json"
}

// JSONErrors reports whether errors go to stderr as one JSON line: when the
// output is for programs (-o json, --jq, --template). It holds even when the
// settings are invalid, read then from the flags and environment alone.
func (f *Factory) JSONErrors() bool {
	s, err := f.Settings()
	if err != nil {
		s = nil
	}
	return f.jsonOutput(s)
}
