package policies_test

import (
	"net/http"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestList_workspaceWhereTheReleaseKeepsItsPolicies(t *testing.T) {
	tests := []struct{ release, info, path string }{
		{"3.15.0", `{"version": "3.15.0", "workspaceId": "w1"}`, "/v1/policies"},
		{"3.16.0", `{"version": "3.16.0", "workspaceId": "w1"}`, "/v1/workspaces/w1/policies"},
		{"3.21.1", `{"version": "3.21.1", "workspace": "workspaces/w1"}`, "/v1/workspaces/w1/policies"},
	}
	for _, tt := range tests {
		t.Run(tt.release, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/actuator/info", 200, tt.info).Times(1)
			reg.Register(http.MethodGet, tt.path, 200, `{"policies": [{"name": "workspaces/w1/policies/masking_rule", "type": "MASKING_RULE"}]}`).Query("")
			opts := cmdtest.Options{URL: reg.URL(), Env: map[string]string{"DBGOV_SERVER_VERSION": ""}}
			cmdtest.Run(t, opts, "policies", "list", "--workspace", "-o", "name").Expect(t, 0).StdoutHas(t, "masking_rule")
		})
	}
}

func TestList_dataSourceQueryIsRefusedFrom315(t *testing.T) {
	for _, release := range []string{"3.15.0", "3.21.1"} {
		cmdtest.Refused(t, cmdtest.Options{Env: map[string]string{"DBGOV_SERVER_VERSION": release}},
			[]string{"policies", "list", "--project", "shop", "--type", "data_source_query"},
			"the service's release "+release+" has no DATA_SOURCE_QUERY policies (none since 3.15.0)")
	}
	cmdtest.Refused(t, cmdtest.Options{Env: map[string]string{"DBGOV_SERVER_VERSION": "3.16.0"}, Stdin: "prod-pg/orders\nprod-pg/inventory\n"},
		[]string{"policies", "list", "--databases-from", "-", "--type", "data_source_query"}, "has no DATA_SOURCE_QUERY policies")
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/projects/shop/policies", 200, `{}`).Query("policyType=DATA_SOURCE_QUERY")
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "policies", "list", "--project", "shop", "--type", "data_source_query").Expect(t, 0)
}
