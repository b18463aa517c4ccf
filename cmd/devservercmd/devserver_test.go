package devservercmd_test

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/devserver"
)

func TestDevServer_printsBannerAndStopsGracefully(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	res := cmdtest.Run(t, cmdtest.Options{Ctx: ctx}, "dev-server", "--addr", "127.0.0.1:0").Expect(t, 0)
	for _, want := range []string{"dbgov reference server listening on http://127.0.0.1:", "answering as release 3.14.1", "export DBGOV_URL=http://127.0.0.1:", "DBGOV_TOKEN=dev-admin-token", "dev-readonly-token", "ci-bot@example.com",
		"export ACTIONS_ID_TOKEN_REQUEST_URL=http://127.0.0.1:", "/test/oidc/token?api-version=2.0 ACTIONS_ID_TOKEN_REQUEST_TOKEN=dev-actions-request-token"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("banner lacks %q:\n%s", want, res.Stdout)
		}
	}
	if res.Stderr != "" {
		t.Errorf("stderr %q", res.Stderr)
	}
}

func TestDevServer_usage(t *testing.T) {
	badSeed := cmdtest.WriteFile(t, "seed.json", `{"userz": []}`)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"seed with an unknown field", []string{"--seed", badSeed}, "userz"},
		{"missing seed", []string{"--seed", filepath.Join(t.TempDir(), "nope.json")}, "nope.json"},
		{"seed and generate", []string{"--seed", badSeed, "--generate-users", "10"}, "cannot be used together"},
		{"negative size", []string{"--generate-users", "-1"}, "0 or more"},
		{"no token lifetime", []string{"--token-lifetime", "0s"}, "positive duration"},
		{"bad address", []string{"--addr", "nowhere"}, "listen on"},
		{"arguments", []string{"extra"}, "unknown command"},
		{"release before 3.13", []string{"--release", "3.12.0"}, "release \"3.12.0\" is not a release of the service from 3.13.0 on"},
		{"release not X.Y.Z", []string{"--release", "3.21"}, "3.21.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"dev-server"}, tt.args...)
			cmdtest.Run(t, cmdtest.Options{}, args...).Expect(t, 2).StderrHas(t, tt.want)
		})
	}
}

func TestDevServer_printSeedPrintsTheDemoDataAsASeed(t *testing.T) {
	res := cmdtest.Run(t, cmdtest.Options{}, "dev-server", "--print-seed").Expect(t, 0)
	if res.Stdout != string(devserver.DemoSeed()) {
		t.Errorf("stdout is not the demo data:\n%.200s", res.Stdout)
	}
	if _, err := devserver.New(devserver.Options{Seed: strings.NewReader(res.Stdout)}); err != nil {
		t.Errorf("the printed seed does not load: %v", err)
	}
}

func TestDevServer_releaseIsAnswered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	res := cmdtest.Run(t, cmdtest.Options{Ctx: ctx}, "dev-server", "--addr", "127.0.0.1:0", "--release", "3.21.1").Expect(t, 0)
	if !strings.Contains(res.Stdout, "answering as release 3.21.1") {
		t.Errorf("banner:\n%s", res.Stdout)
	}
}

func TestDevServer_addressInUseIsAFailure(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	cmdtest.Run(t, cmdtest.Options{}, "dev-server", "--addr", busy.Addr().String()).Expect(t, 1).StderrHas(t, "listen on")
}

func TestDevServer_everyInterfaceIsReachedOnLoopback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	res := cmdtest.Run(t, cmdtest.Options{Ctx: ctx}, "dev-server", "--addr", "0.0.0.0:0").Expect(t, 0)
	if !strings.Contains(res.Stdout, "export DBGOV_URL=http://127.0.0.1:") {
		t.Errorf("banner:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stderr, "reachable from other hosts") {
		t.Errorf("no warning:\n%s", res.Stderr)
	}
}
