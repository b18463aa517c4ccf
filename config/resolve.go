package config

import (
	"bytes"
	"cmp"
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

	"github.com/gofrs/flock"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/safefile"
)

// Settings is the resolved configuration a command runs with.
type Settings struct {
	URL            string
	Token          string
	ServiceAccount string
	ServiceKey     string
	// WorkloadIdentity is the email of a workload identity, whose OIDC token
	// comes from OIDCTokenFile, else OIDCToken, else GitHub Actions, asked
	// for OIDCAudience.
	WorkloadIdentity string
	OIDCTokenFile    string
	OIDCToken        string
	OIDCAudience     string
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
	// ServerVersion is the service's release as the user says it; "" to ask.
	ServerVersion string
	// SummaryFile is where the Markdown of the result is appended; "" for nowhere.
	SummaryFile string
	// Debug is set by --debug or DBGOV_DEBUG=1 (or true).
	Debug bool
	// NoTokenCache is set by DBGOV_NO_TOKEN_CACHE=1 (or true).
	NoTokenCache bool
	// Profile is the profile in use, whether or not the file has it.
	Profile string
	// ProfileURL is the profile's url, whatever else set the URL: the one
	// a credential stored in the profile goes to.
	ProfileURL string
	// Path is the config file consulted, whether or not it exists; "" when
	// no path could be found (no HOME).
	Path string
	// Warnings are problems worth telling that do not stop the command,
	// such as a config file readable by others.
	Warnings []string
	// Notices are worth telling a person at a terminal only: an environment
	// variable overriding a value of the profile.
	Notices []string
	// from says where each setting, by key, came from.
	from map[string]origin
}

// origin is where a setting came from: its kind ("flag", "environment",
// "profile", "default"), and for messages the flag, variable or file line.
type origin struct{ kind, where string }

// Source says where the setting of key came from: "flag", "environment",
// "profile" or "default".
func (s *Settings) Source(key string) string {
	return cmp.Or(s.from[key].kind, "default")
}

// defaultPath returns where the config file is when neither --config nor
// DBGOV_CONFIG says: $XDG_CONFIG_HOME/dbgov/config.yaml when that variable
// holds an absolute path, else ~/.config/dbgov/config.yaml, the home being
// $HOME, else (on Windows) $USERPROFILE; "" when neither that variable nor a
// home is set.
func defaultPath(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "dbgov", "config.yaml")
	}
	home := getenv("HOME")
	if home == "" && runtime.GOOS == "windows" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "dbgov", "config.yaml")
}

// sources are where settings come from: the flags the user set, the
// environment, and the profile in use of the config file.
type sources struct {
	flags   *pflag.FlagSet // nil for none
	getenv  func(string) string
	file    *File
	profile string
	entries map[string]*yaml.Node // the profile's settings
	// skipUnsafe makes load take an unsafe config file (a link, another
	// user's, or writable by others) for an absent one instead of failing;
	// skipped then says why it was skipped.
	skipUnsafe bool
	skipped    string
}

// newSources returns the sources of fs and getenv, nil getenv meaning the
// process's environment; load reads the file.
func newSources(fs *pflag.FlagSet, getenv func(string) string) *sources {
	if getenv == nil {
		getenv = os.Getenv
	}
	return &sources{flags: fs, getenv: getenv}
}

// flagValues returns the values of the flag of st when the user set it (a
// repeatable flag may have several), nil otherwise.
func (s *sources) flagValues(st *setting) []string {
	var fl *pflag.Flag
	if s.flags != nil {
		fl = s.flags.Lookup(st.name)
	}
	if fl == nil || !fl.Changed {
		return nil
	}
	if list, err := s.flags.GetStringArray(st.name); err == nil {
		return list
	}
	return []string{fl.Value.String()}
}

// given returns the value a flag the user set or else the environment gives
// key, and its source ("" when neither does).
func (s *sources) given(key string) (value, from string) {
	st := settingOf(key)
	if values := s.flagValues(st); values != nil {
		return values[len(values)-1], "--" + st.name
	}
	if env := st.Env(); env != "" && s.getenv(env) != "" {
		return s.getenv(env), env
	}
	return "", ""
}

// Given returns the value the flags in fs (when the user set it) or else
// the environment give the setting of key, "" when neither does.
func Given(fs *pflag.FlagSet, getenv func(string) string, key string) string {
	v, _ := newSources(fs, getenv).given(key)
	return v
}

// lookup returns the values of st from the first source that gives it, and
// that source. The values of a file's ca_cert are taken relative to it.
func (s *sources) lookup(st *setting) ([]string, origin, error) {
	key := st.Key()
	if values := s.flagValues(st); values != nil {
		return values, origin{"flag", "--" + st.name}, nil
	}
	if v, from := s.given(key); from != "" {
		return []string{v}, origin{"environment", from}, nil
	}
	n := s.entries[key]
	if n == nil || st.in&fromFile == 0 {
		return strings.Fields(st.def), origin{"default", "the default"}, nil
	}
	values, err := s.file.values(s.profile, key, n)
	if key == "ca_cert" && err == nil && !filepath.IsAbs(values[0]) {
		values[0] = filepath.Join(filepath.Dir(s.file.Path()), values[0])
	}
	return values, origin{"profile", s.source(key)}, err
}

