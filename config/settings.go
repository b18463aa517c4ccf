// Package config resolves the settings dbgov runs with, from flags, the
// environment and a profile of the config file, and edits that file for the
// `dbgov config` commands.
package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"
	"golang.org/x/net/http/httpguts"

	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/output"
)

// ErrInvalid is matched by every error about a bad config key, value, flag
// value or config file; the command layer reports those as usage errors.
var ErrInvalid = exitcode.NewUsage(errors.New("invalid configuration"))

// invalidError carries a message of its own, and maybe its cause, while
// matching ErrInvalid.
type invalidError struct {
	msg   string
	cause error
}

func (e *invalidError) Error() string      { return e.msg }
func (e *invalidError) Unwrap() error      { return e.cause }
func (*invalidError) Is(target error) bool { return target == ErrInvalid }
func (*invalidError) ExitCode() int        { return exitcode.Usage }

func invalidf(format string, args ...any) error {
	return &invalidError{msg: fmt.Sprintf(format, args...)}
}

// setting ties a setting to its flag and environment variable; key is its
// key in a profile of the config file.
type setting struct{ key, flag, env string }

// settings lists every setting, the keys of a profile first, in the order
// the file and messages show them. It is never modified.
var settings = [...]setting{
	{keyURL, "url", "DBGOV_URL"},
	{keyToken, "token", "DBGOV_TOKEN"},
	{keyServiceAccount, "service-account", "DBGOV_SERVICE_ACCOUNT"},
	{keyServiceKey, "service-key", "DBGOV_SERVICE_KEY"},
	{keyHeaders, "header", ""},
	{keyOutput, "output", "DBGOV_OUTPUT"},
	{keyTimeout, "timeout", "DBGOV_TIMEOUT"},
	{keyInsecure, "insecure-skip-tls-verify", ""},
	{keyCACert, "ca-cert", ""},
	{keyMaxResponseSize, "max-response-size", "DBGOV_MAX_RESPONSE_SIZE"},
	{keyProfile, "profile", "DBGOV_PROFILE"},
	{keyConfig, "config", "DBGOV_CONFIG"},
	{keyDebug, "debug", "DBGOV_DEBUG"},
}

// numProfileKeys is how many of settings a profile may hold.
const numProfileKeys = 10

const (
	keyURL             = "url"
	keyToken           = "token"
	keyServiceAccount  = "service_account"
	keyServiceKey      = "service_key"
	keyHeaders         = "headers"
	keyOutput          = "output"
	keyTimeout         = "timeout"
	keyInsecure        = "insecure_skip_tls_verify"
	keyCACert          = "ca_cert"
	keyMaxResponseSize = "max_response_size"
	keyProfile         = "profile"
	keyConfig          = "config"
	keyDebug           = "debug"
)

// Defaults of the settings that have one.
const (
	defaultTimeout         = 30 * time.Second
	defaultMaxResponseSize = "256MiB"
	defaultProfile         = "default"
)

// Keys returns the keys a profile of the config file may hold.
func Keys() []string {
	keys := make([]string, numProfileKeys)
	for i, s := range settings[:numProfileKeys] {
		keys[i] = s.key
	}
	return keys
}

func settingOf(key string) setting {
	for _, s := range settings {
		if s.key == key {
			return s
		}
	}
	return setting{key: key}
}

func checkKey(key string) error {
	if slices.Contains(Keys(), key) {
		return nil
	}
	return invalidf("unknown config key %q; the keys are %s", key, strings.Join(Keys(), ", "))
}

