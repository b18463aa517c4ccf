package config

import (
	"time"

	"github.com/spf13/pflag"
)

// The global flags, by name.
const (
	flagURL                   = "url"
	flagToken                 = "token"
	flagServiceAccount        = "service-account"
	flagServiceKey            = "service-key"
	flagHeader                = "header"
	flagProfile               = "profile"
	flagConfig                = "config"
	flagOutput                = "output"
	flagTimeout               = "timeout"
	flagInsecureSkipTLSVerify = "insecure-skip-tls-verify"
	flagCACert                = "ca-cert"
	flagDebug                 = "debug"
	flagMaxResponseSize       = "max-response-size"
)

// defaultTimeout is the per-request time limit when nothing sets one.
const defaultTimeout = 30 * time.Second

// RegisterFlags adds the global flags that Resolve reads to fs, normally the
// root command's persistent flags.
func RegisterFlags(fs *pflag.FlagSet) {
	fs.String(flagURL, "", "service base address, e.g. https://gov.example.com (env DBGOV_URL)")
	fs.String(flagToken, "", "bearer token (env DBGOV_TOKEN)")
	fs.String(flagServiceAccount, "", "log in as this service account EMAIL (env DBGOV_SERVICE_ACCOUNT)")
	fs.String(flagServiceKey, "", "key of the service account; a token, when set, wins (env DBGOV_SERVICE_KEY)")
	fs.StringArray(flagHeader, nil, `extra request header "Name: value", e.g. for an access proxy (repeatable)`)
	fs.String(flagProfile, "", `profile of the config file (env DBGOV_PROFILE; default: the file's current_profile, else "default")`)
	fs.String(flagConfig, "", "config file (env DBGOV_CONFIG; default $XDG_CONFIG_HOME/dbgov/config.yaml, else ~/.config/dbgov/config.yaml)")
	fs.StringP(flagOutput, "o", "table", "output format: table, json, yaml, name or wide (env DBGOV_OUTPUT)")
	fs.Duration(flagTimeout, defaultTimeout, "per-request time limit (env DBGOV_TIMEOUT)")
	fs.Bool(flagInsecureSkipTLSVerify, false, "do not verify the server's certificate (insecure)")
	fs.String(flagCACert, "", "FILE of extra CA certificates (PEM) to trust")
	fs.Bool(flagDebug, false, "log each HTTP exchange to stderr, credentials redacted (env DBGOV_DEBUG=1)")
	fs.String(flagMaxResponseSize, "256MiB", "largest `size` of an answer, once decompressed: 1048576, 10MB, 256MiB (env DBGOV_MAX_RESPONSE_SIZE)")
}

// MaxResponseSize returns --max-response-size, else DBGOV_MAX_RESPONSE_SIZE,
// in bytes; 0 when neither is set.
func MaxResponseSize(fs *pflag.FlagSet, getenv func(string) string) (int64, error) {
	v := getenv("DBGOV_MAX_RESPONSE_SIZE")
	if fs != nil && fs.Lookup(flagMaxResponseSize) != nil && (fs.Changed(flagMaxResponseSize) || v == "") {
		v = fs.Lookup(flagMaxResponseSize).Value.String()
	}
	if v == "" {
		return 0, nil
	}
	return ParseSize(v)
}
