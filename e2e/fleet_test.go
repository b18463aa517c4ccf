package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/devserver"
)

// fleetList is a --databases-from file naming the generated databases of
// ids as I/D, and the other lines given.
func fleetList(ids []int, more ...string) string {
	var b strings.Builder
	for _, i := range ids {
		fmt.Fprintf(&b, "%s/db%04d\n", devserver.FleetInstance, i)
	}
	return b.String() + strings.Join(more, "\n") + "\n"
}

func fleetName(i int) string {
	return fmt.Sprintf("instances/%s/databases/db%04d", devserver.FleetInstance, i)
}

// jsonLines decodes stdout as one JSON object a line.
func (r result) jsonLines(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range lines(r.stdout) {
		var doc map[string]any
		if err := json.Unmarshal([]byte(l), &doc); err != nil {
			t.Fatalf("line %q is not a JSON object: %v\n%s", l, err, r.dump())
		}
		out = append(out, doc)
	}
	return out
}

// resultsOf returns the results of a {"results": [...]} document.
func resultsOf(t *testing.T, r result) []map[string]any {
	t.Helper()
	var doc struct{ Results []map[string]any }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not a results document: %v\n%s", err, r.dump())
	}
	return doc.Results
}

func TestFleet_policiesListGivesResultsInTheOrderOfTheList(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "12"))
	list := c.file(t, "dbs.txt", "# the fleet\n\nfleet-pg/db0003\ninstances/fleet-pg/databases/db0001\n  fleet-pg/db0002  \nfleet-pg/db0003\nfleet-pg/missing\n")
	r := c.run(t, "policies", "list", "--databases-from", list, "--concurrency", "3", "-o", "json").expect(t, 5)
	results := resultsOf(t, r)
	var got []string
	for _, res := range results {
		got = append(got, fmt.Sprintf("%v %v", res["database"], res["exitCode"]))
	}
	want := []string{fleetName(3) + " 0", fleetName(1) + " 0", fleetName(2) + " 0", "instances/fleet-pg/databases/missing 5"}
	if !slices.Equal(got, want) {
		t.Fatalf("results %q, want %q (input order, duplicate once)\n%s", got, want, r.dump())
	}
	if n := len(field(t, results[0], "response", "policies").([]any)); n != 2 {
		t.Errorf("db0003 has %d policies, want 2", n)
	}
	if code := field(t, results[3], "error", "code"); code != "NOT_FOUND" {
		t.Errorf("the missing database's error code is %v", code)
	}
	if msg := field(t, r.jsonError(t), "message"); msg != "1 of 4 databases failed (1 not found)" {
		t.Errorf("summary %v", msg)
	}
}

func TestFleet_jsonlWritesOneResultALine(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "10"))
	ids := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	r := c.runStdin(t, fleetList(ids), "policies", "list", "--databases-from", "-", "--concurrency", "4", "-o", "jsonl").expect(t, 0)
	var got []string
	for _, res := range r.jsonLines(t) {
		got = append(got, res["database"].(string))
		if res["exitCode"] != 0.0 || res["response"] == nil {
			t.Errorf("result %v, want a response", res)
		}
	}
	var want []string
	for _, i := range ids {
		want = append(want, fleetName(i))
	}
	if slices.Sort(got); !slices.Equal(got, want) {
		t.Errorf("lines for %q, want one for each of %q", got, want)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
}

func TestFleet_everyCommandStreamsJSONLines(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "5"))
	golden := c.file(t, "golden.sql", devserver.FleetSchema)
	revs := c.file(t, "revs.yaml", "- {version: \"2.0\", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n")
	for _, cmd := range [][]string{{"policies", "list"}, {"schema", "diff", "--schema-file", golden}, {"revisions", "batch-create", "-f", revs}} {
		args := append(append([]string{}, cmd...), "--databases-from", "-", "-o", "jsonl")
		r := c.runStdin(t, fleetList([]int{1, 2, 3, 4, 5}), args...).expect(t, 0)
		var got []string
		for _, res := range r.jsonLines(t) {
			if res["response"] == nil {
				t.Errorf("%s: result without a response: %v", cmd, res)
			}
			got = append(got, res["database"].(string))
		}
		if slices.Sort(got); !slices.Equal(got, []string{fleetName(1), fleetName(2), fleetName(3), fleetName(4), fleetName(5)}) {
			t.Errorf("%s: lines for %q", cmd, got)
		}
	}
}

