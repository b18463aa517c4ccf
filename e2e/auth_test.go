package e2e_test

import (
	"slices"
	"testing"
)

func TestAuth_credentialsAndTheirExitCodes(t *testing.T) {
	srv, c := start(t)
	getAlice := []string{"users", "batch-get", "alice@example.com", "-o", "name"}
	catalog := c.file(t, "catalog.yaml", catalogYAML)
	updateCatalog := []string{"catalog", "update", "--instance", "prod-pg", "--database", "orders", "-f", catalog}
	const login = "POST /v1/auth/login 200"
	const batchGet = "GET /v1/users:batchGet 200"

	t.Run("no token where one is needed", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.without("DBGOV_TOKEN").run(t, getAlice...).expect(t, 3) })
		if len(sent) != 0 {
			t.Errorf("requests sent without credentials: %q", sent)
		}
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t)
		r.stderrHas(t, "--token")
	})

	t.Run("no token, as a JSON line", func(t *testing.T) {
		r := c.without("DBGOV_TOKEN").run(t, "users", "batch-get", "alice@example.com", "-o", "json").expect(t, 3)
		r.stdoutEmpty(t)
		if e := r.jsonError(t); e["code"] != "UNAUTHENTICATED" {
			t.Errorf("error code = %v, want UNAUTHENTICATED", e["code"])
		}
	})

	t.Run("a bad token", func(t *testing.T) {
		r := c.with("DBGOV_TOKEN", "not-a-token").run(t, getAlice...).expect(t, 3)
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t, "(HTTP 401 UNAUTHENTICATED)")
	})

	t.Run("the flag wins over the environment", func(t *testing.T) {
		c.with("DBGOV_TOKEN", "not-a-token").run(t, append(slices.Clone(getAlice), "--token", "dev-admin-token")...).expect(t, 0)
	})

	t.Run("the read-only token reads", func(t *testing.T) {
		c.with("DBGOV_TOKEN", "dev-readonly-token").run(t, getAlice...).expect(t, 0).
			stdoutIs(t, "users/alice@example.com\n")
	})

	t.Run("the read-only token may not update a catalog", func(t *testing.T) {
		r := c.with("DBGOV_TOKEN", "dev-readonly-token").run(t, updateCatalog...).expect(t, 4)
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t, "svc.databaseCatalogs.update", "(HTTP 403 PERMISSION_DENIED)")
	})

	t.Run("permission denied as a JSON line", func(t *testing.T) {
		r := c.with("DBGOV_TOKEN", "dev-readonly-token").run(t, append(slices.Clone(updateCatalog), "--jq", ".name")...).expect(t, 4)
		r.stdoutEmpty(t)
		r.apiErrorIs(t, "403", "PERMISSION_DENIED", "svc.databaseCatalogs.update")
	})

	t.Run("a service account logs in with its key", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.without("DBGOV_TOKEN").run(t, append(slices.Clone(getAlice),
				"--service-account", "ci-bot@example.com", "--service-key", "dev-ci-bot-key")...).expect(t, 0)
		})
		r.stdoutIs(t, "users/alice@example.com\n")
		if want := []string{login, batchGet}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want a login then the call: %q", sent, want)
		}
	})

	t.Run("a service account from the environment updates a catalog", func(t *testing.T) {
		r := c.without("DBGOV_TOKEN").with("DBGOV_SERVICE_ACCOUNT", "ci-bot@example.com", "DBGOV_SERVICE_KEY", "dev-ci-bot-key").
			run(t, append(slices.Clone(updateCatalog), "-o", "name")...).expect(t, 0)
		r.stdoutHas(t, "instances/prod-pg/databases/orders/catalog")
	})

	t.Run("a service account lacking a permission", func(t *testing.T) {
		r := c.without("DBGOV_TOKEN").run(t, "users", "undelete", "bob@example.com",
			"--service-account", "ci-bot@example.com", "--service-key", "dev-ci-bot-key").expect(t, 4)
		r.stderrIsErrorLine(t, "svc.users.undelete", "(HTTP 403 PERMISSION_DENIED)")
	})

	t.Run("a wrong service key", func(t *testing.T) {
		r := c.without("DBGOV_TOKEN").run(t, append(slices.Clone(getAlice),
			"--service-account", "ci-bot@example.com", "--service-key", "wrong")...).expect(t, 3)
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t, "(HTTP 401 UNAUTHENTICATED)")
	})

	t.Run("a token wins over a service account", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.with("DBGOV_TOKEN", "dev-readonly-token").run(t, append(slices.Clone(updateCatalog),
				"--service-account", "ci-bot@example.com", "--service-key", "dev-ci-bot-key")...).expect(t, 4)
		})
		if slices.Contains(sent, login) {
			t.Errorf("dbgov logged in although a token was given: %q", sent)
		}
		r.stderrIsErrorLine(t, "users/viewer@example.com")
	})
}

