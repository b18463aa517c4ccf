package listing_test

import (
	"net/http"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

const ordersPath = "/v1/instances/prod-pg/databases/orders/changelogs"

func TestList_oneDatabaseEveryPage(t *testing.T) {
	list := cmdtest.Command{
		Args: []string{"changelogs", "list", "--instance", "prod-pg", "--database", "orders"},
		Serve: func(reg *httpmock.Registry, _ bool) {
			reg.Register(http.MethodGet, ordersPath, 200, `{"changelogs": [{"name": "instances/prod-pg/databases/orders/changelogs/101", "status": "DONE", "planTitle": "add phone"}], "nextPageToken": "2"}`).
				Query("pageSize=1000").Times(1)
			reg.Register(http.MethodGet, ordersPath, 200, `{"changelogs": [{"name": "instances/prod-pg/databases/orders/changelogs/102", "status": "FAILED"}]}`).
				Query("pageSize=1000&pageToken=2").Times(1)
		},
	}
	list.Prints(t, map[string]string{
		"name": "instances/prod-pg/databases/orders/changelogs/101\ninstances/prod-pg/databases/orders/changelogs/102\n",
		// A table is laid out a page at a time, the header over the first.
		"table_tty": "NAME   STATUS   PLAN        CREATED\n101    DONE     add phone\n102   FAILED\n",
	})
}

func TestList_manyDatabasesEachWhole(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, ordersPath, 200, `{"changelogs": [{"name": "instances/prod-pg/databases/orders/changelogs/101"}], "nextPageToken": "2"}`).Query("pageSize=1000").Times(1)
	reg.Register(http.MethodGet, ordersPath, 200, `{"changelogs": [{"name": "instances/prod-pg/databases/orders/changelogs/102"}]}`).Query("pageSize=1000&pageToken=2").Times(1)
	reg.Register(http.MethodGet, "/v1/instances/prod-pg/databases/carts/changelogs", 404, `{"code": 5, "message": "database not found"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: "prod-pg/orders\nprod-pg/carts\n"},
		"changelogs", "list", "--databases-from", "-", "--concurrency", "1", "-o", "json", "--jq", ".results[] | [.database, .exitCode, (.response.changelogs // [] | length)] | @tsv").Expect(t, 5)
	if want := "instances/prod-pg/databases/orders\t0\t2\ninstances/prod-pg/databases/carts\t5\t0\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
}

func TestList_refusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"changelogs", "list", "--instance", "prod-pg"},
		{"changelogs", "list", "--databases-from", "-", "--database", "orders"},
		{"changelogs", "list", "--instance", "prod-pg", "--database", "orders", "--limit", "-2"},
		{"changelogs", "list", "--instance", "prod-pg", "--database", "orders", "--filter", "x"},
	} {
		cmdtest.Refused(t, cmdtest.Options{}, args)
	}
}
