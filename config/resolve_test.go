package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgov/dbgov/client"
)

// parseFlags registers the global flags on a new set and parses args.
func parseFlags(t *testing.T, args ...string) *pflag.FlagSet {
	t.Helper()
	fs := pflag.NewFlagSet("dbgov", pflag.ContinueOnError)
	RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return fs
}

// envOf returns a getenv reading only m.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// writeFile writes content to dir/name with mode perm and returns its path.
func writeFile(t *testing.T, dir, name, content string, perm os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
	return path
}

// withConfig returns an environment whose DBGOV_CONFIG names path, plus env.
func withConfig(path string, env map[string]string) map[string]string {
	m := map[string]string{"DBGOV_CONFIG": path}
	for k, v := range env {
		m[k] = v
	}
	return m
}

func TestResolve_precedenceForEveryKey(t *testing.T) {
	type layer struct {
		args []string // flags setting the key
		env  map[string]string
		file string // the key's line in the profile
	}
	cases := []struct {
		key                              string
		flag                             []string
		env                              map[string]string
		file                             string
		get                              func(*Settings) any
		byDefault, byFile, byEnv, byFlag any
	}{
		{
			key: "url", flag: []string{"--url", "https://flag.example"},
			env: map[string]string{"DBGOV_URL": "https://env.example"}, file: "url: https://file.example",
			get:       func(s *Settings) any { return s.URL },
			byDefault: "", byFile: "https://file.example", byEnv: "https://env.example", byFlag: "https://flag.example",
		},
		{
			key: "token", flag: []string{"--token", "flag-token"},
			env: map[string]string{"DBGOV_TOKEN": "env-token"}, file: "token: file-token",
			get:       func(s *Settings) any { return s.Token },
			byDefault: "", byFile: "file-token", byEnv: "env-token", byFlag: "flag-token",
		},
		{
			key: "service_account", flag: []string{"--service-account", "flag@example.com"},
			env: map[string]string{"DBGOV_SERVICE_ACCOUNT": "env@example.com"}, file: "service_account: file@example.com",
			get:       func(s *Settings) any { return s.ServiceAccount },
			byDefault: "", byFile: "file@example.com", byEnv: "env@example.com", byFlag: "flag@example.com",
		},
		{
			key: "service_key", flag: []string{"--service-key", "flag-key"},
			env: map[string]string{"DBGOV_SERVICE_KEY": "env-key"}, file: "service_key: file-key",
			get:       func(s *Settings) any { return s.ServiceKey },
			byDefault: "", byFile: "file-key", byEnv: "env-key", byFlag: "flag-key",
		},
		{
			key:       "headers",
			flag:      []string{"--header", "X-Flag: one, two", "--header", `X-Quote: say "hi"`},
			file:      `headers: ["X-File: a", "X-Other:b"]`,
			get:       func(s *Settings) any { return s.Headers },
			byDefault: []Header(nil),
			byFile:    []Header{{"X-File", "a"}, {"X-Other", "b"}},
			byFlag:    []Header{{"X-Flag", "one, two"}, {"X-Quote", `say "hi"`}},
		},
		{
			key: "output", flag: []string{"-o", "json"},
			env: map[string]string{"DBGOV_OUTPUT": "yaml"}, file: "output: name",
			get:       func(s *Settings) any { return s.Output },
			byDefault: "", byFile: "name", byEnv: "yaml", byFlag: "json",
		},
		{
			key: "timeout", flag: []string{"--timeout", "10s"},
			env: map[string]string{"DBGOV_TIMEOUT": "1m"}, file: "timeout: 45s",
			get:       func(s *Settings) any { return s.Timeout },
			byDefault: 30 * time.Second, byFile: 45 * time.Second, byEnv: time.Minute, byFlag: 10 * time.Second,
		},
		{
			// An explicit false on the command line beats true in the file.
			key: "insecure_skip_tls_verify", flag: []string{"--insecure-skip-tls-verify=false"},
			file:      "insecure_skip_tls_verify: true",
			get:       func(s *Settings) any { return s.InsecureSkipTLSVerify },
			byDefault: false, byFile: true, byFlag: false,
		},
		{
			key: "ca_cert", flag: []string{"--ca-cert", "/flag/ca.pem"},
			file:      "ca_cert: /file/ca.pem",
			get:       func(s *Settings) any { return s.CACert },
			byDefault: "", byFile: "/file/ca.pem", byFlag: "/flag/ca.pem",
		},
		{
			key: "max_response_size", flag: []string{"--max-response-size", "1MiB"},
			env: map[string]string{"DBGOV_MAX_RESPONSE_SIZE": "10MB"}, file: "max_response_size: 1048576",
			get:       func(s *Settings) any { return s.MaxResponseSize },
			byDefault: int64(256 << 20), byFile: int64(1 << 20), byEnv: int64(10_000_000), byFlag: int64(1 << 20),
		},
		{
			key: "debug", flag: []string{"--debug=false"},
			env:       map[string]string{"DBGOV_DEBUG": "1"},
			get:       func(s *Settings) any { return s.Debug },
			byDefault: false, byEnv: true, byFlag: false,
		},
	}
	for _, tc := range cases {
		layers := []struct {
			name string
			l    layer
			want any
		}{{"default", layer{}, tc.byDefault}}
		if tc.file != "" {
			layers = append(layers, struct {
				name string
				l    layer
				want any
			}{"file", layer{file: tc.file}, tc.byFile})
		}
		if tc.env != nil {
			layers = append(layers, struct {
				name string
				l    layer
				want any
			}{"env over file", layer{env: tc.env, file: tc.file}, tc.byEnv})
		}
		layers = append(layers, struct {
			name string
			l    layer
			want any
		}{"flag over env and file", layer{args: tc.flag, env: tc.env, file: tc.file}, tc.byFlag})

		for _, l := range layers {
			t.Run(tc.key+"/"+l.name, func(t *testing.T) {
				dir := t.TempDir()
				path := writeFile(t, dir, "config.yaml", "profiles:\n  default:\n    "+l.l.file+"\n", 0o600)
				s, err := Resolve(parseFlags(t, l.l.args...), envOf(withConfig(path, l.l.env)))
				if err != nil {
					t.Fatalf("Resolve: %v", err)
				}
				if got := tc.get(s); !reflect.DeepEqual(got, l.want) {
					t.Errorf("%s = %#v, want %#v", tc.key, got, l.want)
				}
				if len(s.Warnings) != 0 {
					t.Errorf("unexpected warnings: %q", s.Warnings)
				}
			})
		}
	}
}

