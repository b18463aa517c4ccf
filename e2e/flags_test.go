package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestDebug_logsExchangesWithoutSecrets(t *testing.T) {
	srv, c := start(t)

	tests := []struct {
		name, stdout          string
		cli                   *cli
		args, secrets, logged []string
	}{
		{
			name:    "token",
			args:    []string{"users", "batch-get", "carol@example.com", "-o", "name", "--debug"},
			stdout:  "users/carol@example.com\n",
			secrets: []string{"dev-admin-token", "JBSWY3DPEHPK3PXP", "a1b2-c3d4"},
			logged:  []string{"GET " + srv.url + "/v1/users:batchGet", "200"},
		},
		{
			name:    "service account",
			cli:     c.without("DBGOV_TOKEN").with("DBGOV_SERVICE_ACCOUNT", "ci-bot@example.com", "DBGOV_SERVICE_KEY", "dev-ci-bot-key", "DBGOV_DEBUG", "1"),
			args:    []string{"users", "batch-get", "alice@example.com", "-o", "name"},
			stdout:  "users/alice@example.com\n",
			secrets: []string{"dev-ci-bot-key"},
			logged:  []string{"POST " + srv.url + "/v1/auth/login", "GET " + srv.url + "/v1/users:batchGet"},
		},
		{
			name:    "identity provider secrets",
			cli:     c.without("DBGOV_TOKEN"),
			args:    []string{"idps", "list", "-o", "name", "--debug"},
			stdout:  "idps/google\nidps/okta\nidps/corp-ldap\n",
			secrets: []string{"dev-oauth2-client-secret", "dev-oidc-client-secret", "dev-ldap-bind-password"},
			logged:  []string{"GET " + srv.url + "/v1/idps"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := c
			if tt.cli != nil {
				run = tt.cli
			}
			r := run.run(t, tt.args...).expect(t, 0)
			r.stdoutIs(t, tt.stdout)
			r.stderrHas(t, tt.logged...)
			for _, s := range tt.secrets {
				if strings.Contains(r.stderr, s) {
					t.Errorf("the debug log shows the secret %q\n%s", s, r.dump())
				}
			}
		})
	}

	t.Run("the service account's token is redacted", func(t *testing.T) {
		r := c.without("DBGOV_TOKEN").run(t, "users", "batch-get", "alice@example.com", "-o", "name", "--debug",
			"--service-account", "ci-bot@example.com", "--service-key", "dev-ci-bot-key").expect(t, 0)
		for _, line := range strings.Split(r.stderr, "\n") {
			if strings.Contains(line, `"token"`) && !strings.Contains(line, `"********"`) {
				t.Errorf("the login answer shows its token: %s", line)
			}
			if strings.HasPrefix(line, "> Authorization:") && !strings.Contains(line, "********") {
				t.Errorf("the Authorization header is shown: %s", line)
			}
		}
	})
}

func TestHeader_authorizationHeaderStandsInForAToken(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := newCLI(t, srv).without("DBGOV_TOKEN")

	r := c.run(t, "users", "batch-get", "alice@example.com", "-o", "name", "--header", "Authorization: Bearer dev-readonly-token").expect(t, 0)
	r.stdoutIs(t, "users/alice@example.com\n")

	f := c.file(t, "catalog.yaml", catalogYAML)
	r = c.run(t, "catalog", "update", "--instance", "prod-pg", "--database", "orders", "-f", f,
		"--header", "Authorization: Bearer dev-readonly-token").expect(t, 4)
	r.stderrIsErrorLine(t, "users/viewer@example.com")

	t.Run("a malformed header is a usage error", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, "users", "batch-get", "alice@example.com", "--header", "no colon here").expect(t, 2)
		})
		if len(sent) != 0 {
			t.Errorf("requests sent: %q", sent)
		}
		r.stderrIsErrorLine(t)
	})
}

func TestTable_escapesControlCharactersFromTheService(t *testing.T) {
	_, c := start(t)
	f := c.file(t, "hostile.json", `{"schemas": [{"name": "pub\u001b[2Jlic", "tables": [{"name": "t\u0007x", "columns": {"columns": [{"name": "c\r\nd"}]}}]}]}`)

	r := c.run(t, "catalog", "update", "--instance", "prod-pg", "--database", "orders", "-f", f).expect(t, 0)
	if strings.ContainsAny(r.stdout, "\x1b\x07\r") {
		t.Errorf("the table sends control characters raw: %q", r.stdout)
	}
	rows := tableRows(t, r.stdout)
	if len(rows) != 2 {
		t.Fatalf("want a table row and a column row\n%s", r.dump())
	}
	for _, row := range rows {
		if !strings.Contains(row["SCHEMA"], "pub") || !strings.Contains(row["SCHEMA"], "lic") {
			t.Errorf("schema cell %q should show the name, escaped", row["SCHEMA"])
		}
	}

	// JSON keeps the values as they are, encoded.
	r = c.run(t, "catalog", "update", "--instance", "prod-pg", "--database", "orders", "-f", f, "--jq", ".schemas[0].tables[0].columns.columns[0].name | @json").expect(t, 0)
	r.stdoutIs(t, `"c\r\nd"`+"\n")
}

func TestInterrupt_stopsAWaitingCallWithExit130(t *testing.T) {
	t.Parallel()
	// A service that accepts connections and never answers.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- conn
		}
	}()
	t.Cleanup(func() {
		l.Close()
		for {
			select {
			case conn := <-accepted:
				conn.Close()
			default:
				return
			}
		}
	})

	c := newCLI(t, nil).with("DBGOV_URL", "http://"+l.Addr().String(), "DBGOV_TOKEN", "t")
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := c.command(ctx, "review-configs", "get", "sql-review-prod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case conn := <-accepted:
		accepted <- conn // closed by the cleanup
	case <-time.After(startTimeout):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("dbgov did not connect within %s", startTimeout)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 130 {
		t.Fatalf("after SIGINT: %v, want exit 130\nstderr:\n%s", err, &stderr)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("dbgov took %s to stop after SIGINT", waited)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout should be empty, got %q", stdout.String())
	}
	if !strings.HasPrefix(stderr.String(), "dbgov: ") || !strings.Contains(stderr.String(), "interrupt") {
		t.Errorf("stderr should say it was interrupted, got %q", stderr.String())
	}
}
