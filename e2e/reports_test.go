package e2e_test

import (
	"encoding/xml"
	"slices"
	"strings"
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

// junitSuite is the JUnit XML of -o junit, as a CI system reads it.
type junitSuite struct {
	XMLName  xml.Name `xml:"testsuite"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Cases    []struct {
		Name    string `xml:"name,attr"`
		Failure *struct {
			Message string `xml:"message,attr"`
			Type    string `xml:"type,attr"`
			Text    string `xml:",chardata"`
		} `xml:"failure"`
		Skipped *struct{} `xml:"skipped"`
		Out     string    `xml:"system-out"`
	} `xml:"testcase"`
}

// junitOf parses the JUnit XML of text and returns it, and each test case
// as "NAME passed", "NAME failure TYPE" or "NAME skipped".
func junitOf(t *testing.T, text string) (junitSuite, []string) {
	t.Helper()
	var s junitSuite
	if err := xml.Unmarshal([]byte(text), &s); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, text)
	}
	var cases []string
	for _, c := range s.Cases {
		switch {
		case c.Failure != nil:
			cases = append(cases, c.Name+" failure "+c.Failure.Type)
		case c.Skipped != nil:
			cases = append(cases, c.Name+" skipped")
		default:
			cases = append(cases, c.Name+" passed")
		}
	}
	return s, cases
}

func TestReports_junitOfARunAndADiff(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "4"))
	golden := c.file(t, "golden.sql", devserver.FleetSchema)
	dbs := fleetList([]int{1, 2, 3}, "fleet-pg/missing")
	tests := []struct {
		name, stdin string
		args        []string
		code        int
		cases       []string
	}{
		{"a drift gate: a difference under --exit-code and a failure fail", dbs,
			[]string{"schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code"}, 5,
			[]string{"fleet-pg/db0001 passed", "fleet-pg/db0002 passed", "fleet-pg/db0003 failure differs", "fleet-pg/missing failure failed"}},
		{"differences alone exit 9", fleetList([]int{1, 3}),
			[]string{"schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code"}, 9,
			[]string{"fleet-pg/db0001 passed", "fleet-pg/db0003 failure differs"}},
		{"without --exit-code a difference passes", dbs[:strings.LastIndex(dbs, "fleet-pg/missing")],
			[]string{"schema", "diff", "--databases-from", "-", "--schema-file", golden}, 0,
			[]string{"fleet-pg/db0001 passed", "fleet-pg/db0002 passed", "fleet-pg/db0003 passed"}},
		{"one database's diff", "",
			[]string{"schema", "diff", "--database", fleetName(3), "--schema-file", golden, "--exit-code"}, 9,
			[]string{"fleet-pg/db0003 failure differs"}},
		{"databases not sent are skipped", "fleet-pg/missing\n" + fleetList([]int{1, 2}),
			[]string{"policies", "list", "--databases-from", "-", "--fail-fast", "--concurrency", "1"}, 5,
			[]string{"fleet-pg/missing failure failed", "fleet-pg/db0001 skipped", "fleet-pg/db0002 skipped"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.runStdin(t, tt.stdin, append(tt.args, "-o", "junit")...).expect(t, tt.code)
			s, cases := junitOf(t, r.stdout)
			if !slices.Equal(cases, tt.cases) {
				t.Errorf("test cases %q, want %q\n%s", cases, tt.cases, r.dump())
			}
			failures, skipped := 0, 0
			for _, c := range cases {
				failures += strings.Count(c, " failure ")
				skipped += strings.Count(c, " skipped")
			}
			if want := "dbgov " + strings.Join(tt.args[:2], " "); s.Name != want || s.Tests != len(cases) || s.Failures != failures || s.Skipped != skipped {
				t.Errorf("suite %q, %d tests, %d failures, %d skipped; want %q, %d, %d, %d", s.Name, s.Tests, s.Failures, s.Skipped, want, len(cases), failures, skipped)
			}
			for _, c := range s.Cases {
				if c.Failure != nil && c.Failure.Type == "differs" && !strings.Contains(c.Failure.Text, `ALTER TABLE "public"."orders" DROP COLUMN IF EXISTS "note";`) {
					t.Errorf("%s: the failure holds %q, not the changes", c.Name, c.Failure.Text)
				}
				if c.Failure != nil && c.Failure.Type == "failed" && !strings.Contains(c.Failure.Message, "not found (HTTP 404 NOT_FOUND)") {
					t.Errorf("%s: the failure says %q, not the error", c.Name, c.Failure.Message)
				}
			}
		})
	}
	// A command that gives no report refuses -o junit before sending.
	c.run(t, "users", "batch-get", "admin@example.com", "-o", "junit").expect(t, 2).stderrIsErrorLine(t, "-o junit is for runs over many databases")
}
