// Package cmdtest runs dbgov's command tree in-process as a user would, with
// its streams captured, for the tests of every command.
package cmdtest

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/root"
	"github.com/dbgov/dbgov/internal/iostreams"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Options set up one run.
type Options struct {
	URL   string            // DBGOV_URL
	Token string            // DBGOV_TOKEN; "-" leaves it empty, as unset, and empty means "test-token"
	Env   map[string]string // more environment; DBGOV_SERVER_VERSION is 3.14.1 unless Env says (say "" to ask the service)
	Stdin string
	TTY   bool // stdout and stderr are terminals
	InTTY bool // stdin is a terminal
	Width int  // the terminal's width, when TTY: no line of stdout may be wider
	Ctx   context.Context
	Clock client.Clock // the client's clock; nil for the wall clock
}

// Result is what a run printed and its exit code.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Streams returns streams backed by buffers, none of them a terminal. Tests
// set the booleans and TermWidth to check terminal behaviour.
func Streams() (ios *iostreams.IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &iostreams.IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// Run runs dbgov with args. The configuration file is a fresh one in a
// temporary directory unless the environment names another.
func Run(t testing.TB, opts Options, args ...string) Result {
	t.Helper()
	ios, in, out, errOut := Streams()
	in.WriteString(opts.Stdin)
	ios.InTTY, ios.OutTTY, ios.ErrTTY, ios.TermWidth = opts.InTTY, opts.TTY, opts.TTY, opts.Width
	token := cmp.Or(opts.Token, "test-token")
	if token == "-" {
		token = ""
	}
	env := map[string]string{
		"DBGOV_CONFIG": filepath.Join(t.TempDir(), "config.yaml"),
		"HOME":         t.TempDir(),
		// Caches are the run's own: answers kept for one test's server
		// would be read by another's on the same port.
		"XDG_CACHE_HOME": t.TempDir(),
		// The release the seed's tests were written for, so that they send
		// exactly the requests they expect.
		"DBGOV_SERVER_VERSION": "3.14.1",
		"DBGOV_URL":            opts.URL,
		"DBGOV_TOKEN":          token,
	}
	maps.Copy(env, opts.Env)
	ctx := cmp.Or(opts.Ctx, context.Background())
	f := factory.New(ios, "1.2.3-test", "abc1234", func(k string) string { return env[k] })
	f.Clock = opts.Clock
	code := root.Run(ctx, f, args)
	for _, line := range strings.Split(out.String(), "\n") {
		if opts.Width > 0 && utf8.RuneCountInString(line) > opts.Width {
			t.Errorf("a line of stdout is wider than the terminal's %d columns: %q", opts.Width, line)
		}
	}
	return Result{Stdout: out.String(), Stderr: errOut.String(), Code: code}
}

// Golden compares got with testdata/<name>.golden, rewriting the file when
// the tests run with -update.
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		err := os.MkdirAll(filepath.Dir(path), 0o755)
		if err == nil {
			err = os.WriteFile(path, []byte(got), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run the tests with -update to create it): %v", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("output differs from %s (run with -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Expect stops the test, showing both streams, unless the run exited with
// code. It checks the exit code alone: StdoutHas and StderrHas check the output.
func (r Result) Expect(t testing.TB, code int) Result {
	t.Helper()
	if r.Code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.Code, code, r.Stdout, r.Stderr)
	}
	return r
}

// StderrHas fails the test unless stderr holds every fragment.
func (r Result) StderrHas(t testing.TB, fragments ...string) Result {
	t.Helper()
	return r.has(t, "stderr", r.Stderr, fragments)
}

// StdoutHas fails the test unless stdout holds every fragment.
func (r Result) StdoutHas(t testing.TB, fragments ...string) Result {
	t.Helper()
	return r.has(t, "stdout", r.Stdout, fragments)
}

func (r Result) has(t testing.TB, name, text string, fragments []string) Result {
	t.Helper()
	for _, f := range fragments {
		if !strings.Contains(text, f) {
			t.Errorf("%s does not hold %q:\n%s", name, f, text)
		}
	}
	return r
}

// ServiceError is an error answer of the service and the exit code dbgov
// must give for it.
type ServiceError struct {
	Status   int    // HTTP status
	Code     int    // gRPC code of the body
	CodeName string // its name
	Exit     int    // dbgov's exit code
}

// Body is the service's error body for e, with message.
func (e ServiceError) Body(message string) string {
	return fmt.Sprintf(`{"code": %d, "message": %q}`, e.Code, message)
}

// ServiceErrors are the error answers every command's tests check: each
// exit code a service error can give.
func ServiceErrors() []ServiceError {
	return []ServiceError{
		{404, 5, "NOT_FOUND", 5},
		{400, 3, "INVALID_ARGUMENT", 6},
		{409, 6, "ALREADY_EXISTS", 6},
		{403, 7, "PERMISSION_DENIED", 4},
		{401, 16, "UNAUTHENTICATED", 3},
		{500, 13, "INTERNAL", 7},
		{503, 14, "UNAVAILABLE", 7},
	}
}
