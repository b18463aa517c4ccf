// Package configcmd implements `dbgov config`, which reads and edits the
// config file. It is named configcmd so as not to clash with the config
// package it drives.
package configcmd

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/textsafe"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var helpFiles embed.FS

// NewCmd builds the config command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	group := &cobra.Command{Use: "config <command>", Short: "Read and edit dbgov's config file", DisableFlagsInUseLine: true}
	for _, sub := range []*cobra.Command{newViewCmd(f), newGetCmd(f), newSetCmd(f, nil), newUnsetCmd(f, nil),
		newUseProfileCmd(f, nil), newListProfilesCmd(f), newDeleteProfileCmd(f, nil)} {
		group.AddCommand(helptext.Command(helpFiles, sub))
	}
	return helptext.Command(helpFiles, group)
}

func newGetCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "get KEY",
		Short:             "Print a setting of the profile",
		Args:              arity.Exact(1, "a KEY"),
		ValidArgsFunction: completeKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			file, profile, err := config.Open(cmd.Root().PersistentFlags(), f.Getenv)
			if err != nil {
				return err
			}
			key := args[0]
			value, err := file.Get(profile, key)
			if err != nil {
				return err
			}
			if value == "" {
				return fmt.Errorf("%s is not set in profile %s of %s", key, profile, file.Path())
			}
			show, _ := cmd.Flags().GetBool("show-secrets")
			lines := strings.Split(value, "\n")
			for i, line := range lines {
				if !show {
					lines[i] = config.Mask(key, line)
				}
			}
			// A hand-edited file may hold anything: keep it off the terminal.
			if _, err := fmt.Fprintln(f.IO.Out, textsafe.Lines(strings.Join(lines, "\n"))); err != nil {
				return fmt.Errorf("write %s: %w", key, err)
			}
			return nil
		},
	}
}

func newViewCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:        "view",
		Short:      "Print the config file",
		SuggestFor: []string{"list", "show"},
		Args:       arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printFile(f, cmd, func(file *config.File, _ string) (output.Document, error) {
				show, _ := cmd.Flags().GetBool("show-secrets")
				text, raw, err := file.View(show)
				if err != nil {
					return output.Document{}, fmt.Errorf("show config file %s: %w", file.Path(), err)
				}
				return output.Document{Raw: raw, Text: new(string(text))}, nil
			})
		},
	}
}

func newListProfilesCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list-profiles",
		Short: "List the profiles of the config file",
		Args:  arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printFile(f, cmd, func(file *config.File, current string) (output.Document, error) {
				type profile struct {
					Name    string `json:"name"`
					Current bool   `json:"current,omitempty"`
				}
				list := map[string][]profile{"profiles": {}}
				var text strings.Builder
				for _, name := range file.Profiles() {
					list["profiles"] = append(list["profiles"], profile{Name: name, Current: name == current})
					mark := "  "
					if name == current {
						mark = "* "
					}
					text.WriteString(mark + name + "\n")
				}
				raw, err := json.Marshal(list)
				return output.Document{Raw: raw, ListField: "profiles", Text: new(text.String()), Names: file.Profiles()}, err
			})
		},
	}
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
		file, _, err := config.Open(cmd.Root().PersistentFlags(), f.Getenv)
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
	file, profile, err := config.Open(cmd.Root().PersistentFlags(), f.Getenv)
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
