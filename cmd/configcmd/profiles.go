package configcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/output"
)

type listProfilesOptions struct {
	files
	Printer func() (output.Printer, error)
}

func newListProfilesCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list-profiles",
		Short: "List the profiles of the config file",
		Args:  arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runListProfiles(cmd.Context(), &listProfilesOptions{files: filesOf(f, cmd), Printer: f.LocalPrinter})
		},
	}
}

func runListProfiles(_ context.Context, opts *listProfilesOptions) error {
	file, current, err := opts.Open()
	if err != nil {
		return err
	}
	type profile struct {
		Name    string `json:"name"`
		Current bool   `json:"current,omitempty"`
	}
	var list struct {
		Profiles []profile `json:"profiles"`
	}
	var text strings.Builder
	list.Profiles = []profile{}
	for _, name := range file.Profiles() {
		mark := "  "
		if name == current {
			mark = "* "
		}
		list.Profiles = append(list.Profiles, profile{Name: name, Current: name == current})
		text.WriteString(mark + name + "\n")
	}
	raw, err := json.Marshal(list)
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	return p.Print(opts.IO.Out, output.Document{Raw: raw, ListField: "profiles", Text: text.String,
		Names: func() []string { return file.Profiles() }})
}

func newDeleteProfileCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "delete-profile NAME",
		Short:             "Remove a profile from the config file",
		Args:              arity.Exact(1, "a profile NAME"),
		ValidArgsFunction: completeProfiles(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := filesOf(f, cmd)
			var path string
			err := opts.Edit(cmd.Context(), func(file *config.File, _ string) error {
				path = file.Path()
				return file.DeleteProfile(args[0])
			})
			if err == nil && opts.IO.ErrTTY {
				fmt.Fprintf(opts.IO.ErrOut, "Deleted profile %s of %s\n", args[0], path)
			}
			return err
		},
	}
}
