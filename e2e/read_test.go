package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestUsersBatchGet_printsEveryOutputFormat(t *testing.T) {
	_, c := start(t)
	users := []string{"users", "batch-get", "alice@example.com", "users/bob@example.com"}

	tests := []struct {
		name  string
		flags []string
		want  string
	}{
		{
			name:  "name",
			flags: []string{"-o", "name"},
			want:  "users/alice@example.com\nusers/bob@example.com\n",
		},
		{
			name:  "yaml",
			flags: []string{"-o", "yaml"},
			want: `users:
  - name: users/alice@example.com
    state: ACTIVE
    email: alice@example.com
    title: Alice Anders
    userType: USER
    mfaEnabled: true
    phone: "+442079460000"
    profile:
      lastLoginTime: "2024-05-30T21:03:09Z"
      source: LDAP
    groups:
      - groups/dba@example.com
  - name: users/bob@example.com
    state: DELETED
    email: bob@example.com
    title: Bob Builder
    userType: USER
    profile:
      lastLoginTime: "2023-11-02T12:00:00Z"
`,
		},
		{
			name:  "jq prints raw strings as jq -r does",
			flags: []string{"--jq", `.users[] | .email + " " + .state`},
			want:  "alice@example.com ACTIVE\nbob@example.com DELETED\n",
		},
		{
			name:  "template",
			flags: []string{"--template", `{{range .users}}{{.title}} <{{.email}}>{{"\n"}}{{end}}`},
			want:  "Alice Anders <alice@example.com>\nBob Builder <bob@example.com>\n",
		},
		{
			name:  "jq joins into one line",
			flags: []string{"--jq", `[.users[].name] | join(",")`},
			want:  "users/alice@example.com,users/bob@example.com\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.run(t, append(slices.Clone(users), tt.flags...)...).expect(t, 0)
			r.stdoutIs(t, tt.want)
			if r.stderr != "" {
				t.Errorf("stderr should be empty on success\n%s", r.dump())
			}
		})
	}

	t.Run("table", func(t *testing.T) {
		r := c.run(t, users...).expect(t, 0)
		rows := tableRows(t, r.stdout)
		cellsAre(t, rows, "NAME", "users/alice@example.com", "users/bob@example.com")
		cellsAre(t, rows, "EMAIL", "alice@example.com", "bob@example.com")
		cellsAre(t, rows, "TITLE", "Alice Anders", "Bob Builder")
		cellsAre(t, rows, "STATE", "ACTIVE", "DELETED")
		cellsAre(t, rows, "GROUPS", "groups/dba@example.com", "")
	})

	t.Run("table without headers", func(t *testing.T) {
		with := c.run(t, users...).expect(t, 0)
		without := c.run(t, append(slices.Clone(users), "--no-headers")...).expect(t, 0)
		if rows := lines(with.stdout); len(rows) != 3 || strings.Join(rows[1:], "\n")+"\n" != without.stdout {
			t.Errorf("--no-headers should print the same rows without the header\n%s\n%s", with.dump(), without.dump())
		}
	})

	t.Run("json is the response, pretty-printed with two spaces", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(users), "-o", "json")...).expect(t, 0)
		if !strings.HasPrefix(r.stdout, "{\n  \"users\": [\n    {\n") {
			t.Errorf("json is not indented with two spaces\n%s", r.dump())
		}
		doc := r.jsonOut(t)
		if got := field(t, doc, "users", 1, "state"); got != "DELETED" {
			t.Errorf("users[1].state = %v, want DELETED", got)
		}
		if got := field(t, doc, "users", 0, "profile", "source"); got != "LDAP" {
			t.Errorf("users[0].profile.source = %v, want LDAP", got)
		}
	})

	t.Run("DBGOV_OUTPUT chooses the format", func(t *testing.T) {
		r := c.with("DBGOV_OUTPUT", "name").run(t, users...).expect(t, 0)
		r.stdoutIs(t, "users/alice@example.com\nusers/bob@example.com\n")
	})
}