func TestResolve_debugFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{{"1", true}, {"true", true}, {"TRUE", true}, {"0", false}, {"false", false}, {"", false}} {
		t.Run(tc.value, func(t *testing.T) {
			s, err := Resolve(parseFlags(t), envOf(map[string]string{"DBGOV_DEBUG": tc.value, "DBGOV_CONFIG": filepath.Join(t.TempDir(), "none.yaml")}))
			if err != nil {
				t.Fatal(err)
			}
			if s.Debug != tc.want {
				t.Errorf("Debug = %v, want %v", s.Debug, tc.want)
			}
		})
	}
	t.Run("flag", func(t *testing.T) {
		s, err := Resolve(parseFlags(t, "--debug"), envOf(map[string]string{"DBGOV_CONFIG": filepath.Join(t.TempDir(), "none.yaml")}))
		if err != nil {
			t.Fatal(err)
		}
		if !s.Debug {
			t.Error("Debug = false with --debug")
		}
	})
}

func TestResolve_noTokenCacheFromEnvironment(t *testing.T) {
	for value, want := range map[string]bool{"1": true, "true": true, "yes": true, "on": true, "YES": true,
		"0": false, "false": false, "no": false, "off": false, "": false} {
		s, err := Resolve(parseFlags(t), envOf(map[string]string{"DBGOV_NO_TOKEN_CACHE": value, "DBGOV_CONFIG": filepath.Join(t.TempDir(), "none.yaml")}))
		if err != nil || s.NoTokenCache != want {
			t.Errorf("DBGOV_NO_TOKEN_CACHE=%s: %v, %v; want %v", value, s.NoTokenCache, err, want)
		}
	}
}