func TestFleet_tableLeadsEachRowWithItsDatabase(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "3"))
	r := c.runStdin(t, fleetList([]int{2, 1}, "fleet-pg/missing"), "policies", "list", "--databases-from", "-").expect(t, 5)
	rows := tableRows(t, r.stdout)
	cellsAre(t, rows, "DATABASE", "fleet-pg/db0002", "fleet-pg/db0002", "fleet-pg/db0001", "fleet-pg/db0001")
	cellsAre(t, rows, "TYPE", "MASKING_RULE", "ROLLOUT_POLICY", "MASKING_RULE", "ROLLOUT_POLICY")
	r.stderrHas(t, "dbgov: list policies of instances/fleet-pg/databases/missing", "(HTTP 404 NOT_FOUND)",
		"dbgov: 1 of 3 databases failed (1 not found)\n")
}

func TestFleet_exitCodeOfFailures(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--generate-databases", "4")
	c := newCLI(t, srv)
	revs := c.file(t, "revs.yaml", "- {version: \"1.0\", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n- {version: \"1.1\", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n")
	created := c.runStdin(t, fleetList([]int{1, 2}), "revisions", "batch-create", "--databases-from", "-", "-f", revs, "-o", "json").expect(t, 0)
	for _, res := range resultsOf(t, created) {
		if n := len(field(t, res, "response", "revisions").([]any)); n != 2 {
			t.Errorf("%v: %d revisions created, want 2", res["database"], n)
		}
	}
	// db0001 has them now (409: exit 6), missing is not found (exit 5):
	// failures of different kinds exit 1.
	r := c.runStdin(t, fleetList([]int{1, 3}, "fleet-pg/missing"), "revisions", "batch-create", "--databases-from", "-", "-f", revs).expect(t, 1)
	r.stderrHas(t, "2 of 3 databases failed (1 already exists, 1 not found)")
	cellsAre(t, tableRows(t, r.stdout), "DATABASE", "fleet-pg/db0003", "fleet-pg/db0003")
	// Failures of one kind exit with their code.
	c.runStdin(t, fleetList([]int{1, 2}), "revisions", "batch-create", "--databases-from", "-", "-f", revs).expect(t, 6)
}

func TestFleet_failFastStartsNoMore(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--generate-databases", "6")
	c := newCLI(t, srv)
	var r result
	sent := srv.sent(t, func() {
		r = c.runStdin(t, fleetList([]int{1}, "fleet-pg/missing", "fleet-pg/db0002", "fleet-pg/db0003", "fleet-pg/db0004"),
			"policies", "list", "--databases-from", "-", "--concurrency", "1", "--fail-fast", "-o", "json").expect(t, 5)
	})
	if len(sent) != 2 {
		t.Errorf("requests %q, want the first two databases only", sent)
	}
	results := resultsOf(t, r)
	for i, res := range results {
		if _, notSent := res["sent"]; notSent != (i >= 2) {
			t.Errorf("result %d: %v", i, res)
		}
	}
	if msg := field(t, r.jsonError(t), "message"); msg != "4 of 5 databases failed (1 not found, 3 not sent)" {
		t.Errorf("summary %v", msg)
	}
}

func TestFleet_badInputSendsNothing(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--generate-databases", "2")
	c := newCLI(t, srv)
	tests := []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"bad line", "fleet-pg/db0001\nfleet-pg/db0002/x\n", nil, "standard input, line 2:"},
		{"empty list", "# nothing\n\n", nil, "names no database"},
		{"with --database", "fleet-pg/db0001\n", []string{"--database", "instances/fleet-pg/databases/db0002"}, "cannot be used with --instance or --database"},
		{"no concurrency", "fleet-pg/db0001\n", []string{"--concurrency", "0"}, "between 1 and 64"},
		{"too much concurrency", "fleet-pg/db0001\n", []string{"--concurrency", "65"}, "between 1 and 64"},
	}
	revs := c.file(t, "revs.yaml", "- {version: \"1.0\", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n")
	for _, cmd := range [][]string{{"policies", "list"}, {"schema", "diff", "--target-changelog", "1"}, {"revisions", "batch-create", "-f", revs}, {"catalog", "get"}} {
		for _, tt := range tests {
			args := append(append(append([]string{}, cmd...), "--databases-from", "-"), tt.args...)
			sent := srv.sent(t, func() { c.runStdin(t, tt.stdin, args...).expect(t, 2).stderrIsErrorLine(t, tt.want) })
			if len(sent) != 0 {
				t.Errorf("%s, %s: sent %q", cmd, tt.name, sent)
			}
		}
	}
}