func TestUsersBatchGet_readsNamesFromStdin(t *testing.T) {
	srv, c := start(t)

	var r result
	sent := srv.sent(t, func() {
		r = c.runStdin(t, "alice@example.com\nusers/carol@example.com\n\nsystem-bot@example.com\n",
			"users", "batch-get", "-", "-o", "name").expect(t, 0)
	})
	r.stdoutIs(t, "users/alice@example.com\nusers/carol@example.com\nusers/system-bot@example.com\n")
	if want := []string{"GET /v1/users:batchGet 200"}; !slices.Equal(sent, want) {
		t.Errorf("requests = %q, want one batch get: %q", sent, want)
	}
}

func TestUsersBatchGet_missingUserIsNotFound(t *testing.T) {
	_, c := start(t)

	r := c.run(t, "users", "batch-get", "alice@example.com", "nobody@example.com").expect(t, 5)
	r.stdoutEmpty(t)
	r.stderrIsErrorLine(t, "users/nobody@example.com", "(HTTP 404 NOT_FOUND)")

	r = c.run(t, "users", "batch-get", "alice@example.com", "nobody@example.com", "-o", "json").expect(t, 5)
	r.stdoutEmpty(t)
	r.apiErrorIs(t, "404", "NOT_FOUND", "users/nobody@example.com")
}

func TestUsersBatchGet_masksSecretsUnlessAsked(t *testing.T) {
	_, c := start(t)
	carol := []string{"users", "batch-get", "carol@example.com"}

	r := c.run(t, append(slices.Clone(carol), "-o", "json")...).expect(t, 0)
	doc := r.jsonOut(t)
	if got := field(t, doc, "users", 0, "tempOtpSecret"); got != "********" {
		t.Errorf("tempOtpSecret = %v, want ********", got)
	}
	if got := field(t, doc, "users", 0, "tempRecoveryCodes"); got != "********" {
		t.Errorf("tempRecoveryCodes = %v, want ********", got)
	}
	r.stdoutLacks(t, "JBSWY3DPEHPK3PXP", "a1b2-c3d4")

	r = c.run(t, append(slices.Clone(carol), "--jq", ".users[0].tempOtpSecret")...).expect(t, 0)
	r.stdoutIs(t, "********\n")

	r = c.run(t, append(slices.Clone(carol), "-o", "json", "--show-secrets")...).expect(t, 0)
	doc = r.jsonOut(t)
	if got := field(t, doc, "users", 0, "tempOtpSecret"); got != "JBSWY3DPEHPK3PXP" {
		t.Errorf("with --show-secrets, tempOtpSecret = %v, want the secret", got)
	}
	if got := field(t, doc, "users", 0, "tempRecoveryCodes", 2); got != "i9j0-k1l2" {
		t.Errorf("with --show-secrets, tempRecoveryCodes[2] = %v, want i9j0-k1l2", got)
	}
}

