package idps

import (
	"testing"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestListCmd_flags parses idps list's arguments without a service: it
// takes none.
func TestListCmd_flags(t *testing.T) {
	flagtest.Run(t, newListCmd, []flagtest.Case[factory.Deps]{
		{Name: "no arguments", Args: "", Want: func(d *factory.Deps) bool { return d.Client != nil }},
		{Name: "an argument", Args: "idps/google", WantErr: "takes no arguments (got 1 argument)"},
	})
}
