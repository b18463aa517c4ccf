package e2e_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestCatalogAsCode_getDiffMergeSet goes through the catalog as code: the
// catalog read into a file, compared, edited and merged back, one column
// set, against the reference server.
func TestCatalogAsCode_getDiffMergeSet(t *testing.T) {
	srv, c := start(t)
	db := []string{"--instance", "prod-pg", "--database", "orders"}
	catalog := func(verb string, args ...string) []string {
		return append(append([]string{"catalog", verb}, db...), args...)
	}
	const path = "/v1/instances/prod-pg/databases/orders/catalog"

	// The steps share the server's state, so they run in order.
	var yaml string
	t.Run("get, in every format", func(t *testing.T) {
		rows := tableRows(t, c.run(t, catalog("get")...).expect(t, 0).stdout)
		cellsAre(t, rows, "TABLE", "customers", "customers", "customers", "customers", "customers", "customers",
			"orders", "orders", "orders", "orders", "orders", "orders", "order_items", "order_items", "order_items", "order_items", "events",
			"invoices", "invoices", "invoices", "invoices", "invoices", "payments", "payments", "payments", "payments", "payments")
		c.run(t, catalog("get", "-o", "name")...).expect(t, 0).stdoutIs(t, "instances/prod-pg/databases/orders/catalog\n")
		c.run(t, catalog("get", "--jq", ".schemas[].name")...).expect(t, 0).stdoutIs(t, "public\nbilling\n")
		yaml = c.run(t, catalog("get", "-o", "yaml")...).expect(t, 0).stdout
		c.with("DBGOV_TOKEN", "dev-readonly-token").run(t, catalog("get")...).expect(t, 4).
			stderrIsErrorLine(t, "svc.databaseCatalogs.get", "(HTTP 403 PERMISSION_DENIED)")
		c.run(t, "catalog", "get", "--instance", "prod-pg", "--database", "inventory", "-o", "name").expect(t, 0).
			stdoutIs(t, "instances/prod-pg/databases/inventory/catalog\n") // never given one: empty, as on the service
	})

	t.Run("diff of what get gave finds nothing", func(t *testing.T) {
		file := c.file(t, "catalog.yaml", yaml)
		var r result
		sent := srv.sent(t, func() { r = c.run(t, catalog("diff", "-f", file, "--exit-code")...).expect(t, 0) })
		r.stdoutEmpty(t)
		if want := []string{"GET " + path + " 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
	})

	edited := strings.Replace(strings.Replace(yaml, "owner: crm-team", "owner: data-team", 1), "semanticType: full-name", "semanticType: name", 1)
	t.Run("diff of an edited file lists the changes and writes nothing", func(t *testing.T) {
		file := c.file(t, "edited.yaml", edited)
		var r result
		sent := srv.sent(t, func() { r = c.run(t, catalog("diff", "-f", file, "--exit-code")...).expect(t, 9) })
		r.stdoutIs(t, "~ public.customers.email labels.owner: crm-team → data-team\n~ public.customers.full_name semanticType: full-name → name\n")
		if want := []string{"GET " + path + " 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
		doc := c.run(t, catalog("diff", "-f", file, "-o", "json")...).expect(t, 0).jsonOut(t)
		if got := field(t, doc, "changes", 1, "to"); got != "name" {
			t.Errorf("changes[1].from = %v", got)
		}
	})

	// A partial file: a label and a new column, nothing else named.
	partial := c.file(t, "partial.yaml", `schemas:
  - name: public
    tables:
      - name: customers
        columns:
          columns:
            - name: email
              labels: {pii: null, gdpr: art-9}
            - name: loyalty_tier
              classification: "1-1"
`)
	t.Run("merge dry-run reads only", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, catalog("update", "--merge", "-f", partial, "--dry-run")...).expect(t, 0) })
		r.stdoutHas(t, "- public.customers.email labels.pii: true\n", "+ public.customers.loyalty_tier\n", "PATCH "+srv.url+path+"\n", `"gdpr": "art-9"`)
		if want := []string{"GET " + path + " 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
	})

	t.Run("merge reads twice, then writes", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, catalog("update", "--merge", "-f", partial)...).expect(t, 0) })
		r.stdoutIs(t, "- public.customers.email labels.pii: true\n+ public.customers.email labels.gdpr: art-9\n"+
			"+ public.customers.loyalty_tier\n+ public.customers.loyalty_tier classification: 1-1\n")
		if want := []string{"GET " + path + " 200", "GET " + path + " 200", "PATCH " + path + " 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
		doc := c.run(t, catalog("get", "-o", "json")...).expect(t, 0).jsonOut(t)
		email := field(t, doc, "schemas", 0, "tables", 0, "columns", "columns", 1)
		if got := field(t, email, "labels"); !equalJSON(got, map[string]any{"owner": "crm-team", "gdpr": "art-9"}) {
			t.Errorf("email labels = %v", got)
		}
		if n := len(field(t, doc, "schemas").([]any)); n != 2 {
			t.Errorf("%d schemas after the merge, want both kept", n)
		}
	})

	t.Run("a merge that changes nothing sends no PATCH", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() { r = c.run(t, catalog("update", "--merge", "-f", partial)...).expect(t, 0) })
		r.stdoutEmpty(t)
		r.stderrHas(t, "No changes")
		if want := []string{"GET " + path + " 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
	})

	t.Run("set changes one column", func(t *testing.T) {
		c.run(t, catalog("set", "--schema", "billing", "--table", "payments", "--column", "paid_at", "--classification", "1-2", "--label", "pii=false")...).
			expect(t, 0).stdoutIs(t, "+ billing.payments.paid_at classification: 1-2\n+ billing.payments.paid_at labels.pii: false\n")
		c.run(t, catalog("get", "--jq", `.schemas[1].tables[1].columns.columns[] | select(.name == "paid_at") | .classification`)...).expect(t, 0).stdoutIs(t, "1-2\n")
	})

	t.Run("set of a column that is not there needs --create", func(t *testing.T) {
		var r result
		sent := srv.sent(t, func() {
			r = c.run(t, catalog("set", "--schema", "billing", "--table", "payments", "--column", "fee", "--classification", "1")...).expect(t, 5)
		})
		r.stderrIsErrorLine(t, "column billing.payments.fee is not in the catalog of instances/prod-pg/databases/orders")
		if want := []string{"GET " + path + " 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want %q", sent, want)
		}
		c.run(t, catalog("set", "--schema", "billing", "--table", "payments", "--column", "fee", "--classification", "1", "--create")...).expect(t, 0).
			stdoutIs(t, "+ billing.payments.fee\n+ billing.payments.fee classification: 1\n")
	})
}

