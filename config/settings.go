// Package config resolves the settings dbgov runs with, from flags, the
// environment and a profile of the config file, and edits that file for the
// `dbgov config` commands.
package config

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/output"
)

// ErrInvalid is matched by every error about a bad config key, value, flag
// value or config file; the command layer reports those as usage errors.
var ErrInvalid = exitcode.NewUsage(errors.New("invalid configuration"))

// invalidf builds, from a format, an error that matches ErrInvalid.
func invalidf(format string, args ...any) error {
	return &exitcode.InvalidError{Kind: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
}

// setting declares one setting: its name (the flag's), where it may be
// given, its default and whether it is sensitive. Its config key and
// environment variable derive from the name; the field of Settings it fills
// says how a value is read (text, boolean, duration, size, headers).
type setting struct {
	name      string // the flag's name, without the dashes
	short     string // the flag's one-letter name, "" for none
	usage     string // the flag's help
	def       string // the default, as it would be given
	in        place
	sensitive bool
	key       string             // the config key, when it is not the name's
	check     func(string) error // a check beyond the field's type, when not nil
	// field returns the field of the given Settings that the setting fills;
	// nil for profile and config, which only choose the file's profile.
	field func(*Settings) any
}

// place is where a setting may be given: a set of fromFlag, fromEnv, fromFile.
type place uint8

const (
	fromFlag place = 1 << iota
	fromEnv
	fromFile
	anywhere = fromFlag | fromEnv | fromFile
)

// settings lists every setting once, those of a profile in the order the
// file and messages show them. Flag help, `dbgov help environment`, secret
// lists, provenance and the config keys all derive from it.
var settings = [...]setting{
	{name: "url", in: anywhere, usage: "service base address, e.g. https://gov.example.com",
		check: parses(client.CheckBaseURL), field: func(s *Settings) any { return &s.URL }},
	{name: "token", in: anywhere, sensitive: true, usage: "bearer token",
		check: client.CheckToken, field: func(s *Settings) any { return &s.Token }},
	{name: "service-account", in: anywhere, usage: "log in as this service account `EMAIL`",
		check: noControl, field: func(s *Settings) any { return &s.ServiceAccount }},
	{name: "service-key", in: anywhere, sensitive: true, usage: "key of the service account; a token, when set, wins",
		check: noControl, field: func(s *Settings) any { return &s.ServiceKey }},
	{name: "workload-identity", in: anywhere, usage: "authenticate as the workload identity `EMAIL`, exchanging the CI system's OIDC token for its token",
		check: noControl, field: func(s *Settings) any { return &s.WorkloadIdentity }},
	{name: "oidc-token-file", in: fromFlag | fromEnv, usage: "`FILE` holding the OIDC token for --workload-identity",
		check: noControl, field: func(s *Settings) any { return &s.OIDCTokenFile }},
	{name: "oidc-token", in: fromEnv, sensitive: true, usage: "the OIDC token for --workload-identity",
		field: func(s *Settings) any { return &s.OIDCToken }},
	{name: "oidc-audience", in: fromFlag, usage: "ask GitHub Actions for an OIDC token of the audience `AUD`, for --workload-identity",
		check: noControl, field: func(s *Settings) any { return &s.OIDCAudience }},
	{name: "header", key: "headers", in: fromFlag | fromFile, sensitive: true, usage: `extra request header "Name: value", e.g. for an access proxy (repeatable)`,
		field: func(s *Settings) any { return &s.Headers }},
	{name: "output", short: "o", in: anywhere, def: output.Formats[0], usage: "output format: " + strings.Join(output.Formats, ", "),
		check: checkFormat, field: func(s *Settings) any { return &s.Output }},
	{name: "timeout", in: anywhere, def: client.DefaultTimeout.String(), usage: "per-request time limit",
		field: func(s *Settings) any { return &s.Timeout }},
	{name: "insecure-skip-tls-verify", in: fromFlag | fromFile, usage: "do not verify the server's certificate (insecure)",
		field: func(s *Settings) any { return &s.InsecureSkipTLSVerify }},
	{name: "ca-cert", in: fromFlag | fromFile, usage: "`FILE` of extra CA certificates (PEM) to trust",
		check: noControl, field: func(s *Settings) any { return &s.CACert }},
	{name: "max-response-size", in: anywhere, def: fmt.Sprintf("%dMiB", client.DefaultMaxResponseSize>>20),
		usage: "largest answer read, a `size` such as 256MiB, 10MB or 1048576", field: func(s *Settings) any { return &s.MaxResponseSize }},
	{name: "server-version", in: anywhere, usage: "the service's `release`, such as 3.21.1, which dbgov then does not ask the service",
		check: parses(client.ParseRelease), field: func(s *Settings) any { return &s.ServerVersion }},
	{name: "summary-file", in: fromFlag | fromEnv, usage: "append the result in Markdown to `FILE` too, whatever -o is, e.g. $GITHUB_STEP_SUMMARY",
		check: noControl, field: func(s *Settings) any { return &s.SummaryFile }},
	{name: "profile", in: fromFlag | fromEnv, usage: `profile of the config file (default: the file's current_profile, else "default")`},
	{name: "config", in: fromFlag | fromEnv, usage: "config file (default $XDG_CONFIG_HOME/dbgov/config.yaml, else ~/.config/dbgov/config.yaml)"},
	{name: "debug", in: fromFlag | fromEnv, usage: "log each HTTP exchange to stderr, credentials redacted",
		field: func(s *Settings) any { return &s.Debug }},
	{name: "no-token-cache", in: fromEnv, usage: "log a service account in on every run instead of reusing its cached token",
		field: func(s *Settings) any { return &s.NoTokenCache }},
}

// Key is the setting's key in a profile of the config file.
func (st *setting) Key() string { return cmp.Or(st.key, strings.ReplaceAll(st.name, "-", "_")) }

// Env is the setting's environment variable, "" for none.
func (st *setting) Env() string {
	if st.in&fromEnv == 0 {
		return ""
	}
	return "DBGOV_" + strings.ToUpper(strings.ReplaceAll(st.name, "-", "_"))
}

// set reads values, from one source, into the field of st in s.
func (st *setting) set(s *Settings, values []string) error {
	for _, v := range values {
		if st.check == nil || v == "" {
			continue
		}
		if err := st.check(v); err != nil {
			return err
		}
	}
	v := ""
	if len(values) > 0 {
		v = values[len(values)-1]
	}
	var err error
	switch p := st.field(s).(type) {
	case *string:
		*p = v
	case *bool:
		*p, err = parseBool(v)
	case *time.Duration:
		*p, err = parseTimeout(v)
	case *int64:
		*p, err = parseSize(v)
	case *[]Header:
		for i, raw := range values {
			h, err := ParseHeader(raw)
			if err != nil {
				return fmt.Errorf("header %d: %w", i+1, err)
			}
			*p = append(*p, h)
		}
	}
	return err
}

// defaultProfile is the profile used when neither --profile, DBGOV_PROFILE
// nor the file's current_profile names one.
const defaultProfile = "default"

// Keys returns the keys a profile of the config file may hold.
func Keys() []string {
	var keys []string
	for _, st := range settings {
		if st.in&fromFile != 0 {
			keys = append(keys, st.Key())
		}
	}
	return keys
}

// Sensitive reports whether the values of key are credentials: masked when
// shown, not echoed when typed.
func Sensitive(key string) bool {
	st := settingOf(key)
	return st != nil && st.sensitive
}

// SecretVariables returns the environment variables that hold credentials.
func SecretVariables() []string {
	var names []string
	for _, st := range settings {
		if st.sensitive && st.Env() != "" {
			names = append(names, st.Env())
		}
	}
	return names
}

// Variable returns the environment variable of the setting of key, "" for none.
func Variable(key string) string { return settingOf(key).Env() }

// SecretsGiven returns what the flags in fs and the environment give the
// sensitive settings, valid or not, to keep out of every message: headers
// apart, as "Name: value", since whether one is secret depends on its name.
func SecretsGiven(fs *pflag.FlagSet, getenv func(string) string) (values, headers []string) {
	s := newSources(fs, getenv)
	for _, st := range settings {
		if !st.sensitive {
			continue
		}
		given := s.flagValues(&st)
		if env := st.Env(); env != "" {
			given = append(given, s.getenv(env))
		}
		if st.Key() == "headers" {
			headers = append(headers, given...)
		} else {
			values = append(values, given...)
		}
	}
	return values, headers
}

// Environment describes each variable of the settings, for
// `dbgov help environment`.
func Environment() string {
	var b strings.Builder
	for _, st := range settings {
		if st.Env() != "" {
			fmt.Fprintf(&b, "  %s\n      %s", st.Env(), strings.ReplaceAll(st.usage, "`", ""))
			if st.in&fromFlag != 0 {
				fmt.Fprintf(&b, " (--%s)", st.name)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// settingOf returns the setting of the config key key, nil for none.
func settingOf(key string) *setting {
	for i := range settings {
		if settings[i].Key() == key {
			return &settings[i]
		}
	}
	return nil
}

// checkKey refuses a key that a profile of the config file may not hold.
func checkKey(key string) error {
	if st := settingOf(key); st != nil && st.in&fromFile != 0 {
		return nil
	}
	return invalidf("unknown config key %q; the keys are %s", key, strings.Join(Keys(), ", "))
}

// RegisterFlags adds the global flags that Resolve reads to fs, normally the
// root command's persistent flags.
func RegisterFlags(fs *pflag.FlagSet) {
	for _, st := range settings {
		if st.in&fromFlag == 0 {
			continue
		}
		usage := st.usage
		if st.Env() != "" {
			usage += " (env " + st.Env() + ")"
		}
		// The field a setting fills says by its type what the flag takes;
		// profile and config fill none and take text.
		var field any = new(string)
		if st.field != nil {
			field = st.field(&Settings{})
		}
		switch field.(type) {
		case *bool:
			fs.BoolP(st.name, st.short, false, usage)
		case *time.Duration:
			d, _ := time.ParseDuration(st.def)
			fs.DurationP(st.name, st.short, d, usage)
		case *[]Header:
			fs.StringArrayP(st.name, st.short, nil, usage)
		default:
			fs.StringP(st.name, st.short, st.def, usage)
		}
	}
}

// parses turns parse into the check of a setting: it accepts what parse
// reads, such as the base address client.CheckBaseURL takes for url.
func parses[T any](parse func(string) (T, error)) func(string) error {
	return func(v string) error {
		_, err := parse(v)
		return err
	}
}

// checkFormat accepts the names of the output formats.
func checkFormat(v string) error {
	if !slices.Contains(output.Formats, v) {
		return fmt.Errorf("output format %q is not one of %s", v, strings.Join(output.Formats, ", "))
	}
	return nil
}

// noControl refuses a value holding a control character, such as the
// newline that ends a file the value was read from.
func noControl(v string) error {
	if strings.ContainsAny(v, "\r\n") {
		return errors.New("it contains a line break (a trailing newline from a file?)")
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return errors.New("it contains a control character")
	}
	return nil
}

// parseTimeout reads a positive duration such as 30s or 2m.
func parseTimeout(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 30s or 2m", v)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q is not a positive duration", v)
	}
	return d, nil
}

// parseBool reads 1, true, yes or on, and 0, false, no or off, in any case.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false (1/true/yes/on, 0/false/no/off)", v)
}

// sizeUnits are the units a size may have, in any case: SI and binary.
var sizeUnits = map[string]int64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}

// parseSize reads a size such as 256MiB, 10MB or 1048576 (bytes).
func parseSize(v string) (int64, error) {
	digits := strings.TrimRightFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	n, err := strconv.ParseInt(digits, 10, 64)
	unit, ok := sizeUnits[strings.ToLower(strings.TrimSpace(v[len(digits):]))]
	if err != nil || !ok || n <= 0 || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is not a size such as 256MiB, 10MB or 1048576", v)
	}
	return n * unit, nil
}

// Header is one extra request header, given as "Name: value".
type Header struct {
	Name, Value string
}

// String returns the header as "Name: value".
func (h Header) String() string { return h.Name + ": " + h.Value }

// ParseHeader parses "Name: value", checked as the client checks a header.
// Its messages name the header but never repeat its value.
func ParseHeader(s string) (Header, error) {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return Header{}, errors.New(`want "Name: value", found no ':'`)
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if name == "" {
		return Header{}, errors.New(`want "Name: value", the name is empty`)
	}
	return Header{Name: name, Value: value}, client.CheckHeader(name, value)
}

// checkProfileName accepts the names a profile may be given.
func checkProfileName(name string) error {
	if name == "" {
		return invalidf("profile name is empty")
	}
	if strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == '/' }) >= 0 {
		return invalidf("profile name %q may not contain whitespace, control characters or '/'", name)
	}
	return nil
}
