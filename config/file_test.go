package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// loadFile loads the file at path, failing the test on error.
func loadFile(t *testing.T, path string) *File {
	t.Helper()
	f, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return f
}

// readText returns the content of path.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLoad_missingFileIsEmpty(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "no", "config.yaml")} {
		f := loadFile(t, path)
		if got, _, _ := f.View(true); string(got) != "{}\n" {
			t.Errorf("View of %q = %q", path, got)
		}
		if p := f.Profiles(); len(p) != 0 {
			t.Errorf("Profiles = %q", p)
		}
		if v, err := f.Get("default", "url"); v != "" || err != nil {
			t.Errorf("Get = %q, %v", v, err)
		}
	}
}

func TestLoad_emptyAndCommentOnlyFiles(t *testing.T) {
	for _, content := range []string{"", "# nothing yet\n", "~\n", "---\n"} {
		path := writeFile(t, t.TempDir(), "config.yaml", content, 0o600)
		f := loadFile(t, path)
		if err := f.Set("default", "url", "https://x.example"); err != nil {
			t.Fatalf("Set on %q: %v", content, err)
		}
		if got, _ := f.Get("default", "url"); got != "https://x.example" {
			t.Errorf("Get after Set on %q = %q", content, got)
		}
	}
}

func TestLoad_refusesMalformedFiles(t *testing.T) {
	cases := []struct {
		name, content, line string
	}{
		{"unclosed flow sequence", "current_profile: a\nprofiles:\n  a:\n    headers: [x\n    url: b\n", "line 4: did not find expected ',' or ']'"},
		{"block sequence in mapping", "profiles:\n  a:\n    - x\n    url: b\n", "line 3: did not find expected '-' indicator"},
		{"mapping value on the first line", "a: b: c\n", "line 1: mapping values"},
		{"mapping value later", "profiles:\n  a: b: c\n", "line 2: mapping values"},
		{"tab indentation", "profiles:\n\ta: {}\n", "line 2: found character that cannot start any token"},
		{"unterminated quote", "profiles:\n  a:\n    url: \"https://x\n", "found unexpected end of stream"},
		{"scalar at the top", "just text\n", "line 1: want a mapping"},
		{"current_profile is a list", "current_profile: [a]\n", "line 1: current_profile is not a profile name"},
		{"duplicate profile", "profiles:\n  a: {}\n  b: {}\n  a: {}\n", `line 4: profile "a" appears twice`},
		{"duplicate top-level key", "profiles: {}\nprofiles: {}\n", `line 2: key "profiles" appears twice`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "config.yaml", tc.content, 0o600)
			_, err := Load(path)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Load error %v does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.line) {
				t.Errorf("error %q does not name the file and %q", err, tc.line)
			}
		})
	}
}

func TestLoad_directoryIsRefused(t *testing.T) {
	if _, err := Load(t.TempDir()); !errors.Is(err, ErrInvalid) {
		t.Errorf("Load of a directory: %v", err)
	}
}

func TestFile_setGetRoundTrip(t *testing.T) {
	cases := []struct {
		key, value, want string
	}{
		{"url", "https://gov.example.com", "https://gov.example.com"},
		{"url", " http://localhost:8080/base ", "http://localhost:8080/base"},
		{"token", "tok-123", "tok-123"},
		{"token", "true", "true"},
		{"service_account", "ci@example.com", "ci@example.com"},
		{"service_key", "123456", "123456"},
		{"headers", "X-Proxy-Auth:abc", "X-Proxy-Auth: abc"},
		{"output", "yaml", "yaml"},
		{"timeout", "1m30s", "1m30s"},
		{"insecure_skip_tls_verify", "TRUE", "true"},
		{"insecure_skip_tls_verify", "0", "false"},
		{"ca_cert", "/etc/ssl/ca.pem", "/etc/ssl/ca.pem"},
	}
	for _, tc := range cases {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			f := loadFile(t, path)
			if err := f.Set("work", tc.key, tc.value); err != nil {
				t.Fatalf("Set: %v", err)
			}
			if got, err := f.Get("work", tc.key); got != tc.want || err != nil {
				t.Errorf("Get before saving = %q, %v; want %q", got, err, tc.want)
			}
			if err := f.save(); err != nil {
				t.Fatalf("Save: %v", err)
			}
			if got, err := loadFile(t, path).Get("work", tc.key); got != tc.want || err != nil {
				t.Errorf("Get after loading = %q, %v; want %q", got, err, tc.want)
			}
			// Resolve reads what Set wrote.
			if _, err := Resolve(parseFlags(t, "--profile", "work"), envOf(withConfig(path, nil))); err != nil {
				t.Errorf("Resolve after Set: %v", err)
			}
		})
	}
}

