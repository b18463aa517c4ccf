package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/output"
)

// Settings is the resolved configuration a command runs with.
type Settings struct {
	URL            string
	Token          string
	ServiceAccount string
	ServiceKey     string
	// Headers are the extra request headers, parsed from "Name: value".
	Headers []Header
	// Output is the output format; "" means table.
	Output                string
	Timeout               time.Duration
	InsecureSkipTLSVerify bool
	// CACert is the extra CA bundle; a relative path from the config file
	// is taken relative to the file's directory.
	CACert string
	// Debug is set by --debug or DBGOV_DEBUG=1 (or true).
	Debug bool
	// Profile is the profile in use, whether or not the file has it.
	Profile string
	// Path is the config file consulted, whether or not it exists; "" when
	// no path could be found (no HOME).
	Path string
	// Warnings are problems worth telling the user that do not stop the
	// command, such as a config file readable by others.
	Warnings []string
}

// Keys of the settings that are not profile keys.
const (
	keyProfile = "profile"
	keyConfig  = "config"
	keyDebug   = "debug"
)

const defaultProfile = "default"

// binding ties a setting to its flag and environment variable.
type binding struct {
	key, flag, env string
}

// bindings lists every setting Resolve reads. It is never modified.
var bindings = [...]binding{
	{keyURL, flagURL, "DBGOV_URL"},
	{keyToken, flagToken, "DBGOV_TOKEN"},
	{keyServiceAccount, flagServiceAccount, "DBGOV_SERVICE_ACCOUNT"},
	{keyServiceKey, flagServiceKey, "DBGOV_SERVICE_KEY"},
	{keyHeaders, flagHeader, ""},
	{keyOutput, flagOutput, "DBGOV_OUTPUT"},
	{keyTimeout, flagTimeout, "DBGOV_TIMEOUT"},
	{keyInsecureSkipTLSVerify, flagInsecureSkipTLSVerify, ""},
	{keyCACert, flagCACert, ""},
	{keyProfile, flagProfile, "DBGOV_PROFILE"},
	{keyConfig, flagConfig, "DBGOV_CONFIG"},
	{keyDebug, flagDebug, "DBGOV_DEBUG"},
}

func bindingOf(key string) binding {
	for _, b := range bindings {
		if b.key == key {
			return b
		}
	}
	return binding{key: key}
}

// DefaultPath returns where the config file is when neither --config nor
// DBGOV_CONFIG says: $XDG_CONFIG_HOME/dbgov/config.yaml when that variable
// holds an absolute path, else ~/.config/dbgov/config.yaml. A nil getenv
// reads the process environment.
func DefaultPath(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "dbgov", "config.yaml"), nil
	}
	home := getenv("HOME")
	if home == "" && runtime.GOOS == "windows" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return "", errors.New("find the config file: neither XDG_CONFIG_HOME nor HOME is set; use --config or DBGOV_CONFIG")
	}
	return filepath.Join(home, ".config", "dbgov", "config.yaml"), nil
}

// resolution holds the sources of the settings while they are resolved.
type resolution struct {
	flags   *pflag.FlagSet
	env     map[string]any        // set environment variables, by setting key
	file    *File                 // the config file, maybe empty
	profile string                // the profile in use
	entries map[string]*yaml.Node // that profile's settings in the file
}

// Open loads the config file chosen by --config, else DBGOV_CONFIG, else
// DefaultPath, and names the profile chosen by --profile, else
// DBGOV_PROFILE, else the file's current_profile, else "default". It checks
// no setting, so the `config` commands can still repair a bad value. A nil
// fs means no flags; a nil getenv reads the process environment.
func Open(fs *pflag.FlagSet, getenv func(string) string) (*File, string, error) {
	r, err := open(fs, getenv)
	if err != nil {
		return nil, "", err
	}
	return r.file, r.profile, nil
}

