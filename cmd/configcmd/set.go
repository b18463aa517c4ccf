package configcmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

func newSetCmd(f *factory.Factory) *cobra.Command {
	var value string
	cmd := editCmd(f, "set KEY VALUE", "Store a setting in the profile", arity.Exact(2, "a KEY and a VALUE (- reads the value from standard input)"),
		func(args []string, file *config.File, profile string) (string, error) {
			return "Set " + args[0] + " in profile " + profile, file.Set(profile, args[0], value)
		})
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
	edit := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		key := args[0]
		value = args[1]
		if value == "-" { // read before the file is locked
			var err error
			if value, err = readValue(f.IO, key); err != nil {
				return err
			}
		}
		if err := edit(c, args); err != nil || !f.IO.ErrTTY {
			return err
		}
		if config.Sensitive(key) && args[1] != "-" {
			fmt.Fprintf(f.IO.ErrOut, "hint: the value is in your shell's history now; `dbgov config set %s -` reads it from standard input instead\n", key)
		}
		if env := config.Variable(key); config.Sensitive(key) && env != "" {
			fmt.Fprintf(f.IO.ErrOut, "warning: the %s is kept in plain text; `dbgov auth login` keeps it in the keyring, or give it in the environment (%s)\n", key, env)
		}
		return nil
	}
	return cmd
}

// readValue reads a value from the first line of stdin, or asks for it on a
// terminal, not echoing a secret.
func readValue(ios *iostreams.IOStreams, key string) (string, error) {
	value, err := ios.ReadLine(key, config.Sensitive(key))
	if err == nil && value == "" {
		err = exitcode.Usagef("no value for %s on standard input: give it on the first line", key)
	}
	return value, err
}