func TestUsage_errorsExitTwoAndSendNothing(t *testing.T) {
	srv, c := start(t)

	tests := []struct {
		name, stdin    string
		cli            *cli
		args, inStderr []string
		jsonErr        bool // --jq and --template give errors as a JSON line
	}{
		{name: "unknown flag", args: []string{"users", "batch-get", "alice@example.com", "--bogus"}, inStderr: []string{"--bogus"}},
		{name: "unknown output format", args: []string{"users", "batch-get", "alice@example.com", "-o", "xml"}, inStderr: []string{"xml"}},
		{name: "unknown output format from the environment", cli: c.with("DBGOV_OUTPUT", "csv"), args: []string{"review-configs", "get", "sql-review-prod"}, inStderr: []string{"csv"}},
		{name: "no URL", cli: c.without("DBGOV_URL"), args: []string{"review-configs", "get", "sql-review-prod"}, inStderr: []string{"DBGOV_URL"}},
		{name: "unknown command", args: []string{"frobnicate"}, inStderr: []string{"frobnicate"}},
		{name: "missing argument", args: []string{"review-configs", "get"}},
		{name: "too many arguments", args: []string{"review-configs", "get", "a", "b"}},
		{name: "no user names", args: []string{"users", "batch-get"}},
		{name: "an id with a slash", args: []string{"review-configs", "get", "a/b"}},
		{name: "an empty user", args: []string{"users", "batch-get", ""}},
		{name: "a bad jq expression", args: []string{"users", "batch-get", "alice@example.com", "--jq", ".users[[["}, jsonErr: true},
		{name: "a bad template", args: []string{"users", "batch-get", "alice@example.com", "--template", "{{.users"}, jsonErr: true},
		{name: "database without instance", args: []string{"schema", "diff", "--database", "orders", "--changelog", "101", "--target-changelog", "102"}, inStderr: []string{"instance"}},
		{name: "no database", args: []string{"schema", "diff", "--instance", "prod-pg", "--changelog", "101", "--target-changelog", "102"}, inStderr: []string{"--database"}},
		{name: "bad timeout", args: []string{"review-configs", "get", "sql-review-prod", "--timeout", "soon"}, inStderr: []string{"soon"}},
		{name: "target changelog of another database", args: []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--target-changelog", "instances/prod-pg/databases/inventory/changelogs/201"},
			inStderr: []string{"--target-changelog", "is not a changelog of instances/prod-pg/databases/orders"}},
		{name: "file revision without a sheet", args: []string{"revisions", "batch-create", "--instance", "prod-pg", "--database", "orders", "-f", "-"},
			stdin: "- {version: \"9.0.0\", type: VERSIONED}\n", inStderr: []string{`entry 1 (version "9.0.0"): sheet is required`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := c
			if tt.cli != nil {
				run = tt.cli
			}
			var r result
			sent := srv.sent(t, func() { r = run.runStdin(t, tt.stdin, tt.args...).expect(t, 2) })
			if len(sent) != 0 {
				t.Errorf("a usage error sent %q", sent)
			}
			r.stdoutEmpty(t)
			if tt.jsonErr {
				if e := r.jsonError(t); e["code"] != "USAGE" {
					t.Errorf("error code = %v, want USAGE", e["code"])
				}
				return
			}
			r.stderrIsErrorLine(t, tt.inStderr...)
		})
	}
}

func TestErrors_areOneJSONLineWithJSONOutput(t *testing.T) {
	_, c := start(t)

	tests := []struct {
		name, httpStatus, code string
		cli                    *cli
		args                   []string
	}{
		{name: "json, not found", args: []string{"review-configs", "get", "nope", "-o", "json"}, httpStatus: "404", code: "NOT_FOUND"},
		{name: "jq, not found", args: []string{"review-configs", "get", "nope", "--jq", ".name"}, httpStatus: "404", code: "NOT_FOUND"},
		{name: "template, not found", args: []string{"users", "batch-get", "nobody@example.com", "--template", "{{.users}}"}, httpStatus: "404", code: "NOT_FOUND"},
		{name: "json, rejected", args: []string{"users", "undelete", "alice@example.com", "-o", "json"}, httpStatus: "400", code: "INVALID_ARGUMENT"},
		{name: "json, unauthenticated", args: []string{"review-configs", "get", "sql-review-prod", "-o", "json", "--token", "bad"}, httpStatus: "401", code: "UNAUTHENTICATED"},
		{name: "json from the environment", cli: c.with("DBGOV_OUTPUT", "json"), args: []string{"review-configs", "get", "nope"}, httpStatus: "404", code: "NOT_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := c
			if tt.cli != nil {
				run = tt.cli
			}
			r := run.run(t, tt.args...)
			if r.code == 0 {
				t.Fatalf("want a failure\n%s", r.dump())
			}
			r.stdoutEmpty(t)
			r.apiErrorIs(t, tt.httpStatus, tt.code, "")
		})
	}

	t.Run("a usage error too", func(t *testing.T) {
		r := c.run(t, "review-configs", "get", "a/b", "-o", "json").expect(t, 2)
		r.stdoutEmpty(t)
		if e := r.jsonError(t); e["message"] == "" {
			t.Errorf("error has no message: %v", e)
		}
	})
}
