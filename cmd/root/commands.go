package root

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/api"
	"github.com/dbgov/dbgov/cmd/auth"
	"github.com/dbgov/dbgov/cmd/catalog"
	"github.com/dbgov/dbgov/cmd/completion"
	"github.com/dbgov/dbgov/cmd/configcmd"
	"github.com/dbgov/dbgov/cmd/devservercmd"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/idps"
	"github.com/dbgov/dbgov/cmd/listing"
	"github.com/dbgov/dbgov/cmd/policies"
	"github.com/dbgov/dbgov/cmd/reviewconfigs"
	"github.com/dbgov/dbgov/cmd/revisions"
	"github.com/dbgov/dbgov/cmd/schema"
	"github.com/dbgov/dbgov/cmd/users"
	"github.com/dbgov/dbgov/cmd/version"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/output"
)

func addCommands(cmd *cobra.Command, f *factory.Factory) {
	cmd.AddCommand(
		api.NewCmd(f),
		auth.NewCmd(f),
		catalog.NewCmd(f),
		completion.NewCmd(f),
		configcmd.NewCmd(f),
		idps.NewCmd(f),
		policies.NewCmd(f),
		reviewconfigs.NewCmd(f),
		revisions.NewCmd(f),
		schema.NewCmd(f),
		users.NewCmd(f),
		version.NewCmd(f),
		devservercmd.NewCmd(f),
	)
	cmd.AddCommand(listing.NewCmds(f)...)
	addTopics(cmd)
}

// idFlags take an id: completion offers no file names for them.
var idFlags = []string{"instance", "database", "changelog", "target-changelog", "environment", "project"}

// registerCompletions offers the values of the global enum flags, and the
// profiles of the config file for --profile.
func registerCompletions(cmd *cobra.Command, f *factory.Factory) {
	_ = cmd.RegisterFlagCompletionFunc("output", fixedValues(output.Formats...))
	_ = cmd.RegisterFlagCompletionFunc("profile", func(c *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		file, _, err := config.Open(c.Root().PersistentFlags(), f.Getenv)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return fixedValues(file.Profiles()...)(c, nil, toComplete)
	})
}

// noFileCompletion keeps file names out of the completion of c's id flags
// and arguments: no command takes a file as an argument.
func noFileCompletion(c *cobra.Command) {
	for _, name := range idFlags {
		if _, done := c.GetFlagCompletionFunc(name); !done && c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
		}
	}
	if c.Runnable() && !c.HasSubCommands() && c.ValidArgsFunction == nil && len(c.ValidArgs) == 0 {
		c.ValidArgsFunction = cobra.NoFileCompletions
	}
}

// fixedValues completes a flag from a fixed list, keeping those that start
// with what was typed, in any case.
func fixedValues(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(strings.ToLower(v), strings.ToLower(toComplete)) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
