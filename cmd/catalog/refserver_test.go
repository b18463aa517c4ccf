package catalog_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/devserver"
)

// TestUpdate_againstTheReferenceServer replaces catalogs of the reference
// server's demo databases, one of which was never given a catalog.
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

	// The inventory database was never given a catalog: like every database
	// of the service, it has an empty one, which an update replaces.
	inventory := []string{"catalog", "update", "--instance", "prod-pg", "--database", "inventory", "-f", "testdata/catalog.json"}
	res = cmdtest.Run(t, opts, append(inventory, "-o", "name")...).Expect(t, 0)
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