func TestResolve_profileSelection(t *testing.T) {
	const withCurrent = `current_profile: b
profiles:
  default: {url: "https://default.example"}
  a: {url: "https://a.example"}
  b: {url: "https://b.example"}
  c: {url: "https://c.example"}
`
	const withoutCurrent = `profiles:
  default: {url: "https://default.example"}
  a: {url: "https://a.example"}
`
	cases := []struct {
		name     string
		file     string
		args     []string
		env      map[string]string
		profile  string
		url      string
		warnings int
	}{
		{name: "current_profile of the file", file: withCurrent, profile: "b", url: "https://b.example"},
		{name: "default without current_profile", file: withoutCurrent, profile: "default", url: "https://default.example"},
		{name: "environment over current_profile", file: withCurrent, env: map[string]string{"DBGOV_PROFILE": "c"}, profile: "c", url: "https://c.example"},
		{name: "flag over environment", file: withCurrent, args: []string{"--profile", "a"}, env: map[string]string{"DBGOV_PROFILE": "c"}, profile: "a", url: "https://a.example"},
		{
			name: "absent profile contributes nothing", file: withCurrent,
			args: []string{"--profile", "nope", "--url", "https://flag.example"}, profile: "nope", url: "https://flag.example", warnings: 1,
		},
		{name: "absent default profile is no surprise", file: "profiles:\n  a: {url: \"https://a.example\"}\n", profile: "default", url: ""},
		{name: "profile names are case-sensitive", file: withCurrent, args: []string{"--profile", "A"}, profile: "A", url: "", warnings: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "config.yaml", tc.file, 0o600)
			s, err := Resolve(parseFlags(t, tc.args...), envOf(withConfig(path, tc.env)))
			if err != nil {
				t.Fatal(err)
			}
			if s.Profile != tc.profile || s.URL != tc.url {
				t.Errorf("profile %q url %q, want profile %q url %q", s.Profile, s.URL, tc.profile, tc.url)
			}
			if len(s.Warnings) != tc.warnings {
				t.Errorf("warnings %q, want %d", s.Warnings, tc.warnings)
			}
			if tc.warnings == 1 && !strings.Contains(s.Warnings[0], `profile "`+tc.profile+`" (from --profile) is not in config file `+path) {
				t.Errorf("warning %q does not name the profile, its source and the file", s.Warnings[0])
			}
		})
	}
}

