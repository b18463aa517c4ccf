package e2e_test

import (
	"slices"
	"strings"
	"testing"
)

// userState returns the state the server holds for a user, read with
// dbgov itself.
func userState(t *testing.T, c *cli, email string) string {
	t.Helper()
	r := c.run(t, "users", "batch-get", email, "--jq", ".users[0].state").expect(t, 0)
	return strings.TrimSpace(r.stdout)
}

func TestUsersUndelete_restoresADeletedUserOnce(t *testing.T) {
	srv, c := start(t)

	// The steps share the server's state, so they run in order.
	t.Run("dry-run prints the request and sends nothing", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, "users", "undelete", "bob@example.com", "--dry-run").expect(t, 0) })
		if len(sent) != 0 {
			t.Errorf("--dry-run sent %q", sent)
		}
		r.stdoutHas(t, "POST "+srv.url+"/v1/users/bob@example.com:undelete", `"name": "users/bob@example.com"`)
		if got := userState(t, c, "bob@example.com"); got != "DELETED" {
			t.Errorf("after --dry-run, bob is %s, want DELETED", got)
		}
	})

	t.Run("undelete makes the user active", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, "users", "undelete", "users/bob@example.com").expect(t, 0) })
		if want := []string{"POST /v1/users/bob@example.com:undelete 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
		rows := tableRows(t, r.stdout)
		cellsAre(t, rows, "NAME", "users/bob@example.com")
		cellsAre(t, rows, "STATE", "ACTIVE")
		if got := userState(t, c, "bob@example.com"); got != "ACTIVE" {
			t.Errorf("after undelete, bob is %s, want ACTIVE", got)
		}
	})

	for _, tt := range []struct {
		name, user, status string
		exit               int
	}{
		{"undeleting an active user is rejected", "bob@example.com", "(HTTP 400 INVALID_ARGUMENT)", 6},
		{"unknown user is not found", "nobody@example.com", "(HTTP 404 NOT_FOUND)", 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := c.run(t, "users", "undelete", tt.user).expect(t, tt.exit)
			r.stdoutEmpty(t)
			r.stderrIsErrorLine(t, tt.user, tt.status)
		})
	}

	t.Run("rejection as a JSON line", func(t *testing.T) {
		r := c.run(t, "users", "undelete", "bob@example.com", "-o", "json").expect(t, 6)
		r.stdoutEmpty(t)
		r.apiErrorIs(t, "400", "INVALID_ARGUMENT", "")
	})

	t.Run("json of the undeleted user", func(t *testing.T) {
		r := c.run(t, "users", "undelete", "erin@example.com", "-o", "json").expect(t, 0)
		doc := r.jsonOut(t)
		if doc["name"] != "users/erin@example.com" || doc["state"] != "ACTIVE" {
			t.Errorf("undeleted user = %v, want erin, ACTIVE", doc)
		}
	})

	t.Run("a name that cannot be a user is a usage error", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, "users", "undelete", "a/b@example.com").expect(t, 2) })
		if len(sent) != 0 {
			t.Errorf("requests sent: %q", sent)
		}
		r.stdoutEmpty(t)
	})
}

const catalogYAML = `# customers only: the update replaces the whole catalog
schemas:
  - name: public
    tables:
      - name: customers
        classification: "1-2"
        columns:
          columns:
            - name: id
            - name: email
              semanticType: email
              classification: "1-2"
              labels:
                pii: "true"
`

const catalogJSON = `{
  "name": "instances/prod-pg/databases/orders/catalog",
  "schemas": [
    {
      "name": "billing",
      "tables": [
        {
          "name": "payments",
          "classification": "1-3",
          "columns": {"columns": [
            {"name": "id"},
            {"name": "card_number", "semanticType": "credit-card", "labels": {"pci": "true"}}
          ]}
        }
      ]
    }
  ]
}
`