func open(fs *pflag.FlagSet, getenv func(string) string) (*resolution, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	r := &resolution{flags: fs, env: make(map[string]any)}
	for _, b := range bindings {
		if b.env == "" {
			continue
		}
		if val := getenv(b.env); val != "" {
			r.env[b.key] = val
		}
	}

	// A missing HOME leaves no default path: flags and environment can
	// still carry everything, and only saving the file needs one.
	defaultPath, _ := DefaultPath(getenv)
	path := r.layers(nil, map[string]any{keyConfig: defaultPath}).GetString(keyConfig)
	if path == "" && r.flagChanged(keyConfig) {
		return nil, invalidf("--%s: the path is empty", flagConfig)
	}
	f, err := Load(path)
	if err != nil {
		return nil, err
	}
	r.file = f

	fileLayer := make(map[string]any)
	if cur := f.current(); cur != "" {
		fileLayer[keyProfile] = cur
	}
	r.profile = r.layers(fileLayer, map[string]any{keyProfile: defaultProfile}).GetString(keyProfile)
	if r.profile == "" {
		return nil, invalidf("--%s: the profile name is empty", flagProfile)
	}
	return r, nil
}

// layers returns a fresh viper holding, from the lowest layer up, the
// defaults, the file's values, the environment and the flags the user set.
//
// Viper's own environment layer reads the process environment, so the
// environment given to Resolve is merged over the file's values in viper's
// config layer instead: the merge order keeps the contract's precedence.
func (r *resolution) layers(file, defaults map[string]any) *viper.Viper {
	v := viper.New()
	for k, d := range defaults {
		v.SetDefault(k, d)
	}
	// MergeConfigMap may change the maps it is given.
	_ = v.MergeConfigMap(maps.Clone(file))
	_ = v.MergeConfigMap(maps.Clone(r.env))
	if r.flags != nil {
		for _, b := range bindings {
			if fl := r.flags.Lookup(b.flag); fl != nil {
				_ = v.BindPFlag(b.key, fl) // fails only for a nil flag
			}
		}
	}
	return v
}

func (r *resolution) flagChanged(key string) bool {
	if r.flags == nil {
		return false
	}
	fl := r.flags.Lookup(bindingOf(key).flag)
	return fl != nil && fl.Changed
}

// source says where the value of a setting came from, for messages.
func (r *resolution) source(key string) string {
	b := bindingOf(key)
	if r.flagChanged(key) {
		return "--" + b.flag
	}
	if _, ok := r.env[key]; ok {
		return b.env
	}
	if key == keyProfile && r.file.current() != "" {
		return fmt.Sprintf("current_profile of config file %s", r.file.Path())
	}
	if n := r.entries[key]; n != nil {
		return fmt.Sprintf("profile %q of config file %s, line %d", r.profile, r.file.Path(), n.Line)
	}
	return "the default"
}

// invalid reports a bad value of a setting, naming where it came from.
func (r *resolution) invalid(key string, err error) error {
	return invalidf("%s from %s: %v", key, r.source(key), err)
}