func TestResolve_configFileLocation(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	xdg := filepath.Join(dir, "xdg")
	homePath := writeFile(t, home, ".config/dbgov/config.yaml", "profiles: {default: {url: 'https://home.example'}}\n", 0o600)
	xdgPath := writeFile(t, xdg, "dbgov/config.yaml", "profiles: {default: {url: 'https://xdg.example'}}\n", 0o600)
	envPath := writeFile(t, dir, "env.yaml", "profiles: {default: {url: 'https://env.example'}}\n", 0o600)
	flagPath := writeFile(t, dir, "flag.yaml", "profiles: {default: {url: 'https://flag.example'}}\n", 0o600)

	cases := []struct {
		name string
		args []string
		env  map[string]string
		path string
		url  string
	}{
		{name: "home", env: map[string]string{"HOME": home}, path: homePath, url: "https://home.example"},
		{name: "XDG_CONFIG_HOME over home", env: map[string]string{"HOME": home, "XDG_CONFIG_HOME": xdg}, path: xdgPath, url: "https://xdg.example"},
		{name: "relative XDG_CONFIG_HOME is ignored", env: map[string]string{"HOME": home, "XDG_CONFIG_HOME": "rel"}, path: homePath, url: "https://home.example"},
		{name: "DBGOV_CONFIG over XDG", env: map[string]string{"HOME": home, "XDG_CONFIG_HOME": xdg, "DBGOV_CONFIG": envPath}, path: envPath, url: "https://env.example"},
		{name: "flag over DBGOV_CONFIG", args: []string{"--config", flagPath}, env: map[string]string{"HOME": home, "DBGOV_CONFIG": envPath}, path: flagPath, url: "https://flag.example"},
		{name: "no home and no file", env: map[string]string{}, path: "", url: ""},
		{name: "missing file is empty", env: map[string]string{"DBGOV_CONFIG": filepath.Join(dir, "missing.yaml")}, path: filepath.Join(dir, "missing.yaml"), url: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Resolve(parseFlags(t, tc.args...), envOf(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if s.Path != tc.path || s.URL != tc.url {
				t.Errorf("path %q url %q, want path %q url %q", s.Path, s.URL, tc.path, tc.url)
			}
		})
	}
}

func TestDefaultPath_xdgThenHome(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{name: "xdg", env: map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, want: "/x/dbgov/config.yaml"},
		{name: "home", env: map[string]string{"HOME": "/h"}, want: "/h/.config/dbgov/config.yaml"},
		{name: "relative xdg falls back to home", env: map[string]string{"XDG_CONFIG_HOME": "x", "HOME": "/h"}, want: "/h/.config/dbgov/config.yaml"},
		{name: "neither", env: map[string]string{}, want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := defaultPath(envOf(tc.env)); got != filepath.FromSlash(tc.want) {
				t.Errorf("defaultPath = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestResolve_rejectsBadValues(t *testing.T) {
	const secret = "s3cr3t-value"
	cases := []struct {
		name string
		args []string
		env  map[string]string
		file string   // whole file; "" for none
		want []string // substrings of the message
		hide string   // what the message must not contain
	}{
		{name: "malformed file", file: "profiles:\n  default:\n    url: [https://x\n    token: a\n", want: []string{"config file", "config.yaml", "line 3"}},
		{name: "malformed first line", file: "a: b: c\n", want: []string{"config.yaml: line 1:"}},
		{name: "top level is a list", file: "- a\n- b\n", want: []string{"line 1", "mapping"}},
		{name: "profiles is a list", file: "profiles:\n  - default\n", want: []string{"line 2", "profiles is not a mapping"}},
		{name: "profile is a string", file: "profiles:\n  default: https://x\n", want: []string{"line 2", `profile "default"`}},
		{name: "duplicate key", file: "profiles:\n  default:\n    url: https://a\n    url: https://b\n", want: []string{"line 4", `key "url" appears twice`}},
		{name: "timeout from env", env: map[string]string{"DBGOV_TIMEOUT": "soon"}, want: []string{"timeout from DBGOV_TIMEOUT", `"soon"`}},
		{name: "zero timeout from file", file: "profiles:\n  default:\n    timeout: 0s\n", want: []string{`timeout from profile "default" of config file`, "line 3", "positive"}},
		{name: "timeout without unit", file: "profiles:\n  default:\n    timeout: 30\n", want: []string{"timeout from profile", "30s"}},
		{name: "negative timeout flag", args: []string{"--timeout=-5s"}, want: []string{"timeout from --timeout", "positive"}},
		{name: "output", args: []string{"-o", "xml"}, want: []string{"output from --output", `"xml"`, "table, json, yaml, name"}},
		{name: "output from env", env: map[string]string{"DBGOV_OUTPUT": "JSON"}, want: []string{"output from DBGOV_OUTPUT"}},
		{name: "header without colon", args: []string{"--header", "X-Proxy-Auth " + secret}, want: []string{"headers from --header", "header 1", "no ':'"}, hide: secret},
		{name: "header with empty name", args: []string{"--header", "X-A: b", "--header", ": " + secret}, want: []string{"header 2", "name is empty"}, hide: secret},
		{name: "header name with space", args: []string{"--header", "X Proxy: " + secret}, want: []string{"not a valid HTTP header name"}, hide: secret},
		{name: "header value with line break", file: "profiles:\n  default:\n    headers: [\"X-A: " + secret + "\\r\\nX-B: c\"]\n", want: []string{"headers from profile", "control character"}, hide: secret},
		{name: "token with newline", env: map[string]string{"DBGOV_TOKEN": secret + "\n"}, want: []string{"token from DBGOV_TOKEN", "line break"}, hide: secret},
		{name: "token with CR from flag", args: []string{"--token", secret + "\rx"}, want: []string{"token from --token"}, hide: secret},
		{name: "service key with escape", file: "profiles:\n  default:\n    service_key: \"" + secret + "\\e[2J\"\n", want: []string{"service_key from profile", "line 3", "control character"}, hide: secret},
		{name: "url scheme", args: []string{"--url", "ftp://x.example"}, want: []string{"url from --url", "http:// or https://"}},
		{name: "url without scheme", env: map[string]string{"DBGOV_URL": "gov.example.com"}, want: []string{"url from DBGOV_URL", "http:// or https://"}},
		{name: "url without host", args: []string{"--url", "https://"}, want: []string{"no host"}},
		{name: "host and port without a scheme", args: []string{"--url", "127.0.0.1:8080"}, want: []string{"url from --url", "must begin with http:// or https://", "give --url http://127.0.0.1:8080"}},
		{name: "host without a scheme from the environment", env: map[string]string{"DBGOV_URL": "gov.example.com"}, want: []string{"give DBGOV_URL=http://gov.example.com"}},
		{name: "host and port without a scheme in the file", file: "profiles:\n  default:\n    url: localhost:8080\n", want: []string{"line 3", "give dbgov config set url http://localhost:8080"}},
		{name: "no fix shown for what may hold a password", args: []string{"--url", "u:" + secret + "@host:1"}, hide: secret},
		{name: "url with credentials", args: []string{"--url", "https://u:" + secret + "@%zz"}, want: []string{"url from --url", "not a valid URL"}, hide: secret},
		{name: "debug", env: map[string]string{"DBGOV_DEBUG": "yes please"}, want: []string{"DBGOV_DEBUG", "1/true"}},
		{name: "no token cache", env: map[string]string{"DBGOV_NO_TOKEN_CACHE": "maybe"}, want: []string{"no_token_cache from DBGOV_NO_TOKEN_CACHE", `"maybe" is not true or false (1/true/yes/on, 0/false/no/off)`}},
		{name: "url port out of range", args: []string{"--url", "http://127.0.0.1:65536"}, want: []string{"url from --url", "port 65536 is out of range"}},
		{name: "url port zero", env: map[string]string{"DBGOV_URL": "http://127.0.0.1:0"}, want: []string{"url from DBGOV_URL", "port 0"}},
		{name: "url with a query", file: "profiles:\n  default:\n    url: https://x.example/?a=b\n", want: []string{`url from profile "default"`, "line 3", "query"}},
		{name: "url with a fragment", args: []string{"--url", "https://x.example/#f"}, want: []string{"fragment"}},
		{name: "url with an empty query", args: []string{"--url", "https://x.example/?"}, want: []string{"query"}},
		{name: "token with a space", env: map[string]string{"DBGOV_TOKEN": "s3cr3t value"}, want: []string{"token from DBGOV_TOKEN", "space"}, hide: secret},
		{name: "max response size", env: map[string]string{"DBGOV_MAX_RESPONSE_SIZE": "-1"}, want: []string{"max_response_size from DBGOV_MAX_RESPONSE_SIZE", "256MiB"}},
		{name: "max response size zero", args: []string{"--max-response-size", "0"}, want: []string{"max_response_size from --max-response-size"}},
		{name: "bool in file", file: "profiles:\n  default:\n    insecure_skip_tls_verify: maybe\n", want: []string{"line 3", "not true or false"}},
		{name: "headers as mapping", file: "profiles:\n  default:\n    headers: {X-A: b}\n", want: []string{"line 3", "headers is not a list"}},
		{name: "url as list", file: "profiles:\n  default:\n    url: [a, b]\n", want: []string{"line 3", "url in profile \"default\" is not a single value"}},
		{name: "workload identity with escape", env: map[string]string{"DBGOV_WORKLOAD_IDENTITY": "ci@x.com\x1b[2J"}, want: []string{"workload_identity from DBGOV_WORKLOAD_IDENTITY", "control character"}},
		{name: "oidc token file with line break", args: []string{"--oidc-token-file", "oidc.jwt\n"}, want: []string{"oidc_token_file from --oidc-token-file"}},
		{name: "oidc audience with escape", args: []string{"--oidc-audience", "https://x\x1b]"}, want: []string{"oidc_audience from --oidc-audience", "control character"}},
		{name: "summary file with line break", env: map[string]string{"DBGOV_SUMMARY_FILE": "summary.md\r"}, want: []string{"summary_file from DBGOV_SUMMARY_FILE"}},
		{name: "server version", args: []string{"--server-version", "latest"}, want: []string{`server_version from --server-version: release "latest" is not of the form X.Y.Z`}},
		{name: "empty config flag", args: []string{"--config="}, want: []string{"--config"}},
		{name: "empty profile flag", args: []string{"--profile="}, want: []string{"--profile", "empty"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.yaml")
			if tc.file != "" {
				writeFile(t, dir, "config.yaml", tc.file, 0o600)
			}
			_, err := Resolve(parseFlags(t, tc.args...), envOf(withConfig(path, tc.env)))
			if err == nil {
				t.Fatal("Resolve succeeded")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not wrap ErrInvalid", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if tc.hide != "" && strings.Contains(err.Error(), tc.hide) {
				t.Errorf("error %q shows a secret", err)
			}
		})
	}
}

func TestResolve_badValueOverriddenIsUnused(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", "profiles:\n  default:\n    timeout: soon\n    output: xml\n", 0o600)
	s, err := Resolve(parseFlags(t, "--timeout", "5s"), envOf(withConfig(path, map[string]string{"DBGOV_OUTPUT": "json"})))
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if s.Timeout != 5*time.Second || s.Output != "json" {
		t.Errorf("timeout %v output %q", s.Timeout, s.Output)
	}
}

func TestResolve_warnings(t *testing.T) {
	cases := []struct {
		name string
		file string
		perm os.FileMode
		want []string // one substring per expected warning
	}{
		{name: "private file", file: "profiles: {default: {url: 'https://x.example'}}\n", perm: 0o600},
		{name: "world-readable file", file: "profiles: {default: {url: 'https://x.example'}}\n", perm: 0o644, want: []string{"is readable by others; run chmod 600 "}},
		{name: "group-readable file", file: "profiles: {default: {url: 'https://x.example'}}\n", perm: 0o640, want: []string{"chmod 600"}},
		{name: "unknown key", file: "profiles:\n  default:\n    url: https://x.example\n    tokn: abc\n", perm: 0o600, want: []string{`line 4: unknown key "tokn" in profile "default" is ignored`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "config.yaml", tc.file, tc.perm)
			s, err := Resolve(parseFlags(t), envOf(withConfig(path, nil)))
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Warnings) != len(tc.want) {
				t.Fatalf("warnings %q, want %d", s.Warnings, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(s.Warnings[i], w) || !strings.Contains(s.Warnings[i], path) {
					t.Errorf("warning %q does not contain %q and the path", s.Warnings[i], w)
				}
			}
		})
	}
}

func TestResolve_fileFeatures(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "config.yaml", `base: &base
  url: https://base.example
  timeout: 1m
profiles:
  default:
    <<: *base
    timeout: 2m
    headers: "X-One: 1"
    ca_cert: certs/ca.pem
    token: 12345
  copy: *base
`, 0o600)
	s, err := Resolve(parseFlags(t), envOf(withConfig(path, nil)))
	if err != nil {
		t.Fatal(err)
	}
	want := &Settings{
		URL:             "https://base.example",
		ProfileURL:      "https://base.example",
		Token:           "12345",
		Headers:         []Header{{"X-One", "1"}},
		Timeout:         2 * time.Minute,
		CACert:          filepath.Join(dir, "certs", "ca.pem"),
		MaxResponseSize: 256 << 20,
		Profile:         "default",
		Path:            path,
	}
	s.from = nil // TestResolve_saysWhereEachSettingCameFrom checks it
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Resolve = %+v, want %+v", s, want)
	}
	s, err = Resolve(parseFlags(t, "--profile", "copy"), envOf(withConfig(path, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if s.URL != "https://base.example" || s.Timeout != time.Minute {
		t.Errorf("aliased profile: url %q timeout %v", s.URL, s.Timeout)
	}
}

func TestResolve_withoutFlagsOrEnvironment(t *testing.T) {
	t.Setenv("DBGOV_CONFIG", filepath.Join(t.TempDir(), "none.yaml"))
	t.Setenv("DBGOV_URL", "https://process.example")
	s, err := Resolve(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.URL != "https://process.example" || s.Timeout != client.DefaultTimeout || s.Output != "" {
		t.Errorf("Resolve(nil, nil) = %+v", s)
	}
}

func TestOpen_doesNotCheckValues(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", "current_profile: p\nprofiles:\n  p:\n    timeout: soon\n", 0o600)
	f, profile, err := Open(parseFlags(t), envOf(withConfig(path, nil)))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if profile != "p" || f.Path() != path {
		t.Errorf("Open = %q, %q", f.Path(), profile)
	}
	if _, err := Resolve(parseFlags(t), envOf(withConfig(path, nil))); !errors.Is(err, ErrInvalid) {
		t.Errorf("Resolve with a bad timeout: %v", err)
	}
}

func TestRegisterFlags_helpAndDefaults(t *testing.T) {
	fs := parseFlags(t)
	for _, name := range []string{"url", "token", "service-account", "service-key", "header", "profile", "config", "output", "timeout", "insecure-skip-tls-verify", "ca-cert", "max-response-size", "debug"} {
		fl := fs.Lookup(name)
		if fl == nil {
			t.Errorf("flag --%s missing", name)
			continue
		}
		if fl.Usage == "" {
			t.Errorf("flag --%s has no help", name)
		}
	}
	if fs.ShorthandLookup("o") == nil {
		t.Error("-o missing")
	}
	if got := fs.Lookup("timeout").DefValue; got != "30s" {
		t.Errorf("--timeout default %q", got)
	}
}

func BenchmarkResolve(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "config.yaml")
	content := "current_profile: default\nprofiles:\n  default:\n    url: https://gov.example.com\n    token: abc\n    headers: [\"X-A: b\"]\n    timeout: 10s\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		b.Fatal(err)
	}
	fs := pflag.NewFlagSet("dbgov", pflag.ContinueOnError)
	RegisterFlags(fs)
	if err := fs.Parse([]string{"-o", "json"}); err != nil {
		b.Fatal(err)
	}
	getenv := envOf(map[string]string{"DBGOV_CONFIG": path, "DBGOV_TOKEN": "t"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(fs, getenv); err != nil {
			b.Fatal(err)
		}
	}
}

func TestResolve_warnsOfSettingsOutsideAProfile(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "config.yaml", "url: https://gov.example.com\nprofiles:\n  default:\n    timeout: 1m\n", 0o600)
	s, err := Resolve(parseFlags(t), envOf(withConfig(path, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], `line 1: top-level key "url" is ignored; settings go in a profile, such as profiles.default.url`) {
		t.Errorf("warnings %q", s.Warnings)
	}
	if s.URL != "" {
		t.Errorf("URL %q read from outside the profile", s.URL)
	}
}

func TestResolve_noticesTheEnvironmentOverridingTheProfile(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", "profiles:\n  default:\n    url: https://file.example\n    token: file-token\n    output: yaml\n", 0o600)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want []string
	}{
		{"none", nil, nil, nil},
		{"url and token", nil, map[string]string{"DBGOV_URL": "https://env.example", "DBGOV_TOKEN": "env-token"},
			[]string{"DBGOV_URL overrides the url of profile default in " + path, "DBGOV_TOKEN overrides the token of profile default in " + path}},
		{"a flag is no surprise", []string{"--url", "https://flag.example"}, map[string]string{"DBGOV_URL": "https://env.example"}, nil},
		{"the same value", nil, map[string]string{"DBGOV_URL": "https://file.example", "DBGOV_TOKEN": "file-token"}, nil},
		{"any setting", nil, map[string]string{"DBGOV_TIMEOUT": "1m", "DBGOV_OUTPUT": "json"}, []string{"DBGOV_OUTPUT overrides the output of profile default in " + path}},
		{"another setting", nil, map[string]string{"DBGOV_TIMEOUT": "1m"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Resolve(parseFlags(t, tt.args...), envOf(withConfig(path, tt.env)))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Notices, tt.want) {
				t.Errorf("Notices = %q, want %q", s.Notices, tt.want)
			}
		})
	}
}

func TestResolve_saysWhereEachSettingCameFrom(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", "profiles:\n  default:\n    url: https://file.example\n    token: file-token\n    timeout: 1m\n", 0o600)
	s, err := Resolve(parseFlags(t, "--token", "flag-token"), envOf(withConfig(path, map[string]string{"DBGOV_TIMEOUT": "2m"})))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"token": "flag", "timeout": "environment", "url": "profile", "max_response_size": "default", "service_key": "default"} {
		if got := s.Source(name); got != want {
			t.Errorf("Source(%q) = %q, want %q", name, got, want)
		}
	}
}
