package configcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

type getOptions struct {
	IO   *iostreams.IOStreams
	Open func() (*config.File, string, error)

	Key         string
	ShowSecrets bool
}

func newGetCmd(f *factory.Factory, runF func(context.Context, *getOptions) error) *cobra.Command {
	opts := &getOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "get KEY",
		Short: "Print a setting of the profile",
		Long: `Print the value of KEY in the profile in use, as stored in the config file
(a flag or an environment variable does not change it). Nothing is printed
when the key is not set. headers prints one "Name: value" a line.

A secret (token, service_key, header values) is shown as ******** unless
--show-secrets is given. The keys are:
` + keyList() + `.`,
		Example: `  dbgov config get url
  dbgov config get --profile staging timeout
  export DBGOV_TOKEN="$(dbgov config get token --show-secrets)"`,
		Args:              arity.Exact(1, "a KEY"),
		ValidArgsFunction: completeKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key = args[0]
			opts.Open = opener(f, cmd)
			opts.ShowSecrets = showSecrets(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runGet(cmd.Context(), opts)
		},
	}
	return cmd
}

func runGet(_ context.Context, opts *getOptions) error {
	file, profile, err := opts.Open()
	if err != nil {
		return err
	}
	value, err := file.Get(profile, opts.Key)
	if err != nil {
		return err
	}
	if value == "" {
		return nil
	}
	lines := strings.Split(value, "\n")
	for i, line := range lines {
		if !opts.ShowSecrets {
			switch {
			case config.IsSecret(opts.Key):
				line = mask(opts.Key, line)
			case opts.Key == "url":
				line = config.MaskURL(line)
			}
		}
		// A hand-edited file may hold anything: keep it off the terminal.
		lines[i] = output.EscapeControl(line)
	}
	if _, err := fmt.Fprintln(opts.IO.Out, strings.Join(lines, "\n")); err != nil {
		return fmt.Errorf("write %s: %w", opts.Key, err)
	}
	return nil
}

// mask hides a secret value: of a header, only its value.
func mask(key, value string) string {
	if key == "headers" {
		if name, _, ok := strings.Cut(value, ":"); ok {
			return strings.TrimSpace(name) + ": " + secret.Mask
		}
	}
	return secret.Mask
}
