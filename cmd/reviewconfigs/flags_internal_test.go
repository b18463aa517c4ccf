package reviewconfigs

import (
	"testing"

	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestGetCmd_flags parses review-configs get's arguments without a
// service: the configuration its run would read, or the usage error that
// stops it.
func TestGetCmd_flags(t *testing.T) {
	id := func(want string) func(*getOptions) bool { return func(o *getOptions) bool { return o.ID == want } }
	flagtest.Run(t, newGetCmd, []flagtest.Case[getOptions]{
		{Name: "an id", Args: "sql-review", Want: id("sql-review")},
		{Name: "a full name", Args: "reviewConfigs/sql-review", Want: id("sql-review")},
		{Name: "no id", Args: "", WantErr: "takes a review configuration ID (got 0 arguments)"},
		{Name: "two ids", Args: "a b", WantErr: "takes a review configuration ID (got 2 arguments)"},
		{Name: "another collection", Args: "a/b", WantErr: "a/b"},
	})
}