// RegisterFlags adds the global flags that Resolve reads to fs, normally the
// root command's persistent flags.
func RegisterFlags(fs *pflag.FlagSet) {
	fs.String("url", "", "service base address, e.g. https://gov.example.com (env DBGOV_URL)")
	fs.String("token", "", "bearer token (env DBGOV_TOKEN)")
	fs.String("service-account", "", "log in as this service account EMAIL (env DBGOV_SERVICE_ACCOUNT)")
	fs.String("service-key", "", "key of the service account; a token, when set, wins (env DBGOV_SERVICE_KEY)")
	fs.StringArray("header", nil, `extra request header "Name: value", e.g. for an access proxy (repeatable)`)
	fs.String("profile", "", `profile of the config file (env DBGOV_PROFILE; default: the file's current_profile, else "default")`)
	fs.String("config", "", "config file (env DBGOV_CONFIG; default $XDG_CONFIG_HOME/dbgov/config.yaml, else ~/.config/dbgov/config.yaml)")
	last := len(output.Formats) - 1
	fs.StringP("output", "o", output.Formats[0], "output format: "+strings.Join(output.Formats[:last], ", ")+" or "+output.Formats[last]+" (env DBGOV_OUTPUT)")
	fs.Duration("timeout", defaultTimeout, "per-request time limit (env DBGOV_TIMEOUT)")
	fs.Bool("insecure-skip-tls-verify", false, "do not verify the server's certificate (insecure)")
	fs.String("ca-cert", "", "FILE of extra CA certificates (PEM) to trust")
	fs.String("max-response-size", defaultMaxResponseSize, "largest answer read, a `size` such as 256MiB, 10MB or 1048576 (env DBGOV_MAX_RESPONSE_SIZE)")
	fs.Bool("debug", false, "log each HTTP exchange to stderr, credentials redacted (env DBGOV_DEBUG=1)")
}

// check checks a value of key from any source (a flag, the environment, the
// file, `config set`). Its messages never repeat a value that may be secret.
func check(key, v string) error {
	switch key {
	case keyURL:
		return checkURL(v)
	case keyToken, keyServiceKey:
		return checkCredential(v, key == keyToken)
	case keyServiceAccount, keyCACert:
		if hasControl(v) {
			return errors.New("it contains a control character")
		}
	case keyHeaders:
		_, err := ParseHeader(v)
		return err
	case keyOutput:
		if !slices.Contains(output.Formats, v) {
			return fmt.Errorf("output format %q is not one of %s", v, strings.Join(output.Formats, ", "))
		}
	case keyTimeout:
		_, err := parseTimeout(v)
		return err
	case keyInsecure:
		_, err := parseBool(v)
		return err
	case keyMaxResponseSize:
		_, err := parseSize(v)
		return err
	}
	return nil
}

// checkURL accepts an absolute http or https address with a host, a port in
// range, and neither query nor fragment. Its messages never repeat the
// value, which may carry credentials.
func checkURL(v string) error {
	if hasControl(v) {
		return errors.New("the URL contains a control character")
	}
	u, err := url.Parse(v)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("not a valid URL: %v", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("the URL must start with http:// or https://")
	case u.Host == "" || u.Hostname() == "":
		return errors.New("the URL has no host")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(v, "#"):
		return errors.New("the URL may not hold a query (?) or a fragment (#); give the service's base address")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %s is out of range (1 to 65535)", p)
		}
	}
	return nil
}

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

func parseBool(v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", v)
	}
	return b, nil
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

// checkCredential refuses a token or key that would break the request it is
// sent in; a token, sent in a header, holds no space and is ASCII. Its
// messages never repeat the value.
func checkCredential(v string, header bool) error {
	for _, r := range v {
		switch {
		case r == '\n' || r == '\r':
			return errors.New("it contains a line break (a trailing newline from a file?)")
		case unicode.IsControl(r):
			return errors.New("it contains a control character")
		case header && unicode.IsSpace(r):
			return errors.New("it contains a space")
		case header && r > unicode.MaxASCII:
			return errors.New("it contains a character that is not ASCII")
		}
	}
	return nil
}

func hasControl(v string) bool {
	return strings.IndexFunc(v, unicode.IsControl) >= 0
}

// Header is one extra request header, given as "Name: value".
type Header struct {
	Name, Value string
}

// String returns the header as "Name: value".
func (h Header) String() string { return h.Name + ": " + h.Value }

// ParseHeader parses "Name: value". The name must be an HTTP token; the value
// may be empty but holds no line breaks or other control characters but tab.
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
	if !httpguts.ValidHeaderFieldName(name) {
		return Header{}, fmt.Errorf("header name %q is not a valid HTTP header name", name)
	}
	if strings.IndexFunc(value, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) >= 0 {
		return Header{}, fmt.Errorf("the value of header %s contains a control character", name)
	}
	return Header{Name: name, Value: value}, nil
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