// equalJSON compares two decoded JSON values.
func equalJSON(a, b any) bool {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok || len(am) != len(bm) {
		return false
	}
	for k, v := range am {
		if bm[k] != v {
			return false
		}
	}
	return true
}

// TestCatalogMerge_refusesWhenTheCatalogChangedMeanwhile puts a proxy in
// front of the reference server that, once it has passed on the first read
// of the catalog, changes the catalog as another writer would. dbgov must
// see it on its second read and write nothing.
func TestCatalogMerge_refusesWhenTheCatalogChangedMeanwhile(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	target, err := url.Parse(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	const path = "/v1/instances/prod-pg/databases/orders/catalog"
	proxy := httputil.NewSingleHostReverseProxy(target)
	var (
		mu      sync.Mutex
		methods []string
	)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		methods = append(methods, r.Method)
		first := len(methods) == 1
		mu.Unlock()
		proxy.ServeHTTP(w, r)
		if first && r.Method == http.MethodGet && r.URL.Path == path {
			other := `{"schemas": [{"name": "public", "tables": [{"name": "customers", "classification": "3"}]}]}`
			req, _ := http.NewRequest(http.MethodPatch, srv.url+path, bytes.NewReader([]byte(other)))
			req.Header.Set("Authorization", "Bearer "+srv.token)
			if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("the other writer's PATCH: %v %v", resp, err)
			} else {
				resp.Body.Close()
			}
		}
	}))
	defer front.Close()

	c := newCLI(t, srv).with("DBGOV_URL", front.URL)
	file := c.file(t, "partial.yaml", "schemas: [{name: billing, tables: [{name: invoices, classification: \"2\"}]}]\n")
	r := c.run(t, "catalog", "update", "--instance", "prod-pg", "--database", "orders", "--merge", "-f", file).expect(t, 6)
	r.stdoutEmpty(t)
	r.stderrIsErrorLine(t, "the catalog of instances/prod-pg/databases/orders changed while it was being merged: nothing was written")
	mu.Lock()
	defer mu.Unlock()
	if want := []string{http.MethodGet, http.MethodGet}; !slices.Equal(methods, want) {
		t.Errorf("dbgov sent %q, want the two reads and no PATCH", methods)
	}
	doc := newCLI(t, srv).run(t, "catalog", "get", "--instance", "prod-pg", "--database", "orders", "-o", "json").expect(t, 0).jsonOut(t)
	if got := field(t, doc, "schemas", 0, "tables", 0, "classification"); got != "3" {
		t.Errorf("the other writer's catalog was overwritten: classification %v", got)
	}
}
