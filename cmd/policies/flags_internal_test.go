package policies

import (
	"testing"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestListCmd_flags parses policies list's flags without a service: the
// parent and type its run would get, or the usage error that stops it.
func TestListCmd_flags(t *testing.T) {
	flagtest.Run(t, newListCmd, []flagtest.Case[listOptions]{
		{Name: "a database, a type in any case", Args: "--database instances/prod/databases/orders --type masking_rule",
			Want: func(o *listOptions) bool {
				return o.Parent.Database != nil && o.Parent.Database.Database == "orders" && o.Type == client.PolicyType("MASKING_RULE")
			}},
		{Name: "an environment by its full name", Args: "--environment environments/test --show-deleted",
			Want: func(o *listOptions) bool { return o.Parent.Environment == "test" && o.ShowDeleted }},
		{Name: "a project by its id", Args: "--project shop", Want: func(o *listOptions) bool { return o.Parent.Project == "shop" }},
		{Name: "two parents", Args: "--project shop --workspace", WantErr: "give exactly one parent"},
		{Name: "no parent", Args: "", WantErr: "give exactly one parent"},
		{Name: "an unknown type", Args: "--workspace --type nosuch", WantErr: `unknown policy type "nosuch"`},
	})
}