func TestFleet_schemaDiffIsADriftGate(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "12"))
	golden := c.file(t, "golden.sql", devserver.FleetSchema)
	all := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	r := c.runStdin(t, fleetList(all), "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code").expect(t, 9)
	cellsAre(t, tableRows(t, r.stdout), "DATABASE", "fleet-pg/db0003", "fleet-pg/db0010")
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	c.runStdin(t, fleetList(all), "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code",
		"--jq", `.results[] | select(.response.diff) | .database`).expect(t, 9).stdoutIs(t, fleetName(3)+"\n"+fleetName(10)+"\n")
	c.runStdin(t, fleetList([]int{1, 2, 4}), "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code").expect(t, 0)
	// A failure wins over differences.
	c.runStdin(t, fleetList([]int{3}, "fleet-pg/missing"), "schema", "diff", "--databases-from", "-", "--schema-file", golden, "--exit-code").expect(t, 5)
}

func TestFleet_interruptReportsWhatWasSent(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "40", "--latency", "300ms"))
	var ids []int
	for i := 1; i <= 40; i++ {
		ids = append(ids, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := c.command(ctx, "policies", "list", "--databases-from", c.file(t, "dbs.txt", fleetList(ids)), "--concurrency", "2", "-o", "jsonl")
	stdout, stderr := &syncBuffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(startTimeout, func() bool { return strings.Count(stdout.String(), "\n") >= 2 }) {
		t.Fatalf("no result within %s", startTimeout)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	r := result{args: cmd.Args[1:], stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
	r.expect(t, 130)
	incomplete := field(t, r.jsonError(t), "incomplete").(map[string]any)
	num := func(key string) (n float64) {
		fmt.Sscan(fmt.Sprint(incomplete[key]), &n)
		return n
	}
	sent, finished, notSent := num("sent"), num("finished"), num("notSent")
	if sent+notSent != 40 || finished < 2 || finished > sent || notSent < 30 {
		t.Errorf("sent %v, finished %v, not sent %v of 40\n%s", sent, finished, notSent, r.dump())
	}
	results := r.jsonLines(t)
	if len(results) != 40 {
		t.Errorf("%d result lines, want one for each of 40 databases", len(results))
	}
	var gotNotSent float64
	for _, res := range results {
		if res["sent"] == false {
			gotNotSent++
		}
	}
	if gotNotSent != notSent {
		t.Errorf("%v lines say not sent, the report %v", gotNotSent, notSent)
	}
}

func TestFleet_interruptInTextSaysWhatWasSent(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "20", "--latency", "300ms"))
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := c.command(ctx, "policies", "list", "--databases-from", c.file(t, "dbs.txt", fleetList([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})), "--concurrency", "1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d, want 130\n%s", code, stderr.String())
	}
	if got := stderr.String(); !strings.HasPrefix(got, "dbgov: interrupted\nnote: ") || !strings.Contains(got, " of 10 databases sent, ") ||
		!strings.Contains(got, " finished, ") || !strings.HasSuffix(got, " not sent\n") {
		t.Errorf("stderr %q", got)
	}
}

// TestFleet_goldenSchemaExampleIsTheFleets checks docs/examples/golden.sql,
// which make demo and README's fleet examples compare the generated fleet
// with, against the schema the generated databases have.
func TestFleet_goldenSchemaExampleIsTheFleets(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "docs", "examples", "golden.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if string(golden) != devserver.FleetSchema {
		t.Errorf("docs/examples/golden.sql is\n%s\nnot the generated databases' schema\n%s", golden, devserver.FleetSchema)
	}
}