func TestFile_setRelativeCACertIsMadeAbsolute(t *testing.T) {
	f := loadFile(t, filepath.Join(t.TempDir(), "config.yaml"))
	if err := f.Set("default", "ca_cert", "ca.pem"); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Get("default", "ca_cert"); got != filepath.Join(wd, "ca.pem") {
		t.Errorf("ca_cert = %q", got)
	}
}

func TestFile_setRefusesBadValues(t *testing.T) {
	const secret = "s3cr3t-value"
	cases := []struct {
		name, profile, key, value, want string
	}{
		{"unknown key", "default", "tokn", "x", "unknown config key \"tokn\"; the keys are url, token, service_account, service_key, workload_identity, headers, output, timeout, insecure_skip_tls_verify, ca_cert, max_response_size"},
		{"empty value", "default", "url", "  ", "empty value"},
		{"url without scheme", "default", "url", "gov.example.com", "http:// or https://"},
		{"url with other scheme", "default", "url", "file:///etc/passwd", "http:// or https://"},
		{"url without host", "default", "url", "https:///v1", "no host"},
		{"url with credentials that does not parse", "default", "url", "https://u:" + secret + "@[::1", "not a valid URL"},
		{"timeout without unit", "default", "timeout", "30", "not a duration"},
		{"negative timeout", "default", "timeout", "-1s", "positive"},
		{"output", "default", "output", "xml", "table, json, yaml, name"},
		{"bool", "default", "insecure_skip_tls_verify", "yes please", "not true or false"},
		{"header without colon", "default", "headers", "X-Auth " + secret, "no ':'"},
		{"header with empty name", "default", "headers", ": " + secret, "name is empty"},
		{"token with control character", "default", "token", secret + "\x00", "control character"},
		{"service key with line break", "default", "service_key", secret + "\nx", "line break"},
		{"profile with slash", "a/b", "url", "https://x.example", "may not contain"},
		{"empty profile", "", "url", "https://x.example", "empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := loadFile(t, filepath.Join(t.TempDir(), "config.yaml"))
			err := f.Set(tc.profile, tc.key, tc.value)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Set error %v does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q shows a secret", err)
			}
			if p := f.Profiles(); len(p) != 0 {
				t.Errorf("a refused Set created profiles %q", p)
			}
		})
	}
}

func TestFile_unknownKeyIsRefusedEverywhere(t *testing.T) {
	f := loadFile(t, "")
	if _, err := f.Get("default", "URL"); !errors.Is(err, ErrInvalid) {
		t.Errorf("Get: %v", err)
	}
	if err := f.Unset("default", "urls"); !errors.Is(err, ErrInvalid) {
		t.Errorf("Unset: %v", err)
	}
}

