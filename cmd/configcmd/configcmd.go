// Package configcmd implements `dbgov config`, which reads and edits the
// config file. It is named configcmd so as not to clash with the config
// package it drives.
package configcmd

import (
	"embed"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var helpFiles embed.FS

// NewCmd builds the config command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	group := &cobra.Command{Use: "config <command>", Short: "Read and edit dbgov's config file", DisableFlagsInUseLine: true}
	for _, sub := range []*cobra.Command{newViewCmd(f), newGetCmd(f), newSetCmd(f), newUnsetCmd(f),
		newUseProfileCmd(f), newListProfilesCmd(f), newDeleteProfileCmd(f)} {
		group.AddCommand(helptext.Command(helpFiles, sub))
	}
	return helptext.Command(helpFiles, group)
}

// open loads the config file and names the profile that the global flags
// and the environment choose. It checks no setting, so that a bad value
// can still be shown and repaired.
func open(f *factory.Factory, cmd *cobra.Command) (*config.File, string, error) {
	return config.Open(cmd.Root().PersistentFlags(), f.Getenv)
}

// showSecrets reports whether the global --show-secrets flag is set.
func showSecrets(cmd *cobra.Command) bool {
	show, _ := cmd.Flags().GetBool("show-secrets")
	return show
}

// completeKeys completes the KEY argument of get and unset.
func completeKeys(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return config.Keys(), cobra.ShellCompDirectiveNoFileComp
}

// completeProfiles completes a profile NAME argument.
func completeProfiles(f *factory.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		file, _, err := open(f, cmd)
		if len(args) > 0 || err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return file.Profiles(), cobra.ShellCompDirectiveNoFileComp
	}
}

// printFile prints the document doc makes of the config file and the
// profile in use. -o defaults to DBGOV_OUTPUT alone, so that a config file
// holding a bad value can be repaired.
func printFile(f *factory.Factory, cmd *cobra.Command, doc func(file *config.File, profile string) (output.Document, error)) error {
	file, profile, err := open(f, cmd)
	if err != nil {
		return err
	}
	d, err := doc(file, profile)
	if err != nil {
		return err
	}
	pf := f.PrintFlags()
	pf.Format = func() (string, error) { return config.Given(pf.Flags, f.Getenv, "output"), nil }
	pf.SummaryFile = nil // it would read the settings too
	p, err := pf.ToPrinter()
	if err != nil {
		return err
	}
	return p.Print(cmd.Context(), f.IO.Out, d)
}
