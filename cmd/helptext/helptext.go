// Package helptext gives dbgov's commands their long help and examples from
// embedded text files, so that the prose lives beside the code, not in it.
package helptext

import (
	"io/fs"
	"strings"

	"github.com/spf13/cobra"
)

// Command fills the Long and Example of cmd from help/NAME.txt in files, NAME
// being the first word of its Use (the examples follow a line "Examples:";
// no file, no long help), adds subs under it and returns it.
func Command(files fs.FS, cmd *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	name, _, _ := strings.Cut(cmd.Use, " ")
	if text, err := fs.ReadFile(files, "help/"+name+".txt"); err == nil {
		cmd.Long, cmd.Example, _ = strings.Cut(strings.TrimSpace(string(text)), "\n\nExamples:\n")
	}
	cmd.AddCommand(subs...)
	return cmd
}
