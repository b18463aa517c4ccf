package catalog

import (
	"testing"

	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestSetCmd_flags parses catalog set's flags without a service: the
// change its run would make, or the usage error that stops it.
func TestSetCmd_flags(t *testing.T) {
	const db = "--database instances/prod/databases/orders "
	flagtest.Run(t, newSetCmd, []flagtest.Case[setOptions]{
		{Name: "a column's labels", Args: db + "--schema public --table t --column c --label pii=true --remove-label owner",
			Want: func(o *setOptions) bool {
				return o.SchemaGiven && o.Column == "c" && o.Labels["pii"] == "true" && o.Labels["owner"] == nil && len(o.Labels) == 2
			}},
		{Name: "a table's classification removed", Args: db + "--table t --classification=",
			Want: func(o *setOptions) bool { return !o.SchemaGiven && o.Classification != nil && *o.Classification == "" }},
		{Name: "no table", Args: db + "--classification 1-1", WantErr: "--table is required"},
		{Name: "labels of a table", Args: db + "--table t --label a=b", WantErr: "need --column"},
		{Name: "nothing to change", Args: db + "--table t --column c", WantErr: "nothing to change"},
	})
}
