package idps_test

import (
	"net/http"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestList_theWorkspacesProvidersFrom3171(t *testing.T) {
	tests := []struct{ info, path string }{
		{`{"version": "3.17.0", "workspace": "workspaces/w1"}`, "/v1/idps"},
		{`{"version": "3.17.1", "workspace": "workspaces/w1"}`, "/v1/workspaces/w1/idps"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/actuator/info", 200, tt.info)
			reg.Register(http.MethodGet, tt.path, 200, threeIdps)
			opts := cmdtest.Options{URL: reg.URL(), Token: "-", Env: map[string]string{"DBGOV_SERVER_VERSION": ""}}
			cmdtest.Run(t, opts, "idps", "list", "-o", "name").Expect(t, 0).StdoutHas(t, "idps/okta\n")
			for _, r := range reg.Requests() {
				if r.Header.Get("Authorization") != "" {
					t.Errorf("%s sent with credentials", r.Path)
				}
			}
		})
	}
}
