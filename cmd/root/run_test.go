package root_test

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/root"
	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestRun_unknownCommandsNameTheVerbMeant(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"misspelt command", []string{"polices"}, `unknown command "polices" for "dbgov"; did you mean "policies"?`},
		{"a part of the verb", []string{"users", "get", "a@x.com"}, `unknown command "get" for "dbgov users"; did you mean "batch-get"?`},
		{"a verb the group lacks", []string{"revisions", "delete"}, `unknown command "delete" for "dbgov revisions"; its commands are batch-create, list`},
		{"listing the config", []string{"config", "list"}, `unknown command "list" for "dbgov config"; did you mean one of ["list-profiles" "view"]?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := cmdtest.Run(t, cmdtest.Options{}, tt.args...).Expect(t, 2).StderrHas(t, tt.want)
			if strings.Contains(res.Stderr, `\t`) || strings.Contains(res.Stderr, "\t") {
				t.Errorf("stderr holds a tab: %q", res.Stderr)
			}
		})
	}
	if res := cmdtest.Run(t, cmdtest.Options{}, "config", "list"); !strings.Contains(res.Stderr, "view") {
		t.Errorf("config list does not point to view: %s", res.Stderr)
	}
}

func TestRun_versionFlagAnswersAsTheVersionCommand(t *testing.T) {
	for _, extra := range [][]string{nil, {"-o", "json"}, {"--jq", ".commit"}} {
		flag := cmdtest.Run(t, cmdtest.Options{}, append([]string{"--version"}, extra...)...).Expect(t, 0)
		cmd := cmdtest.Run(t, cmdtest.Options{}, append([]string{"version"}, extra...)...).Expect(t, 0)
		if flag.Stdout != cmd.Stdout || flag.Stdout == "" {
			t.Errorf("dbgov --version %s printed %q, dbgov version %q", strings.Join(extra, " "), flag.Stdout, cmd.Stdout)
		}
	}
}

// complete asks what a shell would offer after args, and returns the
// candidates (with their descriptions) and the directive line.
func complete(t *testing.T, args ...string) (candidates []string, directive string) {
	t.Helper()
	res := cmdtest.Run(t, cmdtest.Options{}, append([]string{"__complete"}, args...)...).Expect(t, 0)
	lines := strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

func TestCompletion_offersNoFileNamesForIDs(t *testing.T) {
	tests := [][]string{
		{"policies", "list", "--instance", ""},
		{"policies", "list", "--database", ""},
		{"catalog", "update", "--database", ""},
		{"revisions", "batch-create", "--instance", ""},
		{"schema", "diff", "--changelog", ""},
		{"schema", "diff", "--target-changelog", ""},
		{"users", "batch-get", ""},
		{"users", "batch-get", "a@x.com", ""},
		{"users", "undelete", ""},
		{"review-configs", "get", ""},
		{"version", ""},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			// 4 is cobra.ShellCompDirectiveNoFileComp.
			if _, directive := complete(t, args...); directive != ":4" {
				t.Errorf("directive %s, want :4 (no file names)", directive)
			}
		})
	}
	// A flag that takes a file still completes file names.
	if _, directive := complete(t, "revisions", "batch-create", "-f", ""); directive != ":0" {
		t.Errorf("-f FILE: directive %s, want :0 (file names)", directive)
	}
}

func TestCompletion_flagDescriptionsHaveNoBackticks(t *testing.T) {
	for _, args := range [][]string{{"idps", "list", "--"}, {"dev-server", "--"}, {"policies", "list", "--"}, {"schema", "diff", "--"}} {
		candidates, _ := complete(t, args...)
		if len(candidates) < 5 {
			t.Fatalf("%s: only %q", args, candidates)
		}
		for _, c := range candidates {
			if strings.Contains(c, "`") {
				t.Errorf("completion shows a backtick: %q", c)
			}
		}
	}
	// The help still names the value.
	if res := cmdtest.Run(t, cmdtest.Options{}, "options"); !strings.Contains(res.Stdout, "--jq expression") {
		t.Errorf("options lost the value name of --jq:\n%s", res.Stdout)
	}
}