func TestReviewConfigsGet_showsTheConfigAndItsRules(t *testing.T) {
	_, c := start(t)

	t.Run("table with rules", func(t *testing.T) {
		r := c.run(t, "review-configs", "get", "sql-review-prod").expect(t, 0)
		r.stdoutIs(t, `NAME                            TITLE                   ENABLED   RESOURCES
reviewConfigs/sql-review-prod   Production SQL review   true      environments/prod, projects/orders

TYPE                                    LEVEL     ENGINE      PAYLOAD
NAMING_TABLE                            ERROR     POSTGRES    format="^[a-z]+(_[a-z]+)*$" maxLength=63
STATEMENT_MAXIMUM_LIMIT_VALUE           WARNING   MYSQL       number=1000
COLUMN_REQUIRED                         ERROR     POSTGRES    list=[id, created_at, updated_at]
TABLE_COMMENT                           WARNING   MYSQL       required=true maxLength=64
STATEMENT_QUERY_MINIMUM_PLAN_LEVEL      WARNING   TIDB        value="INDEX"
NAMING_IDENTIFIER_CASE                  ERROR     ORACLE      case=upper
STATEMENT_WHERE_REQUIRE_UPDATE_DELETE   ERROR     MSSQL
STATEMENT_DISALLOW_COMMIT               WARNING   SNOWFLAKE
`)
	})

	t.Run("json keeps what the service sent, full name accepted", func(t *testing.T) {
		r := c.run(t, "review-configs", "get", "reviewConfigs/sql-review-dev", "-o", "json").expect(t, 0)
		doc := r.jsonOut(t)
		if got := field(t, doc, "name"); got != "reviewConfigs/sql-review-dev" {
			t.Errorf("name = %v", got)
		}
		if _, ok := doc["enabled"]; ok {
			t.Errorf("enabled is false, so the service omits it and dbgov must not add it\n%s", r.dump())
		}
		if got := field(t, doc, "rules", 0, "engine"); got != "CLICKHOUSE" {
			t.Errorf("rules[0].engine = %v, want CLICKHOUSE", got)
		}
	})

	t.Run("name", func(t *testing.T) {
		c.run(t, "review-configs", "get", "sql-review-prod", "-o", "name").expect(t, 0).
			stdoutIs(t, "reviewConfigs/sql-review-prod\n")
	})

	t.Run("missing is not found", func(t *testing.T) {
		r := c.run(t, "review-configs", "get", "nope").expect(t, 5)
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t, "reviewConfigs/nope", "(HTTP 404 NOT_FOUND)")
	})
}

func TestIdpsList_isOpenAndMasksSecrets(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := newCLI(t, srv).without("DBGOV_TOKEN")

	t.Run("no token needed", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, "idps", "list").expect(t, 0) })
		rows := tableRows(t, r.stdout)
		cellsAre(t, rows, "NAME", "idps/google", "idps/okta", "idps/corp-ldap")
		cellsAre(t, rows, "TITLE", "Google", "Okta", "Corporate LDAP")
		cellsAre(t, rows, "TYPE", "OAUTH2", "OIDC", "LDAP")
		r.stdoutLacks(t, "dev-oauth2-client-secret", "dev-oidc-client-secret", "dev-ldap-bind-password")
		if want := []string{"GET /v1/actuator/info 200", "GET /v1/idps 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want the release asked, then %q", sent, want)
		}
	})

	t.Run("name", func(t *testing.T) {
		c.run(t, "idps", "list", "-o", "name").expect(t, 0).
			stdoutIs(t, "idps/google\nidps/okta\nidps/corp-ldap\n")
	})

	t.Run("json masks secrets", func(t *testing.T) {
		r := c.run(t, "idps", "list", "-o", "json").expect(t, 0)
		doc := r.jsonOut(t)
		for _, path := range [][]any{
			{"identityProviders", 0, "config", "oauth2Config", "clientSecret"},
			{"identityProviders", 1, "config", "oidcConfig", "clientSecret"},
			{"identityProviders", 2, "config", "ldapConfig", "bindPassword"},
		} {
			if got := field(t, doc, path...); got != "********" {
				t.Errorf("%v = %v, want ********", path, got)
			}
		}
		if got := field(t, doc, "identityProviders", 0, "config", "oauth2Config", "clientId"); got != "1234567890-dev.apps.googleusercontent.com" {
			t.Errorf("clientId is not secret and must be kept, got %v", got)
		}
		if got := field(t, doc, "identityProviders", 2, "config", "ldapConfig", "port"); got != float64(636) {
			t.Errorf("ldap port = %v, want 636", got)
		}
	})

	t.Run("show-secrets shows them", func(t *testing.T) {
		r := c.run(t, "idps", "list", "-o", "json", "--show-secrets").expect(t, 0)
		doc := r.jsonOut(t)
		if got := field(t, doc, "identityProviders", 0, "config", "oauth2Config", "clientSecret"); got != "dev-oauth2-client-secret" {
			t.Errorf("clientSecret = %v, want the secret", got)
		}
		if got := field(t, doc, "identityProviders", 2, "config", "ldapConfig", "bindPassword"); got != "dev-ldap-bind-password" {
			t.Errorf("bindPassword = %v, want the secret", got)
		}
	})

	t.Run("yaml masks secrets too", func(t *testing.T) {
		r := c.run(t, "idps", "list", "-o", "yaml").expect(t, 0)
		r.stdoutHas(t, "clientSecret: '********'", "bindPassword: '********'", "name: idps/corp-ldap")
		r.stdoutLacks(t, "dev-ldap-bind-password")
	})
}