func TestCatalogUpdate_replacesTheCatalog(t *testing.T) {
	srv, c := start(t)
	yamlFile := c.file(t, "catalog.yaml", catalogYAML)
	jsonFile := c.file(t, "catalog.json", catalogJSON)
	orders := []string{"catalog", "update", "--instance", "prod-pg", "--database", "orders"}
	inventory := []string{"catalog", "update", "--instance", "prod-pg", "--database", "inventory"}

	// The steps share the server's state, so they run in order.
	t.Run("dry-run prints the request and sends nothing", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, append(slices.Clone(inventory), "-f", yamlFile, "--dry-run")...).expect(t, 0)
			c.run(t, append(slices.Clone(inventory), "-f", yamlFile, "--allow-missing", "--dry-run")...).expect(t, 2).
				stderrHas(t, "--allow-missing: no release of the service grants it")
		})
		if len(sent) != 0 {
			t.Errorf("--dry-run sent %q", sent)
		}
		r.stdoutHas(t, "PATCH "+srv.url+"/v1/instances/prod-pg/databases/inventory/catalog\n",
			`"name": "instances/prod-pg/databases/inventory/catalog"`, `"semanticType": "email"`)
	})

	t.Run("from YAML", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, append(slices.Clone(orders), "-f", yamlFile)...).expect(t, 0) })
		if want := []string{"PATCH /v1/instances/prod-pg/databases/orders/catalog 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
		rows := tableRows(t, r.stdout)
		cellsAre(t, rows, "SCHEMA", "public", "public", "public")
		cellsAre(t, rows, "TABLE", "customers", "customers", "customers")
		cellsAre(t, rows, "COLUMN", "", "id", "email")
		cellsAre(t, rows, "SEMANTIC TYPE", "", "", "email")
		cellsAre(t, rows, "CLASSIFICATION", "1-2", "", "1-2")
		cellsAre(t, rows, "LABELS", "", "", "pii=true")
	})

	t.Run("from JSON, with the full database name", func(t *testing.T) {
		r := c.run(t, "catalog", "update", "--database", "instances/prod-pg/databases/orders", "-f", jsonFile, "-o", "json").expect(t, 0)
		doc := r.jsonOut(t)
		if got := field(t, doc, "schemas", 0, "tables", 0, "columns", "columns", 1, "labels", "pci"); got != "true" {
			t.Errorf("card_number label pci = %v, want true", got)
		}
		if n := len(field(t, doc, "schemas").([]any)); n != 1 {
			t.Errorf("the catalog has %d schemas after the update, want 1: it replaces the whole catalog", n)
		}
	})

	t.Run("from stdin", func(t *testing.T) {
		r := c.runStdin(t, catalogYAML, append(slices.Clone(orders), "-f", "-", "--jq", ".schemas[].tables[].name")...).expect(t, 0)
		r.stdoutIs(t, "customers\n")
	})

	t.Run("a database never given a catalog has an empty one, which an update replaces", func(t *testing.T) {
		c.run(t, "catalog", "get", "--instance", "prod-pg", "--database", "inventory", "-o", "json").expect(t, 0).
			stdoutIs(t, "{\n  \"name\": \"instances/prod-pg/databases/inventory/catalog\"\n}\n")
		r := c.run(t, append(slices.Clone(inventory), "-f", yamlFile, "-o", "name")...).expect(t, 0)
		r.stdoutHas(t, "instances/prod-pg/databases/inventory/catalog")
	})

	bad := []struct {
		name     string
		file     string
		content  string
		inStderr []string
	}{
		{name: "unknown field", file: "bad-field.json", content: `{"schemas": [{"name": "public", "tabels": []}]}`, inStderr: []string{"tabels"}},
		{name: "wrong type", file: "bad-type.yaml", content: "schemas:\n  - name: public\n    tables: yes\n", inStderr: []string{"tables"}},
		{name: "not JSON or YAML", file: "bad-syntax.json", content: `{"schemas": [`},
		{name: "another database's catalog", file: "other.yaml", content: "name: instances/prod-pg/databases/inventory/catalog\n", inStderr: []string{"inventory"}},
	}
	for _, tt := range bad {
		t.Run("bad file: "+tt.name, func(t *testing.T) {
			path := c.file(t, tt.file, tt.content)
			var r result
			sent := srv.sent(t, func() { r = c.run(t, append(slices.Clone(orders), "-f", path)...).expect(t, 2) })
			if len(sent) != 0 {
				t.Errorf("a bad file sent %q", sent)
			}
			r.stdoutEmpty(t)
			r.stderrIsErrorLine(t, append([]string{tt.file}, tt.inStderr...)...)
		})
	}

	t.Run("missing file is a usage error", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(orders), "-f", "no-such-file.yaml")...).expect(t, 2)
		r.stderrIsErrorLine(t, "no-such-file.yaml")
	})

	t.Run("no file is a usage error", func(t *testing.T) {
		c.run(t, orders...).expect(t, 2).stdoutEmpty(t)
	})
}