// Resolve returns the settings a command runs with, each from the first
// that has it of: the flags in fs the user set, the environment (read
// through getenv), the profile in the config file, the default. It reads
// them with viper; every value is then checked, and a bad one is an error
// wrapping ErrInvalid that names its source and never repeats a secret. A
// profile the file lacks contributes nothing. A nil fs means no flags; a nil
// getenv reads the process environment.
func Resolve(fs *pflag.FlagSet, getenv func(string) string) (*Settings, error) {
	r, err := open(fs, getenv)
	if err != nil {
		return nil, err
	}
	if raw, ok := r.env[keyDebug].(string); ok {
		debug, err := parseBool(raw)
		if err != nil {
			return nil, invalidf("DBGOV_DEBUG: %q is not 1/true or 0/false", raw)
		}
		r.env[keyDebug] = debug
	}
	if r.entries, err = r.file.entries(r.profile); err != nil {
		return nil, err
	}
	fileLayer, warnings, err := r.fileValues()
	if err != nil {
		return nil, err
	}
	v := r.layers(fileLayer, map[string]any{
		keyOutput:  output.Formats[0],
		keyTimeout: defaultTimeout.String(),
	})

	s := &Settings{
		URL:                   v.GetString(keyURL),
		Token:                 v.GetString(keyToken),
		ServiceAccount:        v.GetString(keyServiceAccount),
		ServiceKey:            v.GetString(keyServiceKey),
		Output:                v.GetString(keyOutput),
		InsecureSkipTLSVerify: v.GetBool(keyInsecureSkipTLSVerify),
		CACert:                v.GetString(keyCACert),
		Debug:                 v.GetBool(keyDebug),
		Profile:               r.profile,
		Path:                  r.file.Path(),
	}
	if s.URL != "" {
		if err := checkURL(s.URL); err != nil {
			return nil, r.invalid(keyURL, err)
		}
	}
	for _, key := range [...]string{keyToken, keyServiceKey} {
		if err := checkCredential(v.GetString(key)); err != nil {
			return nil, r.invalid(key, err)
		}
	}
	for _, key := range [...]string{keyServiceAccount, keyCACert} {
		if hasControl(v.GetString(key)) {
			return nil, r.invalid(key, errors.New("it contains a control character"))
		}
	}
	for i, raw := range v.GetStringSlice(keyHeaders) {
		h, err := parseHeader(raw)
		if err != nil {
			return nil, r.invalid(keyHeaders, fmt.Errorf("header %d: %w", i+1, err))
		}
		s.Headers = append(s.Headers, h)
	}
	if err := checkOutput(s.Output); err != nil {
		return nil, r.invalid(keyOutput, err)
	}
	if s.Output == output.Formats[0] {
		s.Output = ""
	}
	if s.Timeout, err = parseTimeout(v.GetString(keyTimeout)); err != nil {
		return nil, r.invalid(keyTimeout, err)
	}

	s.Warnings = append(s.Warnings, warnings...)
	s.Warnings = append(s.Warnings, r.file.strayKeys()...)
	if r.file.exists && !r.file.hasProfile(r.profile) && r.source(keyProfile) != "the default" {
		s.Warnings = append(s.Warnings, fmt.Sprintf("profile %q (from %s) is not in config file %s", r.profile, r.source(keyProfile), s.Path))
	}
	if r.file.exists && runtime.GOOS != "windows" && r.file.perm&0o077 != 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("config file %s is readable by others; run chmod 600 %s", s.Path, shellQuote(s.Path)))
	}
	return s, nil
}

// fileValues turns the profile's settings into values for viper, checking
// their YAML types: a value of the wrong shape is a broken file, refused even
// when a flag overrides it, while a bad value of the right shape is refused
// only when it is used. Keys this version does not know become warnings.
func (r *resolution) fileValues() (map[string]any, []string, error) {
	values := make(map[string]any, len(r.entries))
	var warnings []string
	keys := make([]string, 0, len(r.entries))
	for k := range r.entries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return r.entries[keys[i]].Line < r.entries[keys[j]].Line })
	for _, key := range keys {
		n := r.entries[key]
		switch {
		case !isKey(key):
			warnings = append(warnings, fmt.Sprintf("config file %s, line %d: unknown key %q in profile %q is ignored; the keys are %s",
				r.file.Path(), n.Line, key, r.profile, strings.Join(profileKeys[:], ", ")))
		case key == keyHeaders:
			list, err := r.file.headerList(n)
			if err != nil {
				return nil, nil, err
			}
			values[key] = list
		case n.Kind != yaml.ScalarNode:
			return nil, nil, r.file.lineErr(n, fmt.Sprintf("%s in profile %q is not a single value", key, r.profile))
		case key == keyInsecureSkipTLSVerify:
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, nil, r.file.lineErr(n, fmt.Sprintf("%s in profile %q: %q is not true or false", key, r.profile, n.Value))
			}
			values[key] = b
		case key == keyCACert && !filepath.IsAbs(n.Value):
			values[key] = filepath.Join(filepath.Dir(r.file.Path()), n.Value)
		default:
			values[key] = n.Value
		}
	}
	return values, warnings, nil
}

// shellQuote quotes a path for a command the user may paste.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