func TestPoliciesList_filtersByTypeAndDeletion(t *testing.T) {
	srv, c := start(t)
	byIDs := []string{"--instance", "prod-pg", "--database", "orders"}
	list := append([]string{"policies", "list"}, byIDs...)
	live := []string{
		"instances/prod-pg/databases/orders/policies/rollout",
		"instances/prod-pg/databases/orders/policies/masking_rule",
		"instances/prod-pg/databases/orders/policies/masking_exemption",
		"instances/prod-pg/databases/orders/policies/tag",
		"instances/prod-pg/databases/orders/policies/data_source_query",
		"instances/prod-pg/databases/orders/policies/data_query",
	}
	const deleted = "instances/prod-pg/databases/orders/policies/tag-2023"

	tests := []struct {
		name  string
		flags []string
		want  []string
	}{
		{name: "all live policies", flags: byIDs, want: live},
		{name: "type in lower case", flags: append([]string{"--type", "masking_rule"}, byIDs...), want: live[1:2]},
		{name: "type in upper case", flags: append([]string{"--type", "MASKING_RULE"}, byIDs...), want: live[1:2]},
		{name: "type in mixed case", flags: append([]string{"--type", "Masking_Rule"}, byIDs...), want: live[1:2]},
		{name: "deleted ones shown", flags: append([]string{"--show-deleted"}, byIDs...), want: append(slices.Clone(live), deleted)},
		{name: "deleted tags", flags: append([]string{"--type", "tag", "--show-deleted"}, byIDs...), want: []string{live[3], deleted}},
		{name: "full database name", flags: []string{"--database", "instances/prod-pg/databases/orders"}, want: live},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"policies", "list", "-o", "name"}, tt.flags...)
			r := c.run(t, args...).expect(t, 0)
			got := lines(r.stdout)
			if !slices.Equal(sortedCopy(got), sortedCopy(tt.want)) {
				t.Errorf("policies = %q, want %q\n%s", got, tt.want, r.dump())
			}
		})
	}

	t.Run("table names each policy and its type", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(list), "--type", "masking_rule")...).expect(t, 0)
		rows := tableRows(t, r.stdout)
		cellsAre(t, rows, "NAME", live[1])
		cellsAre(t, rows, "TYPE", "MASKING_RULE")
	})

	t.Run("json keeps the policy body", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(list), "--type", "masking_rule", "-o", "json")...).expect(t, 0)
		doc := r.jsonOut(t)
		if got := field(t, doc, "policies", 0, "maskingRulePolicy", "rules", 0, "id"); got != "mask-pci" {
			t.Errorf("maskingRulePolicy.rules[0].id = %v, want mask-pci", got)
		}
	})

	t.Run("an empty list is an empty list", func(t *testing.T) {
		r := c.run(t, "policies", "list", "--instance", "prod-pg", "--database", "inventory", "-o", "json").expect(t, 0)
		if got := field(t, r.jsonOut(t), "policies"); !slices.Equal(got.([]any), []any{}) {
			t.Errorf("policies = %v, want []", got)
		}
	})

	t.Run("policies of an environment, a project and the workspace", func(t *testing.T) {
		for _, tt := range []struct {
			flags []string
			path  string
			want  []string
		}{
			{[]string{"--environment", "prod"}, "/v1/environments/prod/policies", []string{"environments/prod/policies/rollout", "environments/prod/policies/data_source_query"}},
			{[]string{"--environment", "prod", "--type", "rollout_policy"}, "/v1/environments/prod/policies", []string{"environments/prod/policies/rollout"}},
			{[]string{"--project", "orders"}, "/v1/projects/orders/policies", []string{"projects/orders/policies/masking_exemption"}},
			{[]string{"--workspace"}, "/v1/policies", []string{"policies/data_query"}},
		} {
			var r result
			sent := srv.sent(t, func() { r = c.run(t, append([]string{"policies", "list", "-o", "name"}, tt.flags...)...).expect(t, 0) })
			if tt.path == "/v1/policies" && len(sent) > 0 && sent[0] == "GET /v1/actuator/info 200" {
				sent = sent[1:] // the workspace's route depends on the release
			}
			if len(sent) != 1 || !strings.HasPrefix(sent[0], "GET "+tt.path+" 200") {
				t.Errorf("requests = %q, want GET %s", sent, tt.path)
			}
			if got := lines(r.stdout); !slices.Equal(got, tt.want) {
				t.Errorf("%v: policies = %q, want %q", tt.flags, got, tt.want)
			}
		}
	})

	t.Run("two parents are a usage error, nothing sent", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, append(slices.Clone(list), "--workspace")...).expect(t, 2) })
		if len(sent) != 0 {
			t.Errorf("requests sent: %q", sent)
		}
		r.stderrIsErrorLine(t, "give exactly one parent")
	})

	t.Run("unknown type is a usage error, nothing sent", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, append(slices.Clone(list), "--type", "nonsense")...).expect(t, 2) })
		if len(sent) != 0 {
			t.Errorf("requests sent: %q", sent)
		}
		r.stderrIsErrorLine(t, "nonsense")
	})
}