const revisionsYAML = `- version: "3.0.0"
  type: VERSIONED
  file: migrations/3.0.0_status.sql
  sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50
  release: projects/orders/releases/3.0
- version: "3.1.0"
  type: VERSIONED
  file: migrations/3.1.0_index.sql
  sheet: projects/orders/sheets/c17edaae86e4016a583e098582f6dbf3eccade8ef83747df9ba617ded9d31309
  release: projects/orders/releases/3.1
- version: "3.2.0"
  type: VERSIONED
  file: migrations/3.2.0.sql
  release: releases/3.2
  sheet: projects/orders/sheets/c17edaae86e4016a583e098582f6dbf3eccade8ef83747df9ba617ded9d31309
`

func TestRevisionsBatchCreate_createsInBatchesAndReportsWhatWasCreated(t *testing.T) {
	srv, c := start(t)
	orders := []string{"revisions", "batch-create", "--instance", "prod-pg", "--database", "orders"}
	list := c.file(t, "revisions.yaml", revisionsYAML)

	// The steps share the server's state, so they run in order.
	t.Run("dry-run prints every batch and sends nothing but the release's question", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, append(slices.Clone(orders), "-f", list, "--batch-size", "2", "--dry-run")...).expect(t, 0)
		})
		if want := []string{"GET /v1/actuator/info 200"}; !slices.Equal(sent, want) {
			t.Errorf("--dry-run sent %q, want %q: sheet names depend on the release", sent, want)
		}
		if n := strings.Count(r.stdout, "POST "+srv.url+"/v1/instances/prod-pg/databases/orders/revisions:batchCreate"); n != 2 {
			t.Errorf("dry-run printed %d requests, want 2 batches\n%s", n, r.dump())
		}
		r.stdoutHas(t, `"parent": "instances/prod-pg/databases/orders"`, `"version": "3.2.0"`)
	})

	t.Run("a list in batches of two", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, append(slices.Clone(orders), "-f", list, "--batch-size", "2", "-o", "json")...).expect(t, 0)
		})
		post := "POST /v1/instances/prod-pg/databases/orders/revisions:batchCreate 200"
		if want := []string{post, post}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want two batches %q", sent, want)
		}
		var versions []string
		for _, rev := range field(t, r.jsonOut(t), "revisions").([]any) {
			versions = append(versions, rev.(map[string]any)["version"].(string))
		}
		if want := []string{"3.0.0", "3.1.0", "3.2.0"}; !slices.Equal(versions, want) {
			t.Errorf("created versions = %q, want %q", versions, want)
		}
	})

	t.Run("table of the created revisions", func(t *testing.T) {
		f := c.file(t, "one.yaml", "- {version: \"4.0.0\", type: DECLARATIVE, file: schema/orders.sql, sheet: projects/orders/sheets/c17edaae86e4016a583e098582f6dbf3eccade8ef83747df9ba617ded9d31309, release: projects/orders/releases/r1}\n")
		r := c.run(t, append(slices.Clone(orders), "-f", f)...).expect(t, 0)
		rows := tableRows(t, r.stdout)
		if len(rows) != 1 || !strings.HasPrefix(rows[0]["NAME"], "instances/prod-pg/databases/orders/revisions/") {
			t.Fatalf("want one revision row\n%s", r.dump())
		}
		cellsAre(t, rows, "VERSION", "4.0.0")
		cellsAre(t, rows, "TYPE", "DECLARATIVE")
		cellsAre(t, rows, "FILE", "schema/orders.sql")
	})

	t.Run("the full request body", func(t *testing.T) {
		f := c.file(t, "body.json", `{"parent": "instances/prod-pg/databases/orders",
  "requests": [{"revision": {"version": "5.0.0", "type": "VERSIONED", "file": "migrations/5.0.0.sql", "release": "releases/5.0", "sheet": "projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50"}}]}`)
		r := c.run(t, "revisions", "batch-create", "--database", "instances/prod-pg/databases/orders", "-f", f, "-o", "name").expect(t, 0)
		if got := lines(r.stdout); len(got) != 1 || !strings.HasPrefix(got[0], "instances/prod-pg/databases/orders/revisions/") {
			t.Errorf("want one revision name\n%s", r.dump())
		}
	})

	t.Run("a duplicate version stops and prints those created", func(t *testing.T) {
		f := c.file(t, "dup.yaml", `- {version: "6.0.0", type: VERSIONED, file: a.sql, release: releases/r, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
- {version: "6.1.0", type: VERSIONED, file: b.sql, release: releases/r, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
- {version: "3.0.0", type: VERSIONED, file: again.sql, release: releases/r, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
- {version: "6.2.0", type: VERSIONED, file: c.sql, release: releases/r, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
`)
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, append(slices.Clone(orders), "-f", f, "--batch-size", "1", "-o", "name")...).expect(t, 6)
		})
		post := "POST /v1/instances/prod-pg/databases/orders/revisions:batchCreate "
		if want := []string{post + "200", post + "200", post + "409"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want two created then the duplicate refused, and nothing after it: %q", sent, want)
		}
		if got := lines(r.stdout); len(got) != 2 {
			t.Errorf("stdout should name the 2 revisions created\n%s", r.dump())
		}
		r.stderrHas(t, "3.0.0", "ALREADY_EXISTS", "2 of 4")
		r.stdoutLacks(t, "dbgov:")
	})

	t.Run("a stop midway with -o json gives one JSON error line", func(t *testing.T) {
		f := c.file(t, "dup-json.yaml", "- {version: \"8.0.0\", type: VERSIONED, file: a.sql, release: releases/r, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n- {version: \"3.0.0\", type: VERSIONED, file: again.sql, release: releases/r, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n")
		r := c.run(t, append(slices.Clone(orders), "-f", f, "--batch-size", "1", "-o", "json")...).expect(t, 6)
		r.apiErrorIs(t, "409", "ALREADY_EXISTS", "")
		if got := field(t, r.jsonOut(t), "revisions", 0, "version"); got != "8.0.0" {
			t.Errorf("stdout should hold the revision created, got %v", got)
		}
	})

	t.Run("the earlier ones stay created", func(t *testing.T) {
		f := c.file(t, "again.yaml", "- {version: \"6.1.0\", type: VERSIONED, file: b.sql, release: releases/r, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n")
		r := c.run(t, append(slices.Clone(orders), "-f", f)...).expect(t, 6)
		r.stderrHas(t, "6.1.0", "(HTTP 409 ALREADY_EXISTS)")
	})

	t.Run("a rerun with skip-existing creates the rest", func(t *testing.T) {
		f := c.file(t, "rerun.yaml", revisionsYAML+"- {version: \"3.3.0\", type: VERSIONED, file: migrations/3.3.0.sql, release: releases/3.3, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n")
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, append(slices.Clone(orders), "-f", f, "--batch-size", "2", "--skip-existing", "-o", "name")...).expect(t, 0)
		})
		post := "POST /v1/instances/prod-pg/databases/orders/revisions:batchCreate "
		want := []string{post + "409", post + "409", post + "409", post + "409", post + "409", post + "200"}
		if !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want each existing version tried alone: %q", sent, want)
		}
		if got := lines(r.stdout); len(got) != 1 {
			t.Errorf("stdout should name the one revision created\n%s", r.dump())
		}
		r.stderrHas(t, "created 1/4 revisions, skipped 3 existing in ")
	})

	t.Run("the reference server refuses a revision without a sheet, as the service does", func(t *testing.T) {
		body := c.file(t, "nosheet.json", `{"requests": [{"parent": "instances/prod-pg/databases/orders", "revision": {"version": "9.9.9", "type": "VERSIONED", "file": "a.sql"}}]}`)
		r := c.run(t, "api", "POST", "/v1/instances/prod-pg/databases/orders/revisions:batchCreate", "--input", body).expect(t, 6)
		r.stderrIsErrorLine(t, `failed to get sheet from : invalid request ""`, "(HTTP 400 INVALID_ARGUMENT)")
	})

	bad := []struct {
		name    string
		content string
		flags   []string
	}{
		{name: "unknown type", content: `[{"version": "7.0.0", "type": "NOPE"}]`},
		{name: "unknown field", content: `[{"version": "7.0.0", "type": "VERSIONED", "flie": "x.sql"}]`},
		{name: "parent of another database", content: `{"parent": "instances/prod-pg/databases/inventory", "requests": [{"revision": {"version": "7.0.0", "type": "VERSIONED"}}]}`},
		{name: "batch size zero", content: `[{"version": "7.0.0", "type": "VERSIONED"}]`, flags: []string{"--batch-size", "0"}},
	}
	for _, tt := range bad {
		t.Run("usage error: "+tt.name, func(t *testing.T) {
			f := c.file(t, "bad.json", tt.content)
			var r result
			sent := srv.sent(t, func() {
				r = c.run(t, append(append(slices.Clone(orders), "-f", f), tt.flags...)...).expect(t, 2)
			})
			if len(sent) != 0 {
				t.Errorf("requests sent: %q", sent)
			}
			r.stdoutEmpty(t)
		})
	}
}

