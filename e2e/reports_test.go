package e2e_test

import (
	"encoding/xml"
	"os"
	"path/filepath"
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

func TestReports_summaryFileBesideJSON(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "4"))
	golden := c.file(t, "golden.sql", devserver.FleetSchema)
	dbs := fleetList([]int{1, 2, 3}, "fleet-pg/missing")
	summary := filepath.Join(c.dir, "summary.md")
	r := c.runStdin(t, dbs, "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code", "-o", "json", "--summary-file", summary).expect(t, 5)
	if got := databasesAndCodes(resultsOf(t, r)); len(got) != 4 {
		t.Errorf("stdout holds results %q, want 4", got)
	}
	if got := readFile(t, summary); got != driftMarkdown+"\n" {
		t.Errorf("the summary file holds\n%s\nwant\n%s", got, driftMarkdown)
	}
	// A second run appends, DBGOV_SUMMARY_FILE as --summary-file.
	r = c.with("DBGOV_SUMMARY_FILE", summary).runStdin(t, fleetList([]int{1, 2}), "policies", "list", "--databases-from", "-", "-o", "json").expect(t, 0)
	resultsOf(t, r)
	if got, want := readFile(t, summary), driftMarkdown+"\n2 of 2 databases succeeded\n\n"; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "| fleet-pg/db0002 | succeeded |        |\n\n") {
		t.Errorf("the summary file holds\n%s\nwant the first run's, then\n%s", got, want)
	}
	// Results streamed a line each: the report is appended once, at the end.
	streamed := filepath.Join(c.dir, "streamed.md")
	r = c.runStdin(t, dbs, "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code", "-o", "jsonl", "--summary-file", streamed).expect(t, 5)
	if n := len(r.jsonLines(t)); n != 4 {
		t.Errorf("%d result lines, want 4", n)
	}
	if got := readFile(t, streamed); got != driftMarkdown+"\n" {
		t.Errorf("the summary file of a streamed run holds\n%s", got)
	}
	// A summary that cannot be written fails the run (exit 1) and says so,
	// after stdout.
	for _, args := range [][]string{{"policies", "list", "--databases-from", "-"}, {"schema", "diff", "--database", fleetName(3), "--schema-file", golden}} {
		r = c.runStdin(t, fleetList([]int{1}), append(args, "-o", "json", "--summary-file", c.dir)...).expect(t, 1)
		r.jsonOut(t)
		if msg := field(t, r.jsonError(t), "message").(string); !strings.HasPrefix(msg, "write the summary to "+c.dir+": ") {
			t.Errorf("%s: the error says %q", args[0], msg)
		}
	}
}

// readFile returns the content of the file at path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReports_ofADriftGateInCI runs a drift gate as docs/ci.md's GitHub
// Actions pipeline does: a workload identity, JUnit XML on stdout, the
// Markdown summary appended to $GITHUB_STEP_SUMMARY. It logs both files;
// `go test ./e2e -run TestReports_ofADriftGateInCI -v` shows them.
func TestReports_ofADriftGateInCI(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--generate-databases", "12")
	c := workloadCLI(t, srv).with(append(actionsEnv(srv), "DBGOV_WORKLOAD_IDENTITY", deployIdentity,
		"GITHUB_STEP_SUMMARY", filepath.Join(t.TempDir(), "step_summary.md"))...)
	c.env["DBGOV_SUMMARY_FILE"] = c.env["GITHUB_STEP_SUMMARY"]
	golden := c.file(t, "golden.sql", devserver.FleetSchema)
	var all []int
	for i := 1; i <= 12; i++ {
		all = append(all, i)
	}
	dbs := c.file(t, "fleet.txt", fleetList(all, "fleet-pg/retired"))
	var r result
	reqs := srv.sent(t, func() {
		r = c.run(t, "schema", "diff", "--databases-from", dbs, "--schema-file", golden, "--exit-code", "-o", "junit").expect(t, 5)
	})
	if n := count(reqs, exchangeLine); n != 1 {
		t.Errorf("%d exchanges of the OIDC token, want one for the run", n)
	}
	suite, cases := junitOf(t, r.stdout)
	if suite.Tests != 13 || suite.Failures != 3 || suite.Skipped != 0 {
		t.Errorf("%d tests, %d failures, %d skipped; want 13, 3 (two differ, one not found), 0: %q", suite.Tests, suite.Failures, suite.Skipped, cases)
	}
	summary := readFile(t, c.env["GITHUB_STEP_SUMMARY"])
	if !strings.HasPrefix(summary, "10 of 13 databases succeeded, 2 differ, 1 failed\n\n") || strings.Count(summary, "<details>") != 2 {
		t.Errorf("the step summary holds\n%s", summary)
	}
	t.Logf("$GITHUB_STEP_SUMMARY:\n%s", summary)
	t.Logf("JUnit XML (dbgov-drift.xml):\n%s", r.stdout)
}
