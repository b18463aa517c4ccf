package e2e_test

import (
	"os"
	"strings"
	"testing"
)

func TestConfig_profilesCarryTheURLAndToken(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	// Only the config file: no DBGOV_URL or DBGOV_TOKEN in the environment.
	c := newCLI(t, srv).without("DBGOV_URL", "DBGOV_TOKEN")
	getAlice := []string{"users", "batch-get", "alice@example.com", "-o", "name"}

	// The steps edit one config file, so they run in order.
	t.Run("nothing set: no URL", func(t *testing.T) {
		r := c.run(t, getAlice...).expect(t, 2)
		r.stderrIsErrorLine(t, "config set url")
	})

	t.Run("an empty config views as {}", func(t *testing.T) {
		c.run(t, "config", "view").expect(t, 0).stdoutIs(t, "{}\n")
	})

	t.Run("set url and token, then a command uses them", func(t *testing.T) {
		c.run(t, "config", "set", "url", srv.url).expect(t, 0).stdoutEmpty(t)
		c.run(t, "config", "set", "token", "dev-admin-token").expect(t, 0).stdoutEmpty(t)
		c.run(t, getAlice...).expect(t, 0).stdoutIs(t, "users/alice@example.com\n")
	})

	t.Run("the config file is private", func(t *testing.T) {
		info, err := os.Stat(c.env["DBGOV_CONFIG"])
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("config file mode %v: others may read the token", perm)
		}
	})

	t.Run("view masks the token", func(t *testing.T) {
		r := c.run(t, "config", "view").expect(t, 0)
		r.stdoutIs(t, "profiles:\n  default:\n    url: "+srv.url+"\n    token: '********'\n")
	})

	t.Run("view shows the token when asked", func(t *testing.T) {
		c.run(t, "config", "view", "--show-secrets").expect(t, 0).stdoutHas(t, "token: dev-admin-token")
	})

	t.Run("get", func(t *testing.T) {
		c.run(t, "config", "get", "url").expect(t, 0).stdoutIs(t, srv.url+"\n")
		c.run(t, "config", "get", "token").expect(t, 0).stdoutIs(t, "********\n")
	})

	t.Run("the environment wins over the file", func(t *testing.T) {
		r := c.with("DBGOV_TOKEN", "not-a-token").run(t, getAlice...).expect(t, 3)
		r.stderrIsErrorLine(t, "(HTTP 401 UNAUTHENTICATED)")
	})

	t.Run("set token from stdin", func(t *testing.T) {
		c.runStdin(t, "dev-readonly-token\n", "config", "set", "token", "-").expect(t, 0).stdoutEmpty(t)
		c.run(t, "config", "get", "token", "--show-secrets").expect(t, 0).stdoutIs(t, "dev-readonly-token\n")
		// The read-only token now in the file reads but may not update.
		c.run(t, getAlice...).expect(t, 0)
		f := c.file(t, "catalog.yaml", catalogYAML)
		r := c.run(t, "catalog", "update", "--instance", "prod-pg", "--database", "orders", "-f", f).expect(t, 4)
		r.stderrIsErrorLine(t, "users/viewer@example.com", "svc.databaseCatalogs.update")
	})

	t.Run("another profile, chosen by flag, environment and use-profile", func(t *testing.T) {
		c.run(t, "config", "set", "url", srv.url, "--profile", "ci").expect(t, 0)
		c.run(t, "config", "set", "token", "dev-admin-token", "--profile", "ci").expect(t, 0)
		c.run(t, "config", "set", "url", "http://127.0.0.1:1", "--profile", "broken").expect(t, 0)

		f := c.file(t, "catalog.yaml", catalogYAML)
		update := []string{"catalog", "update", "--instance", "prod-pg", "--database", "orders", "-f", f, "-o", "name"}
		c.run(t, append(update, "--profile", "ci")...).expect(t, 0)
		c.with("DBGOV_PROFILE", "ci").run(t, update...).expect(t, 0)
		c.run(t, update...).expect(t, 4) // default: the read-only token

		c.run(t, "config", "use-profile", "ci").expect(t, 0)
		c.run(t, update...).expect(t, 0)
		r := c.run(t, "config", "view").expect(t, 0)
		r.stdoutHas(t, "current_profile: ci", "  ci:\n", "  broken:\n", "  default:\n")
		r.stdoutLacks(t, "dev-admin-token", "dev-readonly-token")
	})

	t.Run("unset", func(t *testing.T) {
		c.run(t, "config", "unset", "token").expect(t, 0)
		c.run(t, "config", "get", "token").expect(t, 1).stderrHas(t, "token is not set in profile ci")
		r := c.run(t, getAlice...).expect(t, 3)
		r.stderrIsErrorLine(t)
	})

	t.Run("an unknown key is a usage error", func(t *testing.T) {
		r := c.run(t, "config", "set", "colour", "blue").expect(t, 2)
		r.stderrIsErrorLine(t, "colour")
	})
}