func TestFile_unset(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", `profiles:
  default:
    url: https://x.example
    token: abc
  other:
    token: def
`, 0o600)
	f := loadFile(t, path)
	for _, step := range []struct{ profile, key string }{
		{"default", "token"},
		{"default", "token"},   // again: nothing to do
		{"default", "timeout"}, // never set
		{"missing", "url"},     // no such profile
	} {
		if err := f.Unset(step.profile, step.key); err != nil {
			t.Fatalf("Unset(%q, %q): %v", step.profile, step.key, err)
		}
	}
	if err := f.save(); err != nil {
		t.Fatal(err)
	}
	want := `profiles:
  default:
    url: https://x.example
  other:
    token: def
`
	if got := readText(t, path); got != want {
		t.Errorf("file after Unset:\n%s\nwant:\n%s", got, want)
	}
}

func TestFile_useProfile(t *testing.T) {
	cases := []struct {
		name, content, profile, want, wantErr string
	}{
		{name: "new file", profile: "prod", want: "current_profile: prod\n"},
		{name: "goes first", content: "profiles:\n  prod: {}\n", profile: "prod", want: "current_profile: prod\nprofiles:\n  prod: {}\n"},
		{name: "replaces, keeping the comment", content: "current_profile: a # mine\nprofiles: {}\n", profile: "b", want: "current_profile: b # mine\nprofiles: {}\n"},
		{name: "quotes what YAML would misread", profile: "true", want: "current_profile: \"true\"\n"},
		{name: "empty", profile: "", wantErr: "empty"},
		{name: "space", profile: "my prof", wantErr: "whitespace"},
		{name: "slash", profile: "a/b", wantErr: "'/'"},
		{name: "newline", profile: "a\nb", wantErr: "whitespace"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if tc.content != "" {
				writeFile(t, filepath.Dir(path), "config.yaml", tc.content, 0o600)
			}
			f := loadFile(t, path)
			err := f.UseProfile(tc.profile, false)
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("UseProfile(%q) = %v, want an error with %q", tc.profile, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := f.save(); err != nil {
				t.Fatal(err)
			}
			if got := readText(t, path); got != tc.want {
				t.Errorf("file:\n%s\nwant:\n%s", got, tc.want)
			}
			_, profile, err := Open(nil, envOf(map[string]string{"DBGOV_CONFIG": path}))
			if err != nil || profile != tc.profile {
				t.Errorf("Open after UseProfile = %q, %v", profile, err)
			}
		})
	}
}

func TestFile_editsKeepCommentsAndUnknownKeys(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", `# dbgov settings
current_profile: default
profiles:
  default:
    url: https://old.example # the old one
    future_key: kept
  # staging shares prod's settings
  prod: &prod
    url: https://prod.example
  staging: *prod
`, 0o600)
	f := loadFile(t, path)
	steps := []func() error{
		func() error { return f.Set("default", "url", "https://new.example") },
		func() error { return f.Set("default", "timeout", "10s") },
		func() error { return f.Set("staging", "url", "https://staging.example") },
		func() error { return f.Set("fresh", "output", "json") },
		f.save,
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	want := `# dbgov settings
current_profile: default
profiles:
  default:
    url: https://new.example # the old one
    future_key: kept
    timeout: 10s
  # staging shares prod's settings
  prod: &prod
    url: https://prod.example
  staging:
    url: https://staging.example
  fresh:
    output: json
`
	if got := readText(t, path); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	if got := loadFile(t, path).Profiles(); strings.Join(got, ",") != "default,prod,staging,fresh" {
		t.Errorf("Profiles = %q", got)
	}
}

func TestFile_getReadsMergeKeysAndHeaderLists(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", `shared: &shared
  url: https://shared.example
profiles:
  default:
    <<: *shared
    headers:
      - "X-A: 1"
      - "X-B: 2"
    token:
`, 0o600)
	f := loadFile(t, path)
	for key, want := range map[string]string{"url": "https://shared.example", "headers": "X-A: 1\nX-B: 2", "token": "", "output": ""} {
		if got, err := f.Get("default", key); got != want || err != nil {
			t.Errorf("Get(%q) = %q, %v; want %q", key, got, err, want)
		}
	}
}

func TestFile_viewKeepsTheKeysOfAProfileNamedAsASecret(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", "profiles:\n  token:\n    url: https://gov.example.com\n    token: tok-secret\n", 0o600)
	text, js, err := loadFile(t, path).View(false)
	want := "profiles:\n  token:\n    url: https://gov.example.com\n    token: '********'\n"
	if err != nil || string(text) != want || !strings.Contains(string(js), `"url":"https://gov.example.com"`) {
		t.Errorf("View = %q, %s, %v; want %q", text, js, err, want)
	}
}

func TestFile_viewMasksSecrets(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", `# old token: leaked-in-comment
current_profile: default
profiles:
  default:
    url: https://gov.example.com
    token: tok-secret # current
    service_account: ci@example.com
    service_key: key-secret
    headers: ["X-Proxy-Auth: hdr-secret", "no-colon-secret"]
  empty:
    token: ""
  single:
    headers: "X-One: one-secret"
`, 0o600)
	f := loadFile(t, path)
	masked := `current_profile: default
profiles:
  default:
    url: https://gov.example.com
    token: '********'
    service_account: ci@example.com
    service_key: '********'
    headers: ['X-Proxy-Auth: ********', '********']
  empty:
    token: ""
  single:
    headers: 'X-One: ********'
`
	clear := `current_profile: default
profiles:
  default:
    url: https://gov.example.com
    token: tok-secret
    service_account: ci@example.com
    service_key: key-secret
    headers: ["X-Proxy-Auth: hdr-secret", "no-colon-secret"]
  empty:
    token: ""
  single:
    headers: "X-One: one-secret"
`
	for _, tc := range []struct {
		show bool
		want string
	}{{false, masked}, {true, clear}} {
		got, _, err := f.View(tc.show)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("View(%v):\n%s\nwant:\n%s", tc.show, got, tc.want)
		}
	}
	// View leaves the file itself alone.
	if got, _ := f.Get("default", "token"); got != "tok-secret" {
		t.Errorf("token after View = %q", got)
	}
}

func TestSave_existingDirectoryKeepsItsModeAndFileBecomesPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, dir, "config.yaml", "profiles: {}\n", 0o644)
	f := loadFile(t, path)
	if err := f.Set("default", "url", "https://x.example"); err != nil {
		t.Fatal(err)
	}
	if err := f.save(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		path string
		mode os.FileMode
	}{{dir, 0o755}, {path, 0o600}} {
		info, err := os.Stat(want.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want.mode {
			t.Errorf("%s mode %v, want %v", want.path, got, want.mode)
		}
	}
}

func TestLoad_symlinkIsRefusedAndItsTargetLeftAlone(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, dir, "dotfiles/dbgov.yaml", "profiles: {}\n", 0o600)
	link := filepath.Join(dir, "config.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	if _, err := Load(link); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), link+" is a symbolic link") {
		t.Errorf("Load of a link: %v", err)
	}
	err := Edit(context.Background(), nil, func(k string) string { return map[string]string{"DBGOV_CONFIG": link}[k] },
		func(f *File, profile string) error { return f.Set(profile, "url", "https://x.example") })
	if err == nil {
		t.Error("Edit through a link succeeded")
	}
	if got := readText(t, target); got != "profiles: {}\n" {
		t.Errorf("target changed: %q", got)
	}
}

func TestEdit_withoutPathFails(t *testing.T) {
	noHome := func(string) string { return "" }
	err := Edit(context.Background(), nil, noHome, func(f *File, profile string) error {
		return f.Set(profile, "url", "https://x.example")
	})
	if err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("Edit without a path: %v", err)
	}
}

func TestFile_viewReadsAnchorsAsOtherCommandsDo(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", `base: &base
  url: https://u:pw@base.example
  token: tok-base
  timeout: 1m
profiles:
  default:
    <<: *base
    timeout: 2m
  copy: *base
`, 0o600)
	_, js, err := loadFile(t, path).View(false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"base":{"url":"https://u:********@base.example","token":"********","timeout":"1m"},` +
		`"profiles":{"default":{"timeout":"2m","url":"https://u:********@base.example","token":"********"},` +
		`"copy":{"url":"https://u:********@base.example","token":"********","timeout":"1m"}}}`
	if string(js) != want {
		t.Errorf("View JSON:\n%s\nwant:\n%s", js, want)
	}
}

