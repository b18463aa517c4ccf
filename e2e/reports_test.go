package e2e_test

import (
	"testing"

	"github.com/dbgov/dbgov/internal/devserver"
)

// driftMarkdown is the Markdown of a drift gate over db0001 to db0003 and a
// missing database: db0003 has a column the golden schema lacks.
const driftMarkdown = "2 of 4 databases succeeded, 1 differs, 1 failed\n\n" +
	"| DATABASE         | RESULT    | DETAIL                                                                                                                                           |\n" +
	"|:-----------------|:----------|:-------------------------------------------------------------------------------------------------------------------------------------------------|\n" +
	"| fleet-pg/db0001  | succeeded |                                                                                                                                                  |\n" +
	"| fleet-pg/db0002  | succeeded |                                                                                                                                                  |\n" +
	"| fleet-pg/db0003  | differs   | ALTER TABLE \"public\".\"orders\" DROP COLUMN IF EXISTS \"note\";                                                                                      |\n" +
	"| fleet-pg/missing | failed    | diff the schema of database instances/fleet-pg/databases/missing: database \"instances/fleet-pg/databases/missing\" not found (HTTP 404 NOT_FOUND) |\n" +
	"\n<details><summary>fleet-pg/db0003</summary>\n\n```\nALTER TABLE \"public\".\"orders\" DROP COLUMN IF EXISTS \"note\";\n```\n\n</details>\n"

func TestReports_markdownOfARunAndADiff(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "4"))
	golden := c.file(t, "golden.sql", devserver.FleetSchema)
	dbs := fleetList([]int{1, 2, 3}, "fleet-pg/missing")
	// The exit codes are those of every other format.
	c.runStdin(t, dbs, "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code", "-o", "markdown").
		expect(t, 5).stdoutIs(t, driftMarkdown)
	c.runStdin(t, fleetList([]int{1, 3}), "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code", "-o", "markdown").
		expect(t, 9).stdoutHas(t, "1 of 2 databases succeeded, 1 differs\n\n", "| fleet-pg/db0003 | differs   |", "<details><summary>fleet-pg/db0003</summary>")
	// A run that stopped at its first failure: the others were not sent.
	c.runStdin(t, "fleet-pg/missing\n"+fleetList([]int{1, 2}), "policies", "list", "--databases-from", "-", "-o", "markdown", "--fail-fast", "--concurrency", "1").
		expect(t, 5).stdoutIs(t, "0 of 3 databases succeeded, 1 failed, 2 not sent\n\n"+
		"| DATABASE         | RESULT   | DETAIL                                                                                                                                |\n"+
		"|:-----------------|:---------|:--------------------------------------------------------------------------------------------------------------------------------------|\n"+
		"| fleet-pg/missing | failed   | list policies of instances/fleet-pg/databases/missing: database \"instances/fleet-pg/databases/missing\" not found (HTTP 404 NOT_FOUND) |\n"+
		"| fleet-pg/db0001  | not sent |                                                                                                                                       |\n"+
		"| fleet-pg/db0002  | not sent |                                                                                                                                       |\n")
}
