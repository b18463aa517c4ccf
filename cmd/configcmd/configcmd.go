// Package configcmd implements `dbgov config`, which reads and edits the
// config file. It is named configcmd so as not to clash with the config
// package it drives.
package configcmd

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/secret"
)

// NewCmd builds the config command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config <command>",
		Short: "Read and edit dbgov's config file",
		Long: `Read and edit dbgov's config file, which holds named profiles of settings.

The file is the one --config or DBGOV_CONFIG names, else
$XDG_CONFIG_HOME/dbgov/config.yaml, else ~/.config/dbgov/config.yaml. The
profile is the one --profile or DBGOV_PROFILE names, else the file's current
profile, else "default". A flag or an environment variable overrides the
profile's value of the same setting.

The keys of a profile are:
` + keyList() + `.

token, service_key and the values of headers are secrets: they are shown as
` + secret.Mask + ` unless --show-secrets is given. The file is written readable by
its owner alone. These commands send nothing to the service.`,
		Example: `  dbgov config set url https://dbgov.example.com
  dbgov config set token - < token.txt
  dbgov config get url
  dbgov config --profile staging set url https://staging.dbgov.example.com
  dbgov config use-profile staging
  dbgov config view`,
		DisableFlagsInUseLine: true,
	}
	cmd.AddCommand(
		newViewCmd(f, nil),
		newGetCmd(f, nil),
		newSetCmd(f, nil),
		newUnsetCmd(f, nil),
		newUseProfileCmd(f, nil),
	)
	return cmd
}

// opener returns how cmd opens the config file: the file and the profile
// that the global flags and the environment choose. It checks no setting,
// so that a bad value can still be repaired.
func opener(f *factory.Factory, cmd *cobra.Command) func() (*config.File, string, error) {
	return func() (*config.File, string, error) {
		return config.Open(cmd.Root().PersistentFlags(), f.Getenv)
	}
}

// showSecrets reports whether the global --show-secrets flag is set.
func showSecrets(cmd *cobra.Command) bool {
	fl := cmd.Flags().Lookup("show-secrets")
	if fl == nil {
		return false
	}
	show, err := strconv.ParseBool(fl.Value.String())
	return err == nil && show
}

// completeKeys completes the KEY argument of get, set and unset.
func completeKeys(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return config.Keys(), cobra.ShellCompDirectiveNoFileComp
}

// keyList lists the keys of a profile for help text, wrapped to fit a
// terminal.
func keyList() string {
	var b strings.Builder
	width := 0
	for i, k := range config.Keys() {
		if i > 0 {
			b.WriteString(",")
			width++
			if width+1+len(k) > 72 {
				b.WriteString("\n  ")
				width = 2
			} else {
				b.WriteString(" ")
				width++
			}
		} else {
			b.WriteString("  ")
			width = 2
		}
		b.WriteString(k)
		width += len(k)
	}
	return b.String()
}