// path returns the config file's path: --config, else DBGOV_CONFIG, else
// defaultPath; "" when there is none (no HOME), which only saving needs.
func (s *sources) path() (string, error) {
	v, from := s.given("config")
	if from != "" && v == "" {
		return "", invalidf("--config: the path is empty")
	}
	return cmp.Or(v, defaultPath(s.getenv)), nil
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
	v, from := s.given("profile")
	if from != "" && v == "" {
		return invalidf("--profile: the profile name is empty")
	}
	s.profile = cmp.Or(v, s.file.current(), defaultProfile)
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
	if key == "profile" && s.file.current() != "" {
		return "current_profile of config file " + s.file.Path()
	}
	return "the default"
}

// Open loads the config file of --config, DBGOV_CONFIG or defaultPath and
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
	before, err := encode(s.file.doc)
	if err == nil {
		err = change(s.file, s.profile)
	}
	if err != nil {
		return err
	}
	if after, err := encode(s.file.doc); err != nil || bytes.Equal(before, after) {
		return err
	}
	return s.file.save()
}

// lockWait bounds how long Edit waits for another run's lock.
const lockWait = 10 * time.Second

// lock takes the lock of the config file at path, a file beside it (the
// file itself is replaced on each write) that is never a link, and returns
// how to release it.
func lock(ctx context.Context, path string) (func(), error) {
	if err := safefile.MkdirAll(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("create config directory: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	l := flock.New(path+".lock", flock.SetFlag(os.O_CREATE|os.O_RDWR|safefile.NoFollow))
	if ok, err := l.TryLockContext(ctx, 10*time.Millisecond); !ok {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("config file %s is locked by another dbgov run (%s)", path, l.Path())
		}
		return nil, fmt.Errorf("lock config file %s: %w", path, safefile.Explain(l.Path(), err))
	}
	return func() { _ = l.Close() }, nil
}

// Resolve returns the settings a command runs with, each from the first of:
// the flags set in fs, the environment (through getenv; nil: the process's),
// the profile, the default. A bad value is an ErrInvalid error naming its
// source, never a secret, returned with the settings read so far to mask.
//
// It reads the table itself rather than through viper: viper reads only the
// process's environment, cannot say where a value came from, and knows
// nothing of profiles or the file's lines, all of which dbgov needs.
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
	warnings, err := s.checkEntries()
	if err != nil {
		return nil, err
	}
	set := &Settings{Profile: s.profile, Path: s.file.Path(), from: map[string]origin{}}
	for i := range settings {
		st := &settings[i]
		if st.field == nil {
			continue
		}
		key := st.Key()
		values, from, err := s.lookup(st)
		if err == nil && len(values) > 0 {
			set.from[key] = from
			err = st.set(set, values)
		}
		if err != nil && key == "url" {
			err = schemeHint(err, strings.Join(values, ""), st.Env(), from.kind)
		}
		if err != nil {
			return set, invalidf("%s from %s: %v", key, from.where, err)
		}
		n := s.entries[key] // the profile's own value
		if n == nil {
			continue
		}
		if key == "url" {
			set.ProfileURL = n.Value
		}
		if from.kind == "environment" && n.Value != values[0] {
			set.Notices = append(set.Notices, fmt.Sprintf("%s overrides the %s of profile %s in %s", from.where, key, s.profile, set.Path))
		}
	}
	if set.Output == "table" {
		set.Output = ""
	}
	if s.skipped != "" {
		warnings = append(warnings, s.skipped)
	}
	set.Warnings = append(warnings, s.file.strayKeys()...)
	if s.file.exists && !s.file.hasProfile(s.profile) && s.source("profile") != "the default" {
		set.Warnings = append(set.Warnings, fmt.Sprintf("profile %q (from %s) is not in config file %s", s.profile, s.source("profile"), set.Path))
	}
	if s.file.exists && runtime.GOOS != "windows" && s.file.perm&0o077 != 0 {
		set.Warnings = append(set.Warnings, fmt.Sprintf("config file %s is readable by others; run chmod 600 %s", set.Path, shellQuote(set.Path)))
	}
	return set, nil
}

// schemeHint adds to err, the error of the url v given by a source of kind
// ("flag", "environment" or "profile"), how to give it with http:// when v
// looks like a host without a scheme: no '/', '@' or control character.
// env is the url's environment variable.
func schemeHint(err error, v, env, kind string) error {
	if strings.ContainsAny(v, "/@") || noControl(v) != nil {
		return err
	}
	giveURL := map[string]string{"flag": "--url ", "environment": env + "=", "profile": "dbgov config set url "}
	return fmt.Errorf("%w; give %s", err, giveURL[kind]+"http://"+v)
}

// checkEntries checks that the profile's settings are of the shape of
// their keys (a list for a URL is a broken file, refused even when a flag
// overrides it; a bad value of the right shape only when it is used), and
// warns of keys this version does not know.
func (s *sources) checkEntries() ([]string, error) {
	var warnings []string
	byLine := func(a, b string) int { return s.entries[a].Line - s.entries[b].Line }
	for _, key := range slices.SortedFunc(maps.Keys(s.entries), byLine) {
		n := s.entries[key]
		if checkKey(key) != nil {
			warnings = append(warnings, fmt.Sprintf("config file %s, line %d: unknown key %q in profile %q is ignored; the keys are %s",
				s.file.Path(), n.Line, key, s.profile, strings.Join(Keys(), ", ")))
		} else if _, err := s.file.values(s.profile, key, n); err != nil {
			return nil, err
		}
	}
	return warnings, nil
}

// shellQuote quotes a path for a command the user may paste.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
