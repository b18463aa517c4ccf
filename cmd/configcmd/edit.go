package configcmd

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/output"
)

// editCmd builds a command that changes the config file: change returns
// what is confirmed on a terminal, for the file's path, and the lines told
// on stderr once the file is saved.
func editCmd(f *factory.Factory, use, short string, args cobra.PositionalArgs,
	change func(args []string, file *config.File, profile string) (done string, after []string, err error)) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args,
		RunE: func(cmd *cobra.Command, args []string) error {
			var done, path string
			var after []string
			err := config.Edit(cmd.Context(), cmd.Root().PersistentFlags(), f.Getenv, func(file *config.File, profile string) (err error) {
				path = file.Path()
				done, after, err = change(args, file, profile)
				return err
			})
			if err != nil {
				return err
			}
			if f.IO.ErrTTY {
				fmt.Fprintf(f.IO.ErrOut, "%s of %s\n", done, path)
			}
			for _, line := range after {
				fmt.Fprintln(f.IO.ErrOut, line)
			}
			return nil
		},
	}
}

func newSetCmd(f *factory.Factory) *cobra.Command {
	var value string
	cmd := editCmd(f, "set KEY VALUE", "Store a setting in the profile", arity.Exact(2, "a KEY and a VALUE (- reads the value from standard input)"),
		func(args []string, file *config.File, profile string) (string, []string, error) {
			key := args[0]
			done := "Set " + key + " in profile " + profile
			if err := file.Set(profile, key, value); err != nil || !f.IO.ErrTTY || !config.Sensitive(key) {
				return done, nil, err
			}
			var hints []string
			if args[1] != "-" {
				hints = append(hints, "hint: the value is in your shell's history now; `dbgov config set "+key+" -` reads it from standard input instead")
			}
			if env := config.Variable(key); env != "" {
				hints = append(hints, "warning: the "+key+" is kept in plain text; `dbgov auth login` keeps it in the keyring, or give it in the environment ("+env+")")
			}
			return done, hints, nil
		})
	cmd.PreRunE = func(_ *cobra.Command, args []string) (err error) {
		value = args[1]
		if value == "-" { // read before the file is locked
			value, err = f.IO.ReadLine(args[0], config.Sensitive(args[0]))
		}
		return err
	}
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			return config.Keys(), cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == "output":
			return output.Formats, cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == "insecure_skip_tls_verify":
			return []string{"true", "false"}, cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == "ca_cert":
			return nil, cobra.ShellCompDirectiveDefault
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return cmd
}

func newUnsetCmd(f *factory.Factory) *cobra.Command {
	cmd := editCmd(f, "unset KEY [NAME...]", "Remove a setting from the profile", arity.AtLeast(1, "a KEY"),
		func(args []string, file *config.File, profile string) (string, []string, error) {
			done := "Unset " + args[0] + " in profile " + profile
			switch {
			case len(args) == 1:
				return done, nil, file.Unset(profile, args[0])
			case args[0] != "headers":
				return "", nil, exitcode.Usagef("unset takes NAMEs for headers only")
			}
			return done, nil, file.UnsetHeaders(profile, args[1:])
		})
	cmd.ValidArgsFunction = completeKeys
	return cmd
}

func newUseProfileCmd(f *factory.Factory) *cobra.Command {
	var create bool
	cmd := editCmd(f, "use-profile NAME", "Make a profile the current one", arity.Exact(1, "a profile NAME"),
		func(args []string, file *config.File, _ string) (string, []string, error) {
			name, after := args[0], []string(nil)
			existed := slices.Contains(file.Profiles(), name)
			err := file.UseProfile(name, create)
			switch {
			case err == nil && !existed && !create:
				err = exitcode.Usagef("profile %s is not in config file %s (dbgov config list-profiles lists them); --create makes it", name, file.Path())
			case !existed:
				after = append(after, "warning: profile "+name+" has no settings yet; add some with `dbgov config set url https://...`")
			}
			if env := f.Getenv(config.Variable("profile")); env != "" && env != name {
				after = append(after, fmt.Sprintf("warning: %s=%s is set and overrides the current profile", config.Variable("profile"), env))
			}
			return "Using profile " + name, after, err
		})
	cmd.Flags().BoolVar(&create, "create", false, "make the profile when the file has none of that name")
	cmd.ValidArgsFunction = completeProfiles(f)
	return cmd
}

func newDeleteProfileCmd(f *factory.Factory) *cobra.Command {
	cmd := editCmd(f, "delete-profile NAME", "Remove a profile from the config file", arity.Exact(1, "a profile NAME"),
		func(args []string, file *config.File, _ string) (string, []string, error) {
			return "Deleted profile " + args[0], nil, file.DeleteProfile(args[0])
		})
	cmd.ValidArgsFunction = completeProfiles(f)
	return cmd
}
