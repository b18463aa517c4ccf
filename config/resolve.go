package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/safefile"
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
	// MaxResponseSize is the largest answer read, in bytes.
	MaxResponseSize int64
	// Debug is set by --debug or DBGOV_DEBUG=1 (or true).
	Debug bool
	// Profile is the profile in use, whether or not the file has it.
	Profile string
	// Path is the config file consulted, whether or not it exists; "" when
	// no path could be found (no HOME).
	Path string
	// Warnings are problems worth telling that do not stop the command,
	// such as a config file readable by others.
	Warnings []string
	// Notices are worth telling a person at a terminal only: an environment
	// variable overriding the profile's url or token.
	Notices []string
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

// sources are where settings come from: the flags the user set, the
// environment, and the profile in use of the config file.
type sources struct {
	flags   *pflag.FlagSet // nil for none
	getenv  func(string) string
	file    *File
	profile string
	entries map[string]*yaml.Node // the profile's settings
	// skipUnsafe has a config file dbgov would not have made read as
	// absent, saying so in skipped, instead of failing.
	skipUnsafe bool
	skipped    string
}

func newSources(fs *pflag.FlagSet, getenv func(string) string) *sources {
	if getenv == nil {
		getenv = os.Getenv
	}
	return &sources{flags: fs, getenv: getenv}
}

// given returns the value a flag the user set or else the environment gives
// key, and its source ("" when neither does).
func (s *sources) given(key string) (value, from string) {
	b := settingOf(key)
	if s.flags != nil {
		if fl := s.flags.Lookup(b.flag); fl != nil && fl.Changed {
			return fl.Value.String(), "--" + b.flag
		}
	}
	if b.env != "" && s.getenv(b.env) != "" {
		return s.getenv(b.env), b.env
	}
	return "", ""
}

// path returns the config file's path: --config, else DBGOV_CONFIG, else
// DefaultPath; "" when there is none (no HOME), which only saving needs.
func (s *sources) path() (string, error) {
	v, from := s.given(keyConfig)
	if from != "" && v == "" {
		return "", invalidf("--config: the path is empty")
	}
	if v == "" {
		v, _ = DefaultPath(s.getenv)
	}
	return v, nil
}

// load reads the config file and names the profile in use: --profile, else
// DBGOV_PROFILE, else the file's current_profile, else "default".
func (s *sources) load() error {
	path, err := s.path()
	if err != nil {
		return err
	}
	var unsafe *safefile.UnsafeError
	if s.file, err = Load(path); errors.As(err, &unsafe) && s.skipUnsafe {
		s.file, s.skipped = &File{path: path}, err.Error()
	} else if err != nil {
		return err
	}
	v, from := s.given(keyProfile)
	switch {
	case from != "" && v == "":
		return invalidf("--profile: the profile name is empty")
	case v != "":
		s.profile = v
	case s.file.current() != "":
		s.profile = s.file.current()
	default:
		s.profile = defaultProfile
	}
	return nil
}

// source says where the value of a setting came from, for messages.
func (s *sources) source(key string) string {
	if _, from := s.given(key); from != "" {
		return from
	}
	if n := s.entries[key]; n != nil {
		return fmt.Sprintf("profile %q of config file %s, line %d", s.profile, s.file.Path(), n.Line)
	}
	if key == keyProfile && s.file.current() != "" {
		return "current_profile of config file " + s.file.Path()
	}
	return "the default"
}

// Open loads the config file of --config, DBGOV_CONFIG or DefaultPath and
// names the profile in use, checking no setting, so that the `config`
// commands can still show a bad value. fs and getenv may be nil.
func Open(fs *pflag.FlagSet, getenv func(string) string) (*File, string, error) {
	s := newSources(fs, getenv)
	if err := s.load(); err != nil {
		return nil, "", err
	}
	return s.file, s.profile, nil
}

// Edit applies change to the file and profile Open would give, and saves the
// file if it changed, holding its lock throughout so no edit is lost.
func Edit(ctx context.Context, fs *pflag.FlagSet, getenv func(string) string, change func(f *File, profile string) error) error {
	s := newSources(fs, getenv)
	path, err := s.path()
	if err != nil {
		return err
	}
	if path == "" {
		return invalidf("no config file path: set --config or DBGOV_CONFIG (HOME is not set)")
	}
	unlock, err := lock(ctx, path)
	if err != nil {
		return err
	}
	defer unlock()
	if err := s.load(); err != nil {
		return err
	}
	before, err := s.file.text()
	if err == nil {
		err = change(s.file, s.profile)
	}
	if err != nil {
		return err
	}
	if after, err := s.file.text(); err != nil || bytes.Equal(before, after) {
		return err
	}
	return s.file.save()
}

