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
)

// ErrInvalid is wrapped by every error about a bad config key, value, flag
// value or config file; the command layer reports those as usage errors.
var ErrInvalid = errors.New("invalid configuration")

// invalidError carries a message of its own while matching ErrInvalid and,
// when there is one, the error that caused it.
type invalidError struct {
	msg   string
	cause error
}

func (e *invalidError) Error() string { return e.msg }

func (e *invalidError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrInvalid}
	}
	return []error{ErrInvalid, e.cause}
}

func invalidf(format string, args ...any) error {
	return &invalidError{msg: fmt.Sprintf(format, args...)}
}

// The keys of a profile in the config file.
const (
	keyURL                   = "url"
	keyToken                 = "token"
	keyServiceAccount        = "service_account"
	keyServiceKey            = "service_key"
	keyHeaders               = "headers"
	keyOutput                = "output"
	keyTimeout               = "timeout"
	keyInsecureSkipTLSVerify = "insecure_skip_tls_verify"
	keyCACert                = "ca_cert"
)

// profileKeys lists the keys of a profile in the order the file and error
// messages show them. It is never modified.
var profileKeys = [...]string{
	keyURL, keyToken, keyServiceAccount, keyServiceKey, keyHeaders,
	keyOutput, keyTimeout, keyInsecureSkipTLSVerify, keyCACert,
}

// Keys returns the keys a profile of the config file may hold.
func Keys() []string { return slices.Clone(profileKeys[:]) }

// IsSecret reports whether the values of a profile key are credentials that
// are masked when shown: token, service_key, and the values of headers.
func IsSecret(key string) bool {
	switch key {
	case keyToken, keyServiceKey, keyHeaders:
		return true
	}
	return false
}

// ParseSize reads a size in bytes: 1048576, 10KB, 10MB, 256MiB, 1GiB.
func ParseSize(s string) (int64, error) {
	num := strings.TrimRightFunc(s, unicode.IsLetter)
	mult, ok := map[string]int64{"": 1, "b": 1, "kb": 1e3, "kib": 1 << 10, "mb": 1e6, "mib": 1 << 20, "gb": 1e9, "gib": 1 << 30}[strings.ToLower(s[len(num):])]
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if !ok || err != nil || n <= 0 || n > math.MaxInt64/mult {
		return 0, invalidf("size %q: want a positive number of bytes, such as 1048576, 10MB or 256MiB", s)
	}
	return n * mult, nil
}

// secretMask is what a secret value is shown as.
const secretMask = "********"

func isKey(key string) bool {
	for _, k := range profileKeys {
		if k == key {
			return true
		}
	}
	return false
}

func checkKey(key string) error {
	if isKey(key) {
		return nil
	}
	return invalidf("unknown config key %q; the keys are %s", key, strings.Join(profileKeys[:], ", "))
}

// outputFormats are the values of --output, in the order help text lists them.
var outputFormats = [...]string{"table", "json", "yaml", "name", "wide"}

func checkOutput(v string) error {
	for _, f := range outputFormats {
		if v == f {
			return nil
		}
	}
	return fmt.Errorf("output format %q is not one of %s", v, strings.Join(outputFormats[:], ", "))
}

// checkURL accepts an absolute http or https address with a host. Its
// messages never repeat the value, which may carry credentials.
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
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("the URL must start with http:// or https://")
	}
	if u.Host == "" || u.Hostname() == "" {
		return errors.New("the URL has no host")
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

// checkCredential refuses a token or key that would break the request it is
// sent in. Its messages never repeat the value.
func checkCredential(v string) error {
	if i := strings.IndexFunc(v, unicode.IsControl); i >= 0 {
		if v[i] == '\n' || v[i] == '\r' {
			return errors.New("it contains a line break (a trailing newline from a file?)")
		}
		return errors.New("it contains a control character")
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

// parseHeader parses "Name: value". The name must be an HTTP token; the value
// may be empty but holds no line breaks or other control characters but tab.
// Its messages name the header but never repeat its value.
func parseHeader(s string) (Header, error) {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return Header{}, errors.New(`want "Name: value", found no ':'`)
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return Header{}, errors.New(`want "Name: value", the name is empty`)
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			return Header{}, fmt.Errorf("header name %q is not a valid HTTP header name", name)
		}
	}
	value = strings.TrimSpace(value)
	for _, r := range value {
		if unicode.IsControl(r) && r != '\t' {
			return Header{}, fmt.Errorf("the value of header %s contains a control character", name)
		}
	}
	return Header{Name: name, Value: value}, nil
}

// isTokenChar reports whether c may appear in an HTTP header name (RFC 9110 tchar).
func isTokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// checkProfileName accepts the names a profile may be given.
func checkProfileName(name string) error {
	if name == "" {
		return invalidf("profile name is empty")
	}
	for _, r := range name {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '/' {
			return invalidf("profile name %q may not contain whitespace, control characters or '/'", name)
		}
	}
	return nil
}
