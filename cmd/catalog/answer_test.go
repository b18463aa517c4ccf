package catalog_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// notCatalogs are answers that are not the catalog of prod-pg/orders.
var notCatalogs = []struct{ name, body, want string }{
	{"empty body", "", "the answer is empty"},
	{"null", "null", "want an object, got null"},
	{"an empty object", "{}", "it names no catalog"},
	{"another object", `{"policies": [], "schemas": []}`, "it names no catalog"},
	{"a list", `[{"name": "instances/prod-pg/databases/orders/catalog"}]`, "want an object, got a list"},
	{"another database's catalog", strings.ReplaceAll(serviceCatalog, "databases/orders", "databases/inventory"), "it is instances/prod-pg/databases/inventory/catalog"},
	{"schemas that are no list", `{"name": "instances/prod-pg/databases/orders/catalog", "schemas": {}}`, "want a list, got an object"},
}

func TestEveryVerb_refusesAReadThatIsNotTheCatalog(t *testing.T) {
	verbs := map[string][]string{
		"get":         catalogCmd("get"),
		"diff":        catalogCmd("diff", "-f", "testdata/catalog.yaml"),
		"merge":       catalogCmd("update", "--merge", "-f", "testdata/catalog.yaml"),
		"merge dry":   catalogCmd("update", "--merge", "--dry-run", "-f", "testdata/catalog.yaml"),
		"set":         catalogCmd("set", "--schema", "public", "--table", "customers", "--classification", "1"),
		"set created": catalogCmd("set", "--schema", "public", "--table", "t", "--classification", "1", "--create"),
	}
	for verb, args := range verbs {
		for _, tt := range notCatalogs {
			for _, format := range []string{"table", "json"} {
				t.Run(verb+"/"+tt.name+"/"+format, func(t *testing.T) {
					reg := httpmock.New(t)
					reg.Register(http.MethodGet, catalogPath, 200, tt.body).Times(1)
					res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, append(args, "-o", format)...).Expect(t, 1).
						StderrHas(t, "read the catalog of instances/prod-pg/databases/orders", "invalid response", "not a catalog", tt.want)
					if res.Stdout != "" {
						t.Errorf("stdout %q", res.Stdout)
					}
					for _, r := range reg.Requests() {
						if r.Method != http.MethodGet {
							t.Errorf("sent %s after an answer that is not the catalog", r.Method)
						}
					}
				})
			}
		}
	}
}

// writers are the command lines of the verbs that write a catalog.
func writers() map[string][]string {
	return map[string][]string{
		"update": update("-f", "testdata/catalog.yaml"),
		"merge":  catalogCmd("update", "--merge", "-f", "testdata/catalog.yaml"),
		"set":    catalogCmd("set", "--schema", "public", "--table", "customers", "--classification", "1"),
	}
}

func TestWriters_refuseAWriteAnswerThatIsNotTheCatalog(t *testing.T) {
	for verb, args := range writers() {
		for _, tt := range notCatalogs {
			t.Run(verb+"/"+tt.name, func(t *testing.T) {
				reg := httpmock.New(t)
				if verb != "update" {
					reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(2)
				}
				reg.Register(http.MethodPatch, catalogPath, 200, tt.body).Times(1)
				res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, append(args, "-o", "json")...).Expect(t, 1).
					StderrHas(t, "update the catalog of instances/prod-pg/databases/orders", `"code":"INVALID_RESPONSE"`, tt.want)
				if res.Stdout != "" {
					t.Errorf("stdout %q", res.Stdout)
				}
			})
		}
	}
}

func TestMerge_aSecondReadThatIsNotTheCatalogWritesNothing(t *testing.T) {
	for _, tt := range notCatalogs {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, catalogPath, 200, serviceCatalog).Times(1)
			reg.Register(http.MethodGet, catalogPath, 200, tt.body).Times(1)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, catalogCmd("update", "--merge", "-f", "testdata/catalog.yaml")...).Expect(t, 1).
				StderrHas(t, "read the catalog of instances/prod-pg/databases/orders again", "not a catalog", tt.want)
			if n := len(reg.Requests()); n != 2 {
				t.Errorf("sent %d requests, want the two reads", n)
			}
		})
	}
}