func TestAPI_sendsAnyRequestWithTheSameCredentialsAndCodes(t *testing.T) {
	srv, c := start(t)

	t.Run("GET prints pretty JSON by default", func(t *testing.T) {
		r := c.run(t, "api", "GET", "/v1/idps").expect(t, 0)
		if !strings.HasPrefix(r.stdout, "{\n  \"identityProviders\": [") {
			t.Errorf("want pretty JSON\n%s", r.dump())
		}
		if got := field(t, r.jsonOut(t), "identityProviders", 0, "config", "oauth2Config", "clientSecret"); got != "********" {
			t.Errorf("clientSecret = %v, want ********", got)
		}
	})

	t.Run("GET with jq and a query string", func(t *testing.T) {
		r := c.run(t, "api", "get", "/v1/instances/prod-pg/databases/orders/policies?policyType=TAG&showDeleted=true", "--jq", ".policies[].name").expect(t, 0)
		r.stdoutIs(t, "instances/prod-pg/databases/orders/policies/tag\ninstances/prod-pg/databases/orders/policies/tag-2023\n")
	})

	t.Run("POST with input from a file", func(t *testing.T) {
		body := c.file(t, "undelete.yaml", "name: users/bob@example.com\n")
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, "api", "POST", "/v1/users/bob@example.com:undelete", "--input", body).expect(t, 0)
		})
		if want := []string{"POST /v1/users/bob@example.com:undelete 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
		if got := field(t, r.jsonOut(t), "state"); got != "ACTIVE" {
			t.Errorf("state = %v, want ACTIVE", got)
		}
		if got := userState(t, c, "bob@example.com"); got != "ACTIVE" {
			t.Errorf("bob is %s after the POST, want ACTIVE", got)
		}
	})

	t.Run("POST with input from stdin, rejected", func(t *testing.T) {
		r := c.runStdin(t, `{"name": "users/bob@example.com"}`, "api", "POST", "/v1/users/bob@example.com:undelete", "--input", "-").expect(t, 6)
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t, "(HTTP 400 INVALID_ARGUMENT)")
	})

	t.Run("unknown route is not found", func(t *testing.T) {
		r := c.run(t, "api", "GET", "/v1/nothing-here").expect(t, 5)
		r.stderrIsErrorLine(t, "(HTTP 404")
	})

	t.Run("permission denied", func(t *testing.T) {
		body := c.file(t, "catalog.yaml", catalogYAML)
		r := c.with("DBGOV_TOKEN", "dev-readonly-token").run(t, "api", "PATCH", "/v1/instances/prod-pg/databases/orders/catalog", "--input", body).expect(t, 4)
		r.stderrIsErrorLine(t, "svc.databaseCatalogs.update", "(HTTP 403 PERMISSION_DENIED)")
	})

	t.Run("an open route needs no token", func(t *testing.T) {
		r := c.without("DBGOV_TOKEN").run(t, "api", "GET", "/v1/idps", "--jq", ".identityProviders | length").expect(t, 0)
		r.stdoutIs(t, "3\n")
	})

	t.Run("bad method is a usage error", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, "api", "FETCH", "/v1/idps").expect(t, 2) })
		if len(sent) != 0 {
			t.Errorf("requests sent: %q", sent)
		}
		r.stderrIsErrorLine(t, "FETCH")
	})
}