func TestRun_filterErrorsOnATerminalArePlain(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"jq that does not parse", []string{"version", "--jq", ".["}, exitcode.Usage},
		{"jq that fails", []string{"version", "--jq", ".version | tonumber"}, exitcode.Failure},
		{"template that does not parse", []string{"version", "--template", "{{.version"}, exitcode.Usage},
		{"template that fails", []string{"version", "--template", "{{index .version 99}}"}, exitcode.Failure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runAt(t, 80, tt.args...).Expect(t, tt.code)
			lines := strings.Split(strings.TrimSuffix(res.Stderr, "\n"), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "dbgov: ") || !strings.HasPrefix(lines[1], "hint: ") || !strings.Contains(lines[1], "dbgov help formatting") {
				t.Errorf("stderr on a terminal is not a plain line and a hint:\n%s", res.Stderr)
			}
			// Piped, the error stays one line of JSON, with the hint.
			res = runAt(t, 0, tt.args...).Expect(t, tt.code)
			var line struct{ Error struct{ Hint string } }
			if err := json.Unmarshal([]byte(res.Stderr), &line); err != nil || line.Error.Hint == "" {
				t.Errorf("piped stderr is not one JSON line with a hint (%v): %q", err, res.Stderr)
			}
		})
	}
	// Other errors under --jq stay JSON lines on a terminal too.
	res := runAt(t, 80, "review-configs", "get", "a/b", "--jq", ".").Expect(t, exitcode.Usage)
	if !strings.HasPrefix(res.Stderr, `{"error":`) {
		t.Errorf("a usage error under --jq on a terminal: %q", res.Stderr)
	}
}

func TestRun_namesFromATerminalAreAskedFor(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register("GET", "/v1/users:batchGet", 200, `{"users": [{"name": "users/a@x.com"}]}`)
	for _, tty := range []bool{true, false} {
		ios, in, _, errOut := cmdtest.Streams()
		in.WriteString("a@x.com\n")
		ios.InTTY = tty
		env := map[string]string{"DBGOV_URL": reg.URL(), "DBGOV_TOKEN": "t", "DBGOV_CONFIG": filepath.Join(t.TempDir(), "c.yaml")}
		code := root.Run(context.Background(), factory.New(ios, "v", "c", func(k string) string { return env[k] }), []string{"users", "batch-get", "-", "-o", "name"})
		said := strings.Contains(errOut.String(), "Reading user names from stdin, one a line; press Ctrl-D to end.")
		if code != 0 || said != tty {
			t.Errorf("stdin a terminal %v: exit %d, stderr %q", tty, code, errOut)
		}
	}
}

// blockedStdin is a stdin that never ends.
func blockedStdin(t *testing.T) io.Reader {
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	return r
}

func TestRun_signalWhileReadingStdinEndsAtOnce(t *testing.T) {
	tests := []struct {
		name  string
		cause error
		json  bool
		code  int
		want  string
	}{
		{"SIGINT", exitcode.ErrInterrupted, false, exitcode.Interrupted, "dbgov: interrupted\n"},
		{"SIGTERM", exitcode.ErrTerminated, false, exitcode.Terminated, "dbgov: terminated\n"},
		{"SIGINT under -o json", exitcode.ErrInterrupted, true, exitcode.Interrupted, `{"error":{"code":"INTERRUPTED","message":"interrupted","exitCode":130}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, out, errOut := cmdtest.Streams()
			ios.In = blockedStdin(t)
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(100*time.Millisecond, func() { cancel(tt.cause) })
			args := []string{"users", "batch-get", "-"}
			if tt.json {
				args = append(args, "-o", "json")
			}
			env := map[string]string{"DBGOV_URL": "http://127.0.0.1:1", "DBGOV_CONFIG": filepath.Join(t.TempDir(), "c.yaml")}
			start := time.Now()
			code := root.Run(ctx, factory.New(ios, "v", "c", func(k string) string { return env[k] }), args)
			if took := time.Since(start); code != tt.code || errOut.String() != tt.want || out.Len() != 0 {
				t.Errorf("exit %d after %s, stderr %q, stdout %q; want %d and %q", code, took, errOut, out, tt.code, tt.want)
			}
		})
	}
}