// sortedCopy returns s sorted, leaving s as it is.
func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// changelogSchema returns the schema that the demo data records for a
// changelog of prod-pg/orders.
func changelogSchema(t *testing.T, id string) string {
	t.Helper()
	var seed struct {
		Instances []struct {
			ID        string `json:"id"`
			Databases []struct {
				ID         string `json:"id"`
				Changelogs []struct {
					ID     string `json:"id"`
					Schema string `json:"schema"`
				} `json:"changelogs"`
			} `json:"databases"`
		} `json:"instances"`
	}
	if err := json.Unmarshal(demoSeed(t), &seed); err != nil {
		t.Fatalf("decode the demo seed: %v", err)
	}
	for _, in := range seed.Instances {
		for _, db := range in.Databases {
			for _, cl := range db.Changelogs {
				if in.ID == "prod-pg" && db.ID == "orders" && cl.ID == id {
					return cl.Schema
				}
			}
		}
	}
	t.Fatalf("the demo seed has no changelog %s in prod-pg/orders", id)
	return ""
}

func TestSchemaDiff_comparesChangelogsAndSchemaFiles(t *testing.T) {
	srv, c := start(t)
	diff := []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", "101"}
	live := []string{"schema", "diff", "--instance", "prod-pg", "--database", "orders"}
	same := c.file(t, "schema-102.sql", changelogSchema(t, "102")) // the live database's

	t.Run("two changelogs differ", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(diff), "--target-changelog", "102")...).expect(t, 0)
		r.stdoutIs(t, `ALTER TABLE "public"."customers" ADD COLUMN "phone" text;`+"\n"+
			`ALTER TABLE "public"."orders" ADD COLUMN "status" text NOT NULL DEFAULT 'pending';`+"\n"+
			"CREATE INDEX orders_customer_id_idx ON public.orders (customer_id);\n\n")
		if strings.Contains(r.stdout, `"diff"`) {
			t.Errorf("table mode prints the diff itself, not the JSON answer\n%s", r.dump())
		}
	})

	t.Run("exit-code says they differ", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(diff), "--target-changelog", "102", "--exit-code")...).expect(t, 9)
		r.stdoutHas(t, `ADD COLUMN "phone" text;`)
	})

	t.Run("json of a non-empty diff", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(diff), "--target-changelog", "instances/prod-pg/databases/orders/changelogs/102", "-o", "json")...).expect(t, 0)
		got, _ := field(t, r.jsonOut(t), "diff").(string)
		if !strings.Contains(got, "\nCREATE INDEX orders_customer_id_idx") {
			t.Errorf("diff = %q", got)
		}
	})

	t.Run("identical schema file prints nothing", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(live), "--schema-file", same)...).expect(t, 0)
		r.stdoutEmpty(t)
	})

	t.Run("identical schema file with exit-code exits 0", func(t *testing.T) {
		r := c.run(t, append(slices.Clone(live), "--schema-file", same, "--exit-code")...).expect(t, 0)
		r.stdoutEmpty(t)
	})

	t.Run("identical schema from stdin, json is {}", func(t *testing.T) {
		r := c.runStdin(t, changelogSchema(t, "102"), append(slices.Clone(live), "--schema-file", "-", "-o", "json")...).expect(t, 0)
		if doc := r.jsonOut(t); len(doc) != 0 {
			t.Errorf("json = %v, want {}", doc)
		}
	})

	t.Run("the live database against a different schema file", func(t *testing.T) {
		older := c.file(t, "schema-101.sql", changelogSchema(t, "101"))
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, append(slices.Clone(live), "--schema-file", older, "--exit-code")...).expect(t, 9)
		})
		if want := []string{"POST /v1/instances/prod-pg/databases/orders:diffSchema 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
		r.stdoutIs(t, `DROP INDEX IF EXISTS "public"."orders_customer_id_idx";`+"\n"+`ALTER TABLE "public"."customers" DROP COLUMN IF EXISTS "phone";`+"\n"+
			`ALTER TABLE "public"."orders" DROP COLUMN IF EXISTS "status";`+"\n\n")
	})

	t.Run("on 3.14.1 a changelog is not compared with a schema file, which the service cannot do", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, append(slices.Clone(diff), "--schema-file", same)...).expect(t, 2) })
		r.stderrHas(t, "release 3.14.1 cannot compare a changelog of instances/prod-pg/databases/orders with schema text", "schema diff without --changelog")
		if slices.ContainsFunc(sent, func(s string) bool { return strings.Contains(s, "diffSchema") }) {
			t.Errorf("requests = %q, want no diff sent", sent)
		}
	})

	t.Run("the live database agrees with its latest changelog", func(t *testing.T) {
		c.run(t, append(slices.Clone(live), "--target-changelog", "102", "--exit-code")...).expect(t, 0).stdoutEmpty(t)
	})

	t.Run("both targets are a usage error, nothing sent", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, append(slices.Clone(diff), "--schema-file", same, "--target-changelog", "102")...).expect(t, 2)
		})
		if len(sent) != 0 {
			t.Errorf("requests sent: %q", sent)
		}
		r.stdoutEmpty(t)
		r.stderrIsErrorLine(t, "--schema-file", "--target-changelog")
	})

	t.Run("no target is a usage error", func(t *testing.T) {
		c.run(t, diff...).expect(t, 2).stdoutEmpty(t)
	})

	t.Run("missing changelog is not found", func(t *testing.T) {
		r := c.run(t, "schema", "diff", "--instance", "prod-pg", "--database", "orders", "--changelog", "999", "--target-changelog", "102").expect(t, 5)
		r.stderrIsErrorLine(t, "changelogs/999", "(HTTP 404 NOT_FOUND)")
	})
}

// demoSeed is the demo data the reference server holds.
func demoSeed(t *testing.T) []byte {
	t.Helper()
	seed, err := os.ReadFile(filepath.Join("..", "internal", "devserver", "demo_seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	return seed
}
