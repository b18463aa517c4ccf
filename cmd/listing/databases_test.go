package listing_test

import (
	"net/http"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// shopPages answers the databases of project shop in two pages.
func shopPages(reg *httpmock.Registry, _ bool) {
	reg.Register(http.MethodGet, "/v1/projects/shop/databases", 200,
		`{"databases": [{"name": "instances/prod-pg/databases/orders", "project": "projects/shop", "effectiveEnvironment": "environments/prod", "instanceResource": {"engine": "POSTGRES"}},
		 {"name": "instances/prod-pg/databases/carts", "project": "projects/shop"}], "nextPageToken": "p2"}`).
		Query(`filter=name.contains%28%22r%22%29&pageSize=1000`).Times(1)
	reg.Register(http.MethodGet, "/v1/projects/shop/databases", 200,
		`{"databases": [{"name": "instances/prod-my/databases/users\u001b[31m", "project": "projects/shop"}]}`).
		Query(`filter=name.contains%28%22r%22%29&pageSize=1000&pageToken=p2`).Times(1)
}

func TestList_followsEveryPage(t *testing.T) {
	list := cmdtest.Command{Args: []string{"databases", "list", "--project", "shop", "--filter", `name.contains("r")`}, Serve: shopPages,
		JQ: ".databases | length", Template: "{{range .databases}}{{.project}} {{end}}"}
	list.Prints(t, map[string]string{
		"name": "instances/prod-pg/databases/orders\ninstances/prod-pg/databases/carts\ninstances/prod-my/databases/users\\x1b[31m\n",
		// Each page is laid out alone.
		"table": "DATABASE         PROJECT   ENVIRONMENT   ENGINE     SYNCED\n" +
			"prod-pg/orders   shop      prod          POSTGRES\nprod-pg/carts    shop\nprod-my/users\\x1b[31m   shop\n",
		"json": "{\n  \"databases\": [\n    {\n      \"name\": \"instances/prod-pg/databases/orders\",\n      \"project\": \"projects/shop\",\n" +
			"      \"effectiveEnvironment\": \"environments/prod\",\n      \"instanceResource\": {\n        \"engine\": \"POSTGRES\"\n      }\n    },\n" +
			"    {\n      \"name\": \"instances/prod-pg/databases/carts\",\n      \"project\": \"projects/shop\"\n    },\n" +
			"    {\n      \"name\": \"instances/prod-my/databases/users\\u001b[31m\",\n      \"project\": \"projects/shop\"\n    }\n  ]\n}\n",
		"jq":       "3\n",
		"template": "projects/shop projects/shop projects/shop ",
	})
	jsonl := cmdtest.Command{Args: []string{"databases", "list", "--project", "shop", "--filter", `name.contains("r")`, "-o", "jsonl"}, Serve: shopPages}
	want := `{"name":"instances/prod-pg/databases/orders","project":"projects/shop","effectiveEnvironment":"environments/prod","instanceResource":{"engine":"POSTGRES"}}` + "\n" +
		`{"name":"instances/prod-pg/databases/carts","project":"projects/shop"}` + "\n" +
		`{"name":"instances/prod-my/databases/users\u001b[31m","project":"projects/shop"}` + "\n"
	if got := jsonl.Run(t, cmdtest.Format{}).Stdout; got != want {
		t.Errorf("-o jsonl:\n%s\nwant\n%s", got, want)
	}
}

func TestList_limitStopsThePaging(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/instances/prod-pg/databases", 200,
		`{"databases": [{"name": "instances/prod-pg/databases/a"}, {"name": "instances/prod-pg/databases/b"}], "nextPageToken": "more"}`).Query("pageSize=2")
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "databases", "list", "--instance", "prod-pg", "--limit", "2", "-o", "name").Expect(t, 0)
	if want := "instances/prod-pg/databases/a\ninstances/prod-pg/databases/b\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
}

func TestList_workspaceAsksTheServiceItsID(t *testing.T) {
	tests := []struct {
		name  string
		serve func(reg *httpmock.Registry)
	}{
		{"3.17 and later: workspace", func(reg *httpmock.Registry) {
			reg.Register(http.MethodGet, "/v1/actuator/info", 200, `{"version": "3.21.1", "workspace": "workspaces/ws1"}`)
		}},
		{"3.16: workspaceId", func(reg *httpmock.Registry) {
			reg.Register(http.MethodGet, "/v1/actuator/info", 200, `{"version": "3.16.0", "workspaceId": "ws1"}`)
		}},
		{"no workspace without credentials: users/me", func(reg *httpmock.Registry) {
			reg.Register(http.MethodGet, "/v1/actuator/info", 200, `{"version": "cloud-20260801", "saas": true}`)
			reg.Register(http.MethodGet, "/v1/users/me", 200, `{"name": "users/a@example.com", "workspace": "workspaces/ws1"}`)
		}},
		{"actuator needs credentials: users/me", func(reg *httpmock.Registry) {
			reg.Register(http.MethodGet, "/v1/actuator/info", 401, `{"code": 16, "message": "unauthenticated"}`)
			reg.Register(http.MethodGet, "/v1/users/me", 200, `{"name": "users/a@example.com", "workspace": "workspaces/ws1"}`)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			tt.serve(reg)
			reg.Register(http.MethodGet, "/v1/workspaces/ws1/databases", 200, `{"databases": [{"name": "instances/i/databases/d"}]}`).Query("pageSize=1000")
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "databases", "list", "--workspace", "-o", "name").Expect(t, 0)
			if res.Stdout != "instances/i/databases/d\n" {
				t.Errorf("stdout %q", res.Stdout)
			}
		})
	}
}

func TestList_failures(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/actuator/info", 200, `{"version": "3.21.1"}`)
	reg.Register(http.MethodGet, "/v1/users/me", 200, `{"name": "users/a@example.com"}`)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "databases", "list", "--workspace").Expect(t, 1).
		StderrHas(t, "neither actuator/info nor users/me names the workspace")

	reg = httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/instances/nope/databases", 404, `{"code": 5, "message": "instance \"nope\" not found"}`)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "databases", "list", "--instance", "nope", "-o", "json").Expect(t, 5).
		StderrHas(t, `"code":"NOT_FOUND"`, `instance \"nope\" not found`)

	cmdtest.Refused(t, cmdtest.Options{}, []string{"databases", "list", "--instance", "a/b"}, `instance id "a/b"`)
}
