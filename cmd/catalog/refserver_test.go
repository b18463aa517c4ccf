package catalog_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/devserver"
)

// TestUpdate_againstTheReferenceServer replaces catalogs of the reference
// server's demo databases, with and without --allow-missing.
func TestUpdate_againstTheReferenceServer(t *testing.T) {
	s, err := devserver.New(devserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	opts := cmdtest.Options{URL: srv.URL, Token: s.AdminToken()}

	res := cmdtest.Run(t, opts, update("-f", "testdata/catalog.yaml")...).Expect(t, 0)
	cmdtest.Golden(t, "update_reference_server", res.Stdout)

	// The inventory database has no catalog until --allow-missing makes one.
	inventory := []string{"catalog", "update", "--instance", "prod-pg", "--database", "inventory", "-f", "testdata/catalog.json"}
	cmdtest.Run(t, opts, inventory...).Expect(t, 5).StderrHas(t, "dbgov: update the catalog of instances/prod-pg/databases/inventory: ", "(HTTP 404 NOT_FOUND)")
	res = cmdtest.Run(t, opts, append(inventory, "--allow-missing", "-o", "name")...).Expect(t, 0)
	if res.Stdout != "instances/prod-pg/databases/inventory/catalog\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
}

func TestGet_fitsTheTerminal(t *testing.T) {
	opts := cmdtest.ReferenceServer(t)
	for _, width := range []int{80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			opts.TTY, opts.Width = true, width
			res := cmdtest.Run(t, opts, "catalog", "get", "--instance", "prod-pg", "--database", "orders").Expect(t, 0)
			cmdtest.Golden(t, fmt.Sprintf("get_tty_%d", width), res.Stdout)
		})
	}
}
