package configcmd

import (
	"slices"
	"testing"

	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestEditCmds_flags parses the arguments of the commands that change the
// config file without touching it: the options their change would get, or
// the usage error that stops them first.
func TestEditCmds_flags(t *testing.T) {
	flagtest.Run(t, newSetCmd, []flagtest.Case[editOptions]{
		{Name: "a value", Args: "url https://x.example", Want: func(o *editOptions) bool { return o.Value == "https://x.example" }},
		{Name: "a value from standard input", Args: "token -", Stdin: " tok-123 \nrest\n",
			Want: func(o *editOptions) bool { return o.Value == "tok-123" && o.Args[1] == "-" }},
		{Name: "empty standard input", Args: "token -", WantErr: "no value for token on standard input"},
		{Name: "no value", Args: "url", WantErr: "a KEY and a VALUE"},
	})
	flagtest.Run(t, newUnsetCmd, []flagtest.Case[editOptions]{
		{Name: "a key", Args: "timeout", Want: func(o *editOptions) bool { return len(o.Args) == 1 }},
		{Name: "headers by name", Args: "headers X-A X-B", Want: func(o *editOptions) bool { return slices.Equal(o.Args, []string{"headers", "X-A", "X-B"}) }},
		{Name: "no key", Args: "", WantErr: "a KEY"},
	})
	flagtest.Run(t, newUseProfileCmd, []flagtest.Case[editOptions]{
		{Name: "a profile", Args: "prod", Want: func(o *editOptions) bool { return o.Args[0] == "prod" && !o.Create }},
		{Name: "a new profile", Args: "staging --create", Want: func(o *editOptions) bool { return o.Args[0] == "staging" && o.Create }},
		{Name: "two profiles", Args: "a b", WantErr: "a profile NAME"},
	})
	flagtest.Run(t, newDeleteProfileCmd, []flagtest.Case[editOptions]{
		{Name: "the profile to delete", Args: "prod", Want: func(o *editOptions) bool { return o.Args[0] == "prod" }},
		{Name: "no profile", Args: "", WantErr: "a profile NAME"},
	})
}
