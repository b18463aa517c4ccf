// Package completion implements `dbgov completion`, which prints the script
// that teaches a shell to complete dbgov's commands, flags and values.
package completion

import (
	"embed"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
)

//go:embed help
var help embed.FS

// shells are the shells a script can be printed for.
var shells = [...]string{"bash", "zsh", "fish", "powershell"}

// scripts write the completion script of each shell, with descriptions.
var scripts = map[string]func(*cobra.Command, io.Writer) error{
	"bash":       func(c *cobra.Command, w io.Writer) error { return c.GenBashCompletionV2(w, true) },
	"zsh":        (*cobra.Command).GenZshCompletion,
	"fish":       func(c *cobra.Command, w io.Writer) error { return c.GenFishCompletion(w, true) },
	"powershell": (*cobra.Command).GenPowerShellCompletionWithDesc,
}

// NewCmd builds `dbgov completion SHELL`.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{
		Use:                   "completion SHELL",
		Short:                 "Print the shell completion script for bash, zsh, fish or PowerShell",
		Args:                  arity.Exact(1, "a SHELL: "+strings.Join(shells[:], ", ")),
		ValidArgs:             shells[:],
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			shell := strings.ToLower(args[0])
			script, ok := scripts[shell]
			if !ok {
				return exitcode.Usagef("unknown shell %q: use one of %s", args[0], strings.Join(shells[:], ", "))
			}
			if err := script(cmd.Root(), f.IO.Out); err != nil {
				return fmt.Errorf("write the %s completion script: %w", shell, err)
			}
			return nil
		},
	})
}
