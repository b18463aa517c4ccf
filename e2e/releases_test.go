package e2e_test

import (
	"slices"
	"strings"
	"testing"
)

// TestReleases_eachCommandAsTheReleaseAnswers runs the commands whose
// requests or answers differ between releases against the reference server
// answering as 3.14.1 and as 3.21.1, dbgov learning which from the server.
func TestReleases_eachCommandAsTheReleaseAnswers(t *testing.T) {
	for _, release := range []string{"3.14.1", "3.21.1"} {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, "--release", release)
			c := newCLI(t, srv)
			newer := release == "3.21.1"
			db := []string{"--instance", "prod-pg", "--database", "orders"}

			// The release is asked once, then kept: later runs do not ask.
			sent := srv.sent(t, func() {
				c.run(t, "version").expect(t, 0).stdoutHas(t, "service "+release+" at "+srv.url+"\n")
				c.run(t, "policies", "list", "--workspace", "-o", "name").expect(t, 0)
				c.run(t, "idps", "list", "-o", "name").expect(t, 0).stdoutHas(t, "google\n", "okta\n")
			})
			policies, idps := "GET /v1/policies 200", "GET /v1/idps 200"
			if newer {
				policies, idps = "GET /v1/workspaces/d3vw0rksp4c3a1b2/policies 200", "GET /v1/workspaces/d3vw0rksp4c3a1b2/idps 200"
			}
			if want := []string{"GET /v1/actuator/info 200", policies, idps}; !slices.Equal(sent, want) {
				t.Errorf("requests %q, want %q", sent, want)
			}
			// A command that needs no release does not ask.
			if sent := srv.sent(t, func() { c.run(t, append([]string{"catalog", "get", "-o", "name"}, db...)...).expect(t, 0) }); len(sent) != 1 {
				t.Errorf("catalog get sent %q", sent)
			}

			// users: a missing user is not found; a service account is read
			// where the release keeps it, and restored there.
			c.run(t, "users", "batch-get", "alice@example.com", "nobody@example.com").expect(t, 5).stderrHas(t, "nobody@example.com")
			r := c.run(t, "users", "batch-get", "alice@example.com", "release-bot@service.bytebase.com").expect(t, 0)
			r.stdoutHas(t, "SERVICE_ACCOUNT")
			undelete := "POST /v1/users/release-bot@service.bytebase.com:undelete 200"
			if newer {
				undelete = "POST /v1/serviceAccounts/release-bot@service.bytebase.com:undelete 200"
			}
			if sent := srv.sent(t, func() { c.run(t, "users", "undelete", "release-bot@service.bytebase.com").expect(t, 0) }); !slices.Contains(sent, undelete) {
				t.Errorf("undelete sent %q, want %s", sent, undelete)
			}

			// DATA_SOURCE_QUERY is gone from 3.15; --allow-missing is refused on every release.
			r = c.run(t, "policies", "list", "--project", "orders", "--type", "DATA_SOURCE_QUERY")
			if newer {
				r.expect(t, 2).stderrHas(t, "has no DATA_SOURCE_QUERY policies")
			} else {
				r.expect(t, 0)
			}
			c.run(t, append([]string{"catalog", "update", "-f", "catalog.yaml", "--allow-missing"}, db...)...).expect(t, 2).stderrHas(t, "no release of the service grants it")

			// The drift gate: a dump fed back unchanged shows no difference.
			c.file(t, "schema.sql", c.run(t, append([]string{"schema", "dump"}, db...)...).expect(t, 0).stdout)
			c.run(t, append([]string{"schema", "diff", "--schema-file", "schema.sql", "--exit-code"}, db...)...).expect(t, 0)

			// A changelog compares with schema text only on 3.17 and later,
			// where changelogs are UUIDs.
			changelog := strings.TrimSpace(c.run(t, append([]string{"changelogs", "list", "--limit", "1", "-o", "name"}, db...)...).expect(t, 0).stdout)
			r = c.run(t, append([]string{"schema", "diff", "--changelog", changelog, "--schema-file", "schema.sql"}, db...)...)
			if newer {
				r.expect(t, 0)
			} else {
				r.expect(t, 2).stderrHas(t, "schema diff without --changelog")
			}
			old := map[bool]string{true: "101", false: "0b9c3a52-5d7e-4b6f-9a51-1f0e2d3c4b5a"}[newer]
			c.run(t, append([]string{"schema", "diff", "--changelog", old, "--target-changelog", changelog}, db...)...).expect(t, 2).stderrHas(t, "cannot be a changelog of release "+release)
		})
	}
}
