package cmdtest

import (
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/devserver"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// Format is a way a command's output is printed: the flags that choose it,
// and whether stdout is a terminal, of Width columns.
type Format struct {
	Args  []string
	TTY   bool
	Width int
}

// formats are the formats every command shares, by name.
var formats = map[string]Format{
	"table":               {},
	"table_tty":           {TTY: true},
	"table_colour_always": {Args: []string{"--color", "always"}},
	"wide_tty":            {Args: []string{"-o", "wide"}, TTY: true},
	"no_headers":          {Args: []string{"--no-headers"}},
	"json":                {Args: []string{"-o", "json"}},
	"json_show_secrets":   {Args: []string{"-o", "json", "--show-secrets"}},
	"yaml":                {Args: []string{"-o", "yaml"}},
	"name":                {Args: []string{"-o", "name"}},
	"tty_60":              {TTY: true, Width: 60},
	"tty_80":              {TTY: true, Width: 80},
	"tty_120":             {TTY: true, Width: 120},
}

// Command is a command line under test and the fake service answering it,
// for the table tests every command shares.
type Command struct {
	Args     []string
	Options  Options                                // URL, TTY and Width are set for each run
	Serve    func(reg *httpmock.Registry, tty bool) // registers the answers of one run
	JQ       string                                 // the expression of the format "jq"
	Template string                                 // the template of the format "template"
	// Check checks the stderr of a run, and more; nil wants stderr empty.
	Check func(t *testing.T, tty bool, res Result)
}

// Format returns the format name: jq, template, or one every command shares.
func (c Command) Format(name string) Format {
	f, ok := formats[name]
	switch {
	case name == "jq":
		f.Args = []string{"--jq", c.JQ}
	case name == "template":
		f.Args = []string{"--template", c.Template}
	case !ok:
		panic("cmdtest: no format " + name)
	}
	return f
}

// Run runs the command printing in f against a fresh fake service; it must
// succeed.
func (c Command) Run(t *testing.T, f Format) Result {
	t.Helper()
	reg := httpmock.New(t)
	if c.Serve != nil {
		c.Serve(reg, f.TTY)
	}
	opts := c.Options
	opts.URL, opts.TTY, opts.Width = reg.URL(), f.TTY, f.Width
	res := Run(t, opts, append(slices.Clone(c.Args), f.Args...)...).Expect(t, 0)
	if c.Check != nil {
		c.Check(t, f.TTY, res)
	} else if res.Stderr != "" {
		t.Errorf("stderr: %s", res.Stderr)
	}
	return res
}

// Goldens runs the command in each format named, a subtest each, and
// compares stdout with testdata/<prefix><name>.golden.
func (c Command) Goldens(t *testing.T, prefix string, names ...string) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) { Golden(t, prefix+name, c.Run(t, c.Format(name)).Stdout) })
	}
}

// Prints runs the command in each format want names, a subtest each: stdout
// must be what want gives for it.
func (c Command) Prints(t *testing.T, want map[string]string) {
	for _, name := range slices.Sorted(maps.Keys(want)) {
		t.Run(name, func(t *testing.T) {
			if got := c.Run(t, c.Format(name)).Stdout; got != want[name] {
				t.Errorf("stdout %q, want %q", got, want[name])
			}
		})
	}
}

// SecretsNeverInTables runs the command as a table, with --show-secrets and
// without, on a terminal and not: stdout must hold shown and no secret.
func (c Command) SecretsNeverInTables(t *testing.T, shown string, secrets []string) {
	for _, args := range [][]string{nil, {"--show-secrets"}, {"--show-secrets", "--no-headers"}} {
		for _, tty := range []bool{false, true} {
			res := c.Run(t, Format{Args: args, TTY: tty}).StdoutHas(t, shown)
			for _, s := range secrets {
				if strings.Contains(res.Stdout, s) {
					t.Errorf("%v (tty %t): table shows the secret %q:\n%s", args, tty, s, res.Stdout)
				}
			}
		}
	}
}

// SecretsMaskedUnlessShown runs the command with each of formats (their
// flags), with --show-secrets and without: stdout holds the secrets only
// when shown, and masks (********) only when not, masks of them unless 0.
func (c Command) SecretsMaskedUnlessShown(t *testing.T, secrets []string, masks int, formats ...[]string) {
	for _, format := range formats {
		for _, show := range []bool{false, true} {
			args := slices.Clone(format)
			if show {
				args = append(args, "--show-secrets")
			}
			res := c.Run(t, Format{Args: args})
			for _, s := range secrets {
				if got := strings.Contains(res.Stdout, s); got != show {
					t.Errorf("%v show-secrets=%t: secret %q printed: %t\n%s", format, show, s, got, res.Stdout)
				}
			}
			if n := strings.Count(res.Stdout, "********"); show && n != 0 || !show && (n == 0 || masks > 0 && n != masks) {
				t.Errorf("%v show-secrets=%t: %d masks printed\n%s", format, show, n, res.Stdout)
			}
		}
	}
}

// Refused runs args against a fake service: the run must exit 2 with
// stderr holding want, print nothing on stdout and send no request.
func Refused(t *testing.T, opts Options, args []string, want ...string) {
	t.Helper()
	reg := httpmock.New(t)
	opts.URL = reg.URL()
	res := Run(t, opts, args...).Expect(t, 2).StderrHas(t, want...)
	if res.Stdout != "" {
		t.Errorf("stdout: %q", res.Stdout)
	}
	if n := len(reg.Requests()); n != 0 {
		t.Errorf("sent %d requests", n)
	}
}

// Failure is an error answer of the service and what dbgov must make of it.
type Failure struct {
	Name   string
	Status int
	Body   string
	Code   int    // the exit code
	Line   string // what stderr holds
	JSON   string // what stderr holds under -o json, as its one line
	Sent   int    // the requests a run sends (retries too); 0 is 1
}

// Failures runs the command against each error answer to method path, a
// subtest each, then again with -o json: each run must exit with the code
// and print nothing on stdout.
func (c Command) Failures(t *testing.T, method, path string, failures []Failure) {
	for _, f := range failures {
		t.Run(f.Name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(method, path, f.Status, f.Body).Header("Retry-After", "0")
			opts := c.Options
			opts.URL = reg.URL()
			text := Run(t, opts, c.Args...).Expect(t, f.Code).StderrHas(t, f.Line)
			json := Run(t, opts, append(slices.Clone(c.Args), "-o", "json")...).Expect(t, f.Code).StderrHas(t, f.JSON)
			if text.Stdout != "" || json.Stdout != "" {
				t.Errorf("stdout: %q, with -o json %q", text.Stdout, json.Stdout)
			}
			if lines := strings.Count(json.Stderr, "\n"); lines != 1 || !strings.HasPrefix(json.Stderr, `{"error":`) {
				t.Errorf("stderr is not one JSON line: %q", json.Stderr)
			}
			if n := len(reg.Requests()); n != 2*max(f.Sent, 1) {
				t.Errorf("sent %d requests in two runs, want %d a run", n, max(f.Sent, 1))
			}
		})
	}
}

// WriteFile writes content to the file name in a new temporary directory
// of the test, and returns its path.
func WriteFile(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ReferenceServer starts the embedded reference server for the test, and
// returns the options of a run as its administrator.
func ReferenceServer(t testing.TB) Options {
	t.Helper()
	s, err := devserver.New(devserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return Options{URL: srv.URL, Token: s.AdminToken()}
}