// Resolve returns the settings a command runs with, each from the first of:
// the flags set in fs, the environment (through getenv; nil: the process's),
// the profile, the default. A bad value is an ErrInvalid error naming its
// source, never a secret, returned with the settings read so far to mask.
func Resolve(fs *pflag.FlagSet, getenv func(string) string) (*Settings, error) {
	s := newSources(fs, getenv)
	s.skipUnsafe = true
	err := s.load()
	if err == nil {
		s.entries, err = s.file.entries(s.profile)
	}
	if err != nil {
		return nil, err
	}
	fileValues, warnings, err := s.fileValues()
	if err != nil {
		return nil, err
	}
	// One viper holds the layers: the defaults, the profile's values with
	// the environment merged over them, and the flags. Its own environment
	// layer is not used: it reads the process's, not getenv.
	v := viper.New()
	v.SetDefault(keyTimeout, defaultTimeout.String())
	v.SetDefault(keyMaxResponseSize, defaultMaxResponseSize)
	env := map[string]any{}
	for _, b := range settings {
		if v, from := s.given(b.key); from == b.env && from != "" {
			env[b.key] = v
		}
	}
	if raw, ok := env[keyDebug].(string); ok {
		if env[keyDebug], err = parseBool(raw); err != nil {
			return nil, invalidf("DBGOV_DEBUG: %q is not 1/true or 0/false", raw)
		}
	}
	_ = v.MergeConfigMap(fileValues)
	_ = v.MergeConfigMap(env)
	if fs != nil {
		for _, b := range settings {
			if fl := fs.Lookup(b.flag); fl != nil {
				_ = v.BindPFlag(b.key, fl) // fails only for a nil flag
			}
		}
	}

	set := &Settings{
		InsecureSkipTLSVerify: v.GetBool(keyInsecure),
		Debug:                 v.GetBool(keyDebug),
		Profile:               s.profile,
		Path:                  s.file.Path(),
	}
	values := []struct {
		key string
		to  *string
	}{{keyURL, &set.URL}, {keyToken, &set.Token}, {keyServiceAccount, &set.ServiceAccount},
		{keyServiceKey, &set.ServiceKey}, {keyCACert, &set.CACert}, {keyOutput, &set.Output}}
	for _, f := range values {
		*f.to = v.GetString(f.key)
	}
	for _, f := range values {
		if err := check(f.key, *f.to); *f.to != "" && err != nil {
			return set, s.invalid(f.key, err)
		}
	}
	if set.Output == "table" {
		set.Output = ""
	}
	for i, raw := range v.GetStringSlice(keyHeaders) {
		h, err := ParseHeader(raw)
		if err != nil {
			return set, s.invalid(keyHeaders, fmt.Errorf("header %d: %w", i+1, err))
		}
		set.Headers = append(set.Headers, h)
	}
	if set.Timeout, err = parseTimeout(v.GetString(keyTimeout)); err != nil {
		return set, s.invalid(keyTimeout, err)
	}
	if set.MaxResponseSize, err = parseSize(v.GetString(keyMaxResponseSize)); err != nil {
		return set, s.invalid(keyMaxResponseSize, err)
	}

	if s.skipped != "" {
		warnings = append(warnings, s.skipped)
	}
	set.Warnings = append(warnings, s.file.strayKeys()...)
	if s.file.exists && !s.file.hasProfile(s.profile) && s.source(keyProfile) != "the default" {
		set.Warnings = append(set.Warnings, fmt.Sprintf("profile %q (from %s) is not in config file %s", s.profile, s.source(keyProfile), set.Path))
	}
	if s.file.exists && runtime.GOOS != "windows" && s.file.perm&0o077 != 0 {
		set.Warnings = append(set.Warnings, fmt.Sprintf("config file %s is readable by others; run chmod 600 %s", set.Path, shellQuote(set.Path)))
	}
	for _, key := range []string{keyURL, keyToken} {
		if _, from := s.given(key); strings.HasPrefix(from, "DBGOV_") && s.entries[key] != nil {
			set.Notices = append(set.Notices, fmt.Sprintf("%s overrides the %s of profile %s in %s", from, key, s.profile, set.Path))
		}
	}
	return set, nil
}

// invalid reports a bad value of a setting, naming where it came from.
func (s *sources) invalid(key string, err error) error {
	return invalidf("%s from %s: %v", key, s.source(key), err)
}

// fileValues turns the profile's settings into values for viper, checking
// their YAML types: a value of the wrong shape is a broken file, refused even
// when a flag overrides it, while a bad value of the right shape is refused
// only when it is used. Keys this version does not know become warnings.
func (s *sources) fileValues() (map[string]any, []string, error) {
	values := make(map[string]any, len(s.entries))
	var warnings []string
	byLine := func(a, b string) int { return s.entries[a].Line - s.entries[b].Line }
	for _, key := range slices.SortedFunc(maps.Keys(s.entries), byLine) {
		n := s.entries[key]
		if checkKey(key) != nil {
			warnings = append(warnings, fmt.Sprintf("config file %s, line %d: unknown key %q in profile %q is ignored; the keys are %s",
				s.file.Path(), n.Line, key, s.profile, strings.Join(Keys(), ", ")))
			continue
		}
		vals, err := s.file.values(s.profile, key, n)
		switch {
		case err != nil:
			return nil, nil, err
		case key == keyHeaders:
			values[key] = vals
		case key == keyInsecure:
			b, err := parseBool(vals[0])
			if err != nil {
				return nil, nil, s.file.lineErr(n, fmt.Sprintf("%s in profile %q: %v", key, s.profile, err))
			}
			values[key] = b
		case key == keyCACert && !filepath.IsAbs(vals[0]):
			values[key] = filepath.Join(filepath.Dir(s.file.Path()), vals[0])
		default:
			values[key] = vals[0]
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
