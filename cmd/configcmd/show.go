package configcmd

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/textsafe"
	"github.com/dbgov/dbgov/output"
)

func newGetCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "get KEY",
		Short:             "Print a setting of the profile",
		Args:              arity.Exact(1, "a KEY"),
		ValidArgsFunction: completeKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			file, profile, err := open(f, cmd)
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
			lines := strings.Split(value, "\n")
			for i, line := range lines {
				if !showSecrets(cmd) {
					line = config.Mask(key, line)
				}
				// A hand-edited file may hold anything: keep it off the terminal.
				lines[i] = textsafe.Line(line)
			}
			if _, err := fmt.Fprintln(f.IO.Out, strings.Join(lines, "\n")); err != nil {
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
				text, raw, err := file.View(showSecrets(cmd))
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
				list := struct {
					Profiles []profile `json:"profiles"`
				}{Profiles: []profile{}}
				var text strings.Builder
				for _, name := range file.Profiles() {
					list.Profiles = append(list.Profiles, profile{Name: name, Current: name == current})
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
