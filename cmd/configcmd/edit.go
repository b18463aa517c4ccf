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

// editOptions are what a command that changes the config file runs with.
type editOptions struct {
	Args   []string
	Value  string // set's VALUE, read from standard input for "-"
	Create bool   // use-profile --create
}

// editCmd builds a command that changes the config file as opts say: change
// returns what is confirmed on a terminal, for the file's path, and the
// lines told on stderr once the file is saved. runF, when not nil, is called
// with the options in place of the change: for tests of the arguments.
func editCmd(f *factory.Factory, opts *editOptions, runF func(*editOptions) error, use, short string, args cobra.PositionalArgs,
	change func(file *config.File, profile string) (done string, after []string, err error)) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if runF != nil {
				return runF(opts)
			}
			var done, path string
			var after []string
			err := config.Edit(cmd.Context(), cmd.Root().PersistentFlags(), f.Getenv, func(file *config.File, profile string) (err error) {
				path = file.Path()
				done, after, err = change(file, profile)
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

func newSetCmd(f *factory.Factory, runF func(*editOptions) error) *cobra.Command {
	opts := &editOptions{}
	cmd := editCmd(f, opts, runF, "set KEY VALUE", "Store a setting in the profile", arity.Exact(2, "a KEY and a VALUE (- reads the value from standard input)"),
		func(file *config.File, profile string) (string, []string, error) {
			key := opts.Args[0]
			done := "Set " + key + " in profile " + profile
			if err := file.Set(profile, key, opts.Value); err != nil || !f.IO.ErrTTY || !config.Sensitive(key) {
				return done, nil, err
			}
			var hints []string
			if opts.Args[1] != "-" {
				hints = append(hints, "hint: the value is in your shell's history now; `dbgov config set "+key+" -` reads it from standard input instead")
			}
			if env := config.Variable(key); env != "" {
				hints = append(hints, "warning: the "+key+" is kept in plain text; `dbgov auth login` keeps it in the keyring, or give it in the environment ("+env+")")
			}
			return done, hints, nil
		})
	cmd.PreRunE = func(_ *cobra.Command, args []string) (err error) {
		opts.Value = args[1]
		if opts.Value == "-" { // read before the file is locked
			opts.Value, err = f.IO.ReadLine(args[0], config.Sensitive(args[0]))
		}
		return err
	}
	values := map[string][]string{"output": output.Formats, "insecure_skip_tls_verify": {"true", "false"}}
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			return config.Keys(), cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == "ca_cert":
			return nil, cobra.ShellCompDirectiveDefault
		case len(args) == 1:
			return values[args[0]], cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return cmd
}

func newUnsetCmd(f *factory.Factory, runF func(*editOptions) error) *cobra.Command {
	opts := &editOptions{}
	cmd := editCmd(f, opts, runF, "unset KEY [NAME...]", "Remove a setting from the profile", arity.AtLeast(1, "a KEY"),
		func(file *config.File, profile string) (string, []string, error) {
			args := opts.Args
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

func newUseProfileCmd(f *factory.Factory, runF func(*editOptions) error) *cobra.Command {
	opts := &editOptions{}
	cmd := editCmd(f, opts, runF, "use-profile NAME", "Make a profile the current one", arity.Exact(1, "a profile NAME"),
		func(file *config.File, _ string) (string, []string, error) {
			name := opts.Args[0]
			var after []string
			existed := slices.Contains(file.Profiles(), name)
			err := file.UseProfile(name, opts.Create)
			switch {
			case err == nil && !existed && !opts.Create:
				err = exitcode.Usagef("profile %s is not in config file %s (dbgov config list-profiles lists them); --create makes it", name, file.Path())
			case !existed:
				after = append(after, "warning: profile "+name+" has no settings yet; add some with `dbgov config set url https://...`")
			}
			if env := f.Getenv(config.Variable("profile")); env != "" && env != name {
				after = append(after, fmt.Sprintf("warning: %s=%s is set and overrides the current profile", config.Variable("profile"), env))
			}
			return "Using profile " + name, after, err
		})
	cmd.Flags().BoolVar(&opts.Create, "create", false, "make the profile when the file has none of that name")
	cmd.ValidArgsFunction = completeProfiles(f)
	return cmd
}

func newDeleteProfileCmd(f *factory.Factory, runF func(*editOptions) error) *cobra.Command {
	opts := &editOptions{}
	cmd := editCmd(f, opts, runF, "delete-profile NAME", "Remove a profile from the config file", arity.Exact(1, "a profile NAME"),
		func(file *config.File, _ string) (string, []string, error) {
			return "Deleted profile " + opts.Args[0], nil, file.DeleteProfile(opts.Args[0])
		})
	cmd.ValidArgsFunction = completeProfiles(f)
	return cmd
}
