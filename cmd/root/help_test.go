package root_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/root"
	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/exitcode"
)

// runAt runs dbgov on a terminal width columns wide (0: piped).
func runAt(t *testing.T, width int, args ...string) cmdtest.Result {
	t.Helper()
	ios, _, out, errOut := cmdtest.Streams()
	ios.OutTTY, ios.ErrTTY, ios.TermWidth = width > 0, width > 0, width
	env := map[string]string{"DBGOV_CONFIG": filepath.Join(t.TempDir(), "config.yaml"), "HOME": t.TempDir(), "NO_COLOR": "1"}
	code := root.Run(context.Background(), factory.New(ios, "1.2.3-test", "abc1234", func(k string) string { return env[k] }), args)
	return cmdtest.Result{Stdout: out.String(), Stderr: errOut.String(), Code: code}
}

// commandPaths lists every command of dbgov by its arguments, help topics
// included.
func commandPaths(t *testing.T) [][]string {
	ios, _, _, _ := cmdtest.Streams()
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if !sub.Hidden {
				walk(sub, append(append([]string(nil), path...), sub.Name()))
			}
		}
	}
	walk(root.New(factory.New(ios, "v", "c", func(string) string { return "" })), nil)
	return paths
}

func TestHelp_atSixtyColumns(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"root", []string{"--help"}},
		{"group", []string{"users", "--help"}},
		{"verb", []string{"users", "batch-get", "--help"}},
		{"verb-with-flags", []string{"policies", "list", "--help"}},
		{"options", []string{"options"}},
		{"help-topic", []string{"help", "exit-codes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runAt(t, 60, tt.args...).Expect(t, 0)
			cmdtest.Golden(t, "help/"+tt.name, res.Stdout)
		})
	}
}

// TestHelp_everyCommand checks every command's help at 60 columns: no line
// wider (a terminal would break it mid-word), the command's own flags and
// not the global ones, which `dbgov options` lists.
func TestHelp_everyCommand(t *testing.T) {
	for _, path := range commandPaths(t) {
		t.Run(strings.Join(append([]string{"dbgov"}, path...), " "), func(t *testing.T) {
			res := runAt(t, 60, append(path, "--help")...).Expect(t, 0)
			for _, line := range strings.Split(res.Stdout, "\n") {
				// Only a word longer than the line may stick out.
				if utf8.RuneCountInString(line) > 60 && strings.Contains(strings.TrimSpace(line), " ") {
					t.Errorf("line wider than 60 columns: %q", line)
				}
			}
			if strings.Contains(res.Stdout, "Usage:") {
				if strings.Contains(res.Stdout, "--timeout") || strings.Contains(res.Stdout, "Global") {
					t.Errorf("help shows the global flags:\n%s", res.Stdout)
				}
				if !strings.Contains(strings.ReplaceAll(res.Stdout, "\n", " "), "'dbgov options' for the flags every command accepts.") {
					t.Errorf("help does not point to dbgov options:\n%s", res.Stdout)
				}
				res.StdoutHas(t, "-h, --help")
			}
		})
	}
	// Piped, help keeps its lines whole.
	if res := runAt(t, 0, "options").Expect(t, 0); !strings.Contains(res.Stdout, "default $XDG_CONFIG_HOME/dbgov/config.yaml, else ~/.config/dbgov/config.yaml") {
		t.Errorf("piped options broke a line:\n%s", res.Stdout)
	}
}

func TestHelp_topics(t *testing.T) {
	// Every variable the global flags name, and those read elsewhere.
	env := runAt(t, 0, "help", "environment").Expect(t, 0).Stdout
	vars := []string{"DBGOV_MAX_RESPONSE_SIZE", "DBGOV_NO_TOKEN_CACHE", "NO_COLOR", "XDG_CONFIG_HOME", "HTTPS_PROXY"}
	for _, word := range strings.Fields(runAt(t, 0, "options").Stdout) {
		if v := strings.Trim(word, "();=1,"); strings.HasPrefix(v, "DBGOV_") {
			vars = append(vars, v)
		}
	}
	if len(vars) < 12 {
		t.Fatalf("found only %q in the global flags", vars)
	}
	for _, v := range vars {
		if !strings.Contains(env, "\n  "+v) {
			t.Errorf("help environment does not describe %s:\n%s", v, env)
		}
	}

	codes := runAt(t, 0, "help", "exit-codes").Expect(t, 0).Stdout
	for _, code := range []int{exitcode.OK, exitcode.Failure, exitcode.Usage, exitcode.Auth, exitcode.Permission, exitcode.NotFound,
		exitcode.Rejected, exitcode.Service, exitcode.NoAnswer, exitcode.Differences, exitcode.Interrupted, exitcode.Terminated} {
		if !strings.Contains(codes, "\n  "+strconv.Itoa(code)+" ") {
			t.Errorf("help exit-codes does not explain %d:\n%s", code, codes)
		}
	}

	formatting := runAt(t, 0, "help", "formatting").Expect(t, 0).Stdout
	for _, fn := range []string{"join", "json", "pluck", "truncate", "upper", "lower"} {
		if !strings.Contains(formatting, "\n  "+fn+" ") {
			t.Errorf("help formatting does not describe the template function %s", fn)
		}
		// Each function it describes exists.
		runAt(t, 0, "version", "--template", "{{if false}}{{"+fn+"}}{{end}}").Expect(t, 0)
	}
}

// failingWriter is stdout on a full disk.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestHelp_thatCannotBeWrittenFails(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"users", "batch-get", "--help"}, {"help", "environment"}, {"options"}, {"users"}} {
		ios, _, _, errOut := cmdtest.Streams()
		ios.Out = failingWriter{}
		code := root.Run(context.Background(), factory.New(ios, "v", "c", func(string) string { return "" }), args)
		if code != exitcode.Failure || !strings.Contains(errOut.String(), "no space left on device") {
			t.Errorf("dbgov %s on a full disk: exit %d, stderr %q; want exit 1 saying why", strings.Join(args, " "), code, errOut)
		}
	}
}

func TestHelp_unknownTopicIsAUsageError(t *testing.T) {
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "catalog", "nosuch"}} {
		res := runAt(t, 0, args...).Expect(t, 2)
		if !strings.Contains(res.Stderr, `unknown command "nosuch"`) {
			t.Errorf("%v: stderr = %q, want it to name the unknown command", args, res.Stderr)
		}
		if res.Stdout != "" {
			t.Errorf("%v: stdout = %q, want nothing", args, res.Stdout)
		}
	}
}
