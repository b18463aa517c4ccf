package api

import (
	"testing"

	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestNewCmd_arguments parses api's method, path and flags without a
// service: the request its run would send, or the usage error that stops it.
func TestNewCmd_arguments(t *testing.T) {
	flagtest.Run(t, NewCmd, []flagtest.Case[Options]{
		{Name: "a method in any case, a path without its slash", Args: "get v1/instances?pageSize=5 --paginate",
			Want: func(o *Options) bool {
				return o.Method == "GET" && o.Target == "/v1/instances?pageSize=5" && o.Paginate
			}},
		{Name: "a body", Args: "PATCH /v1/users/a@x.com --input u.json",
			Want: func(o *Options) bool { return o.Method == "PATCH" && o.Input == "u.json" }},
		{Name: "an unknown method", Args: "FETCH /v1/instances", WantErr: `method "FETCH" is not one of`},
		{Name: "a GET with a body", Args: "GET /v1/instances --input u.json", WantErr: "a GET request has no body"},
		{Name: "pages of a POST", Args: "POST /v1/instances --paginate", WantErr: "--paginate follows the pages of a GET"},
		{Name: "no path", Args: "GET", WantErr: "a METHOD and a PATH"},
	})
}
