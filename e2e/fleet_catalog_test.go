package e2e_test

import (
	"fmt"
	"slices"
	"testing"
)

// fleetCatalog is a catalog file for the generated databases.
const fleetCatalog = `{"schemas": [{"name": "public", "tables": [{"name": "customers", "classification": "1", "columns": {"columns": [{"name": "email", "semanticType": "email"}]}}]}]}`

// databasesAndCodes lists "database exitCode" of each result, in order.
func databasesAndCodes(results []map[string]any) []string {
	var got []string
	for _, res := range results {
		got = append(got, fmt.Sprintf("%v %v", res["database"], res["exitCode"]))
	}
	return got
}

func TestFleet_catalogGetGivesResultsInTheOrderOfTheList(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "5"))
	file := c.file(t, "catalog.json", fleetCatalog)
	created := c.runStdin(t, fleetList([]int{3, 1, 2}), "catalog", "update", "--databases-from", "-", "-f", file, "-o", "json").expect(t, 0)
	if got, want := databasesAndCodes(resultsOf(t, created)), []string{fleetName(3) + " 0", fleetName(1) + " 0", fleetName(2) + " 0"}; !slices.Equal(got, want) {
		t.Fatalf("update results %q, want %q\n%s", got, want, created.dump())
	}

	// db0004 was never given a catalog and has an empty one; missing is not found (exit 5).
	r := c.runStdin(t, fleetList([]int{2, 4, 1}, "fleet-pg/missing"), "catalog", "get", "--databases-from", "-", "--concurrency", "2", "-o", "json").expect(t, 5)
	results := resultsOf(t, r)
	want := []string{fleetName(2) + " 0", fleetName(4) + " 0", fleetName(1) + " 0", "instances/fleet-pg/databases/missing 5"}
	if got := databasesAndCodes(results); !slices.Equal(got, want) {
		t.Fatalf("get results %q, want %q\n%s", got, want, r.dump())
	}
	if name := field(t, results[0], "response", "name"); name != fleetName(2)+"/catalog" {
		t.Errorf("db0002's catalog is named %v", name)
	}
	if name := field(t, results[1], "response", "name"); name != fleetName(4)+"/catalog" {
		t.Errorf("db0004's empty catalog is named %v", name)
	}
	if code := field(t, results[3], "error", "code"); code != "NOT_FOUND" {
		t.Errorf("missing's error code is %v", code)
	}
	if msg := field(t, r.jsonError(t), "message"); msg != "1 of 4 databases failed (1 not found)" {
		t.Errorf("summary %v", msg)
	}

	table := c.runStdin(t, fleetList([]int{1, 2}), "catalog", "get", "--databases-from", "-").expect(t, 0)
	rows := tableRows(t, table.stdout)
	cellsAre(t, rows, "DATABASE", "fleet-pg/db0001", "fleet-pg/db0001", "fleet-pg/db0002", "fleet-pg/db0002")
	cellsAre(t, rows, "COLUMN", "", "email", "", "email")
	c.runStdin(t, fleetList([]int{1, 2}), "catalog", "get", "--databases-from", "-", "-o", "name").expect(t, 0).
		stdoutIs(t, fleetName(1)+"/catalog\n"+fleetName(2)+"/catalog\n")
}

func TestFleet_catalogDiffIsADriftGate(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "4"))
	file := c.file(t, "catalog.json", fleetCatalog)
	c.runStdin(t, fleetList([]int{1, 2, 3}), "catalog", "update", "--databases-from", "-", "-f", file, "-o", "name").expect(t, 0)
	c.run(t, "catalog", "set", "--database", fleetName(2), "--schema", "public", "--table", "customers", "--classification", "2").expect(t, 0)

	all := fleetList([]int{1, 2, 3})
	r := c.runStdin(t, all, "catalog", "diff", "--databases-from", "-", "-f", file, "--exit-code").expect(t, 9)
	cellsAre(t, tableRows(t, r.stdout), "DATABASE", "fleet-pg/db0002")
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	r = c.runStdin(t, all, "catalog", "diff", "--databases-from", "-", "-f", file, "--exit-code", "-o", "json").expect(t, 9)
	results := resultsOf(t, r)
	if got, want := databasesAndCodes(results), []string{fleetName(1) + " 0", fleetName(2) + " 0", fleetName(3) + " 0"}; !slices.Equal(got, want) {
		t.Fatalf("diff results %q, want %q\n%s", got, want, r.dump())
	}
	for i, n := range []int{0, 1, 0} {
		if got := len(field(t, results[i], "response", "changes").([]any)); got != n {
			t.Errorf("%v: %d changes, want %d", results[i]["database"], got, n)
		}
	}
	c.runStdin(t, all, "catalog", "diff", "--databases-from", "-", "-f", file, "--exit-code", "--jq", `.results[] | select(.response.changes != []) | .database`).
		expect(t, 9).stdoutIs(t, fleetName(2)+"\n")
	// Without --exit-code differences are no failure; a failure wins over them.
	c.runStdin(t, all, "catalog", "diff", "--databases-from", "-", "-f", file).expect(t, 0)
	c.runStdin(t, fleetList([]int{1, 3}), "catalog", "diff", "--databases-from", "-", "-f", file, "--exit-code").expect(t, 0)
	c.runStdin(t, fleetList([]int{2}, "fleet-pg/missing"), "catalog", "diff", "--databases-from", "-", "-f", file, "--exit-code").expect(t, 5)
}

func TestFleet_catalogSetAndMergeChangeEveryDatabase(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "3"))
	file := c.file(t, "catalog.json", fleetCatalog)
	dbs := fleetList([]int{1, 2, 3})
	c.runStdin(t, dbs, "catalog", "update", "--databases-from", "-", "-f", file, "-o", "jsonl").expect(t, 0)
	c.runStdin(t, dbs, "catalog", "set", "--databases-from", "-", "--schema", "public", "--table", "customers", "--column", "email", "--label", "pii=yes").expect(t, 0)
	merge := c.file(t, "merge.yaml", "schemas: [{name: public, tables: [{name: customers, classification: \"3\"}]}]\n")
	c.runStdin(t, dbs, "catalog", "update", "--merge", "--databases-from", "-", "-f", merge).expect(t, 0)
	r := c.runStdin(t, dbs, "catalog", "get", "--databases-from", "-", "--jq", `.results[] | "\(.database) \(.response.schemas[0].tables[0].classification) \(.response.schemas[0].tables[0].columns.columns[0].labels.pii)"`).expect(t, 0)
	r.stdoutIs(t, fleetName(1)+" 3 yes\n"+fleetName(2)+" 3 yes\n"+fleetName(3)+" 3 yes\n")
	// A table not in the catalog is not found in each database.
	c.runStdin(t, dbs, "catalog", "set", "--databases-from", "-", "--table", "nowhere", "--classification", "1").expect(t, 5).
		stderrHas(t, "3 of 3 databases failed (3 not found)")
}
