package listing

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/flagtest"
)

func TestListCmd_flags(t *testing.T) {
	// want accepts the options of a list under parent ("": the workspace).
	want := func(parent string, limit int, filter string) func(*Options) bool {
		return func(o *Options) bool {
			return o.Instance+o.Project == parent && o.Workspace == (parent == "") && o.Limit == limit && o.Filter == filter
		}
	}
	newCmd := func(f *factory.Factory, runF func(*Options) error) *cobra.Command {
		return Cmd(f, help, databases, runF)
	}
	flagtest.Run(t, newCmd, []flagtest.Case[Options]{
		{Args: "--instance prod-pg", Want: want("prod-pg", 0, "")},
		{Args: `--project shop --filter name.contains("o") --limit 5`, Want: want("shop", 5, `name.contains("o")`)},
		{Args: "--workspace", Want: want("", 0, "")},
		{Args: "", WantErr: "give exactly one of --instance I, --project P or --workspace"},
		{Args: "--instance a --project b", WantErr: "give exactly one of"},
		{Args: "--project b --workspace", WantErr: "give exactly one of"},
		{Args: "--instance a --limit -1", WantErr: "--limit must be 0 (no limit) or more, not -1"},
	})
}
