package e2e_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestLists_followEveryPageOfTheReferenceServer(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--generate-databases", "2500")
	c := newCLI(t, srv)
	var r result
	sent := srv.sent(t, func() { r = c.run(t, "databases", "list", "--instance", "fleet-pg", "-o", "name").expect(t, 0) })
	names := lines(r.stdout)
	if len(names) != 2500 || names[0] != fleetName(1) || names[2499] != fleetName(2500) {
		t.Fatalf("%d names, first %q, last %q; want the 2500 databases in order", len(names), names[0], names[len(names)-1])
	}
	if len(sent) != 3 {
		t.Errorf("sent %q, want 3 pages of at most 1000", sent)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"databases", "list", "--instance", "fleet-pg", "-o", "json", "--jq", ".databases | length"}, "2500"},
		{[]string{"api", "GET", "/v1/instances/fleet-pg/databases?pageSize=400", "--paginate", "--jq", ".databases | length"}, "2500"},
	}
	for _, tt := range tests {
		if got := strings.TrimSpace(c.run(t, tt.args...).expect(t, 0).stdout); got != tt.want {
			t.Errorf("dbgov %s: %q, want %q", strings.Join(tt.args, " "), got, tt.want)
		}
	}
	if n := len(lines(c.run(t, "databases", "list", "--instance", "fleet-pg", "--limit", "1500", "-o", "jsonl").expect(t, 0).stdout)); n != 1500 {
		t.Errorf("--limit 1500 -o jsonl printed %d lines", n)
	}
}

func TestLists_everyNounAgainstTheReferenceServer(t *testing.T) {
	_, c := start(t)
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"instances", "list"}, []string{"instances/prod-pg", "instances/staging-mysql"}},
		{[]string{"databases", "list", "--project", "orders"}, []string{"instances/prod-pg/databases/orders", "instances/staging-mysql/databases/orders"}},
		{[]string{"databases", "list", "--workspace", "--limit", "2"}, []string{"instances/prod-pg/databases/inventory", "instances/prod-pg/databases/orders"}},
		{[]string{"changelogs", "list", "--instance", "prod-pg", "--database", "orders"},
			[]string{"instances/prod-pg/databases/orders/changelogs/102", "instances/prod-pg/databases/orders/changelogs/101"}},
		{[]string{"revisions", "list", "--database", "instances/prod-pg/databases/orders"},
			[]string{"instances/prod-pg/databases/orders/revisions/2", "instances/prod-pg/databases/orders/revisions/1"}},
	}
	for _, tt := range tests {
		if got := lines(c.run(t, append(tt.args, "-o", "name")...).expect(t, 0).stdout); !slices.Equal(got, tt.want) {
			t.Errorf("dbgov %s -o name: %q, want %q", strings.Join(tt.args, " "), got, tt.want)
		}
	}
}

// The list a user pipes into a many-database command is the list's names,
// one a line, read from standard input while the list is still printing.
func TestLists_databasesListFeedsDatabasesFromInOnePipe(t *testing.T) {
	t.Parallel()
	c := newCLI(t, startServer(t, "--generate-databases", "12"))
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	list := c.command(ctx, "databases", "list", "--instance", "fleet-pg", "-o", "name")
	policies := c.command(ctx, "policies", "list", "--databases-from", "-", "-o", "jsonl")
	pr, pw := io.Pipe()
	list.Stdout, policies.Stdin = pw, pr
	var out, errs strings.Builder
	policies.Stdout, policies.Stderr, list.Stderr = &out, &errs, &errs
	if err := policies.Start(); err != nil {
		t.Fatal(err)
	}
	listErr := list.Run()
	pw.Close()
	if err := policies.Wait(); err != nil || listErr != nil {
		t.Fatalf("list: %v, policies: %v\n%s", listErr, err, errs.String())
	}
	var got []string
	for _, l := range lines(out.String()) {
		got = append(got, fmt.Sprint(strings.Contains(l, `"exitCode":0`), " ", l[:strings.Index(l, `",`)+1]))
	}
	slices.Sort(got)
	if len(got) != 12 || got[0] != `true {"database":"`+fleetName(1)+`"` {
		t.Errorf("results %q, want one a database, each exit code 0", got)
	}
}
