package configcmd

import (
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
			value, err = readValue(f.IO, args[0])
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

// readValue reads a value from the first line of stdin, or asks for it on a
// terminal, not echoing a secret.
func readValue(ios *iostreams.IOStreams, key string) (string, error) {
	value, err := ios.ReadLine(key, config.Sensitive(key))
	if err == nil && value == "" {
		err = exitcode.Usagef("no value for %s on standard input: give it on the first line", key)
	}
	return value, err
}
