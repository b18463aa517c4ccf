package bench

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkStartup runs commands that send nothing.
func BenchmarkStartup(b *testing.B) {
	f := setup(b)
	for _, args := range [][]string{{"version"}, {"--help"}} {
		f.run(b, scenario{name: args[0], args: args})
	}
}

// BenchmarkOneRequest lists the identity providers, an answer of a few
// hundred bytes.
func BenchmarkOneRequest(b *testing.B) {
	f := setup(b)
	f.run(b, scenario{name: "idps-list", args: []string{"idps", "list", "-o", "json"},
		ref: "curl -sf " + f.mainURL + "/v1/idps | jq ."})
}

// BenchmarkUsersBatchGet gets 50,000 users, named on standard input, in
// each kind of output. curl cannot send a query of 50,000 names, so curl |
// jq reads the same answer from a static copy: its time leaves out the
// reference server's, which dbgov's includes.
func BenchmarkUsersBatchGet(b *testing.B) {
	f := setup(b)
	for _, o := range []struct {
		name string
		args []string
		ref  string
	}{
		{"json", []string{"-o", "json"}, "curl -sf " + f.usersURL + " | jq ."},
		{"table", []string{"-o", "table"}, ""},
		{"jq", []string{"--jq", ".users[].email"}, ""},
	} {
		f.run(b, scenario{name: o.name, args: slices.Concat([]string{"users", "batch-get", "-"}, o.args), stdin: f.path("names"),
			size: f.size["users"], ref: o.ref})
	}
}

// BenchmarkCatalogUpdate replaces a catalog of 5,000 tables of 20 columns
// with a file of as many, in each kind of output.
func BenchmarkCatalogUpdate(b *testing.B) {
	f := setup(b)
	db := "instances/bench-pg/databases/warehouse"
	ref := fmt.Sprintf("curl -sf -X PATCH -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' --data-binary @%s '%s/v1/%s/catalog' | jq .",
		f.token, f.path("catalog.json"), f.mainURL, db)
	for _, o := range []struct {
		name string
		args []string
		ref  string
	}{
		{"json", []string{"-o", "json"}, ref},
		{"table", []string{"-o", "table"}, ""},
		{"jq", []string{"--jq", ".schemas[].tables[].name"}, ""},
	} {
		f.run(b, scenario{name: o.name, args: slices.Concat([]string{"catalog", "update", "--database", db, "-f", f.path("catalog.json")}, o.args),
			size: f.size["update"], ref: o.ref})
	}
}

// BenchmarkCatalogAsCode compares a file with the generated catalog of
// 5,000 tables of 20 columns (12.5 MiB), and merges it: the catalog is served
// from a static copy, so that every merge writes.
func BenchmarkCatalogAsCode(b *testing.B) {
	f := setup(b)
	for _, verb := range []string{"diff", "update --merge"} {
		f.run(b, scenario{name: strings.ReplaceAll(verb, " --", "-"),
			args: slices.Concat([]string{"catalog"}, strings.Fields(verb), []string{"--database", "instances/bench-pg/databases/warehouse", "-f", f.path("edited.json")}),
			env:  []string{"DBGOV_URL=" + f.catalogURL}, size: f.size["generated"]})
	}
}

// BenchmarkRevisionsBatchCreate creates 10,000 revisions in batches of 100,
// each run in a database of its own (the service checks a revision against
// every one its database holds), and reports the reference server's own
// time from its log (server-ns/op).
func BenchmarkRevisionsBatchCreate(b *testing.B) {
	f := setup(b)
	args := []string{"revisions", "batch-create", "--instance", "fleet-pg", "--database", "", "-f", f.path("revisions.json"), "--batch-size", "100", "-o", "json"}
	var logAt int64
	var server time.Duration
	runs := 0
	f.run(b, scenario{name: "10000-in-100s", args: args, size: f.size["revisions.json"],
		prep: func() {
			dbRuns++
			args[5] = fmt.Sprintf("db%04d", dbRuns)
			st, err := os.Stat(f.path("server.log"))
			if err != nil {
				b.Fatal(err)
			}
			logAt = st.Size()
		},
		then: func(b *testing.B) {
			server += f.serverTime(b, logAt, ":batchCreate")
			runs++
			b.ReportMetric(float64(server.Nanoseconds())/float64(runs), "server-ns/op")
		}})
}

// dbRuns counts the databases revisions batch-create runs have written to.
var dbRuns int

// serverTime is the time the reference servers spent, by their log from
// offset at, on the requests whose path ends in suffix.
func (f *fixture) serverTime(b *testing.B, at int64, suffix string) time.Duration {
	time.Sleep(100 * time.Millisecond) // a request is logged once answered
	log, err := os.ReadFile(f.path("server.log"))
	if err != nil {
		b.Fatal(err)
	}
	var sum time.Duration
	for line := range strings.SplitSeq(string(log[at:]), "\n") {
		if fields := strings.Fields(line); len(fields) == 4 && strings.HasSuffix(fields[1], suffix) {
			d, err := time.ParseDuration(fields[3])
			if err != nil {
				b.Fatalf("server log: %q: %v", line, err)
			}
			sum += d
		}
	}
	return sum
}

// BenchmarkFleet lists the policies of many databases, each answered after
// 20 ms, at several concurrencies: a run takes about 20 ms × databases /
// concurrency. curl beside it fetches the same 500 with xargs -P 8.
func BenchmarkFleet(b *testing.B) {
	f := setup(b)
	ref := fmt.Sprintf("mkdir -p %[1]s/out && xargs -P 8 -I{} curl -sf -H 'Authorization: Bearer %[2]s' -o %[1]s/out/{}.json "+
		"%[3]s/v1/instances/fleet-pg/databases/{}/policies < %[1]s/ids", f.dir, f.fleetToken, f.fleetURL)
	for _, c := range [][2]int{{500, 8}, {100, 8}, {1000, 8}, {500, 1}, {500, 4}, {500, 32}} {
		s := scenario{name: fmt.Sprintf("%d-databases-c%d", c[0], c[1]), env: []string{"DBGOV_URL=" + f.fleetURL, "DBGOV_TOKEN=" + f.fleetToken},
			args: []string{"policies", "list", "--databases-from", f.path(fmt.Sprint(c[0])), "--concurrency", fmt.Sprint(c[1]), "-o", "jsonl"},
			size: f.size[fmt.Sprint(c[0])]}
		if c == [2]int{500, 8} {
			s.ref = ref
		}
		f.run(b, s)
	}
}

// BenchmarkDatabasesList lists 50,000 databases, read a page of 1,000 at a
// time, in each format: the largest answer is a page.
func BenchmarkDatabasesList(b *testing.B) {
	f := setup(b)
	for _, format := range []string{"json", "jsonl", "name", "table", "yaml"} {
		f.run(b, scenario{name: format, args: []string{"databases", "list", "--instance", "fleet-pg", "-o", format},
			env: f.list, size: f.size["page"]})
	}
}

// BenchmarkBinary reports the size of the binary as make build makes it,
// stripped and static.
func BenchmarkBinary(b *testing.B) {
	f := setup(b)
	st, err := os.Stat(f.bin)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(st.Size())/(1<<20), "size-MiB")
}