func TestConfig_viewHonoursJSONOutput(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run(t, "config", "set", "url", "https://gov.example.com").expect(t, 0)
	r := c.run(t, "config", "view", "-o", "json").expect(t, 0)
	if got := field(t, r.jsonOut(t), "profiles", "default", "url"); got != "https://gov.example.com" {
		t.Errorf("profiles.default.url = %v", got)
	}
}

func TestVersion_printsTheStampedVersionWithoutConfiguration(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)

	r := c.run(t, "version").expect(t, 0)
	if !strings.HasPrefix(r.stdout, "dbgov e2e ") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("want one line \"dbgov e2e ...\"\n%s", r.dump())
	}

	r = c.run(t, "version", "-o", "json").expect(t, 0)
	if got := field(t, r.jsonOut(t), "client", "version"); got != "e2e" {
		t.Errorf("version = %v, want e2e", got)
	}

	// A broken configuration does not stop version.
	broken := c.with("DBGOV_OUTPUT", "xml", "DBGOV_TIMEOUT", "never")
	c.file(t, "config.yaml", "profiles: [not, a, map\n")
	broken.run(t, "version").expect(t, 0).stdoutHas(t, "dbgov e2e")
}

func TestCompletion_printsAScriptPerShell(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)

	tests := []struct {
		shell string
		want  string
	}{
		{shell: "bash", want: "bash completion"},
		{shell: "zsh", want: "#compdef dbgov"},
		{shell: "fish", want: "fish completion"},
		{shell: "powershell", want: "powershell completion"},
	}
	for _, tt := range tests {
		t.Run(tt.shell, func(t *testing.T) {
			r := c.run(t, "completion", tt.shell).expect(t, 0)
			r.stdoutHas(t, tt.want, "dbgov")
			if r.stderr != "" {
				t.Errorf("stderr should be empty\n%s", r.dump())
			}
		})
	}

	t.Run("__complete offers command names", func(t *testing.T) {
		r := c.run(t, "__complete", "us").expect(t, 0)
		r.stdoutHas(t, "users")
	})

	t.Run("unknown shell is a usage error", func(t *testing.T) {
		r := c.run(t, "completion", "tcsh").expect(t, 2)
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t, "tcsh")
	})
}

func TestDevServer_printsItsURLAndStopsOnInterrupt(t *testing.T) {
	t.Parallel()
	srv := startServer(t)

	wants := []string{
		"listening on " + srv.url,
		"export DBGOV_URL=" + srv.url + " DBGOV_TOKEN=dev-admin-token",
		"dev-readonly-token",
		"ci-bot@example.com",
		"dev-ci-bot-key",
	}
	var out string
	waitFor(startTimeout, func() bool { // the banner's lines after the export line may still be coming
		out = srv.stdout.String()
		return strings.Contains(out, wants[len(wants)-1])
	})
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("the banner lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(srv.url, "http://127.0.0.1:") || strings.HasSuffix(srv.url, ":0") {
		t.Errorf("URL %q is not a loopback address with the port chosen", srv.url)
	}

	c := newCLI(t, srv)
	c.run(t, "review-configs", "get", "sql-review-prod", "-o", "name").expect(t, 0)
	srv.stop(t) // checks the exit status 0 after SIGINT
	r := c.run(t, "review-configs", "get", "sql-review-prod", "-o", "name", "--timeout", "2s")
	if r.code != 8 {
		t.Errorf("after the stop, a call should find no answer (exit 8)\n%s", r.dump())
	}
}

func TestDevServer_refusesABadAddress(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run(t, "dev-server", "--addr", "not-an-address").expect(t, 2)
	r.stdoutEmpty(t)
	r.stderrIsErrorLine(t, "not-an-address")
}