func TestFile_viewRefusesAliasesThatExplode(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [" + strings.Repeat("x", 1000) + "]\n")
	for i := 1; i < 12; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1)
	}
	path := writeFile(t, t.TempDir(), "config.yaml", b.String(), 0o600)
	if _, _, err := loadFile(t, path).View(true); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "beyond 16 MiB") {
		t.Errorf("View = %v", err)
	}
}

func TestFile_headersAreAddedAndRemovedByName(t *testing.T) {
	f := loadFile(t, filepath.Join(t.TempDir(), "config.yaml"))
	steps := []struct {
		do   func() error
		want string
	}{
		{func() error { return f.Set("p", "headers", "X-A: 1") }, "X-A: 1"},
		{func() error { return f.Set("p", "headers", "X-B: 2") }, "X-A: 1\nX-B: 2"},
		{func() error { return f.Set("p", "headers", "x-a: 3") }, "X-B: 2\nx-a: 3"},
		{func() error { return f.UnsetHeaders("p", []string{"X-NONE"}) }, "X-B: 2\nx-a: 3"},
		{func() error { return f.UnsetHeaders("p", []string{"X-A"}) }, "X-B: 2"},
		{func() error { return f.UnsetHeaders("p", []string{"x-b"}) }, ""},
	}
	for i, step := range steps {
		if err := step.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got, _ := f.Get("p", "headers"); got != step.want {
			t.Errorf("step %d: headers %q, want %q", i, got, step.want)
		}
	}
}

func TestFile_deleteProfile(t *testing.T) {
	path := writeFile(t, t.TempDir(), "config.yaml", `current_profile: prod
profiles:
  prod: &prod
    url: https://prod.example # main
  staging: *prod
  dev:
    url: https://dev.example
`, 0o600)
	f := loadFile(t, path)
	if err := f.DeleteProfile("nope"); err == nil || !strings.Contains(err.Error(), "profile nope is not in config file") {
		t.Errorf("DeleteProfile(nope) = %v", err)
	}
	for _, name := range []string{"prod", "dev"} {
		if err := f.DeleteProfile(name); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.save(); err != nil {
		t.Fatal(err)
	}
	want := "profiles:\n  staging:\n    url: https://prod.example # main\n"
	if got := readText(t, path); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestFile_useProfileCreateLeavesAnExistingProfileAlone(t *testing.T) {
	content := "profiles:\n  base: &base\n    url: https://x.example\n  prod: *base\n  empty:\n"
	for _, name := range []string{"prod", "empty"} {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "config.yaml", content, 0o600)
			f := loadFile(t, path)
			if err := f.UseProfile(name, true); err != nil {
				t.Fatal(err)
			}
			if err := f.save(); err != nil {
				t.Fatal(err)
			}
			if got, want := readText(t, path), "current_profile: "+name+"\n"+content; got != want {
				t.Errorf("file:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
