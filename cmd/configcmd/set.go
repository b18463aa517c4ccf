package configcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type setOptions struct {
	files
	Key   string
	Value string // "-" reads the value from stdin
}

func newSetCmd(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Store a setting in the profile",
		Args:  arity.Exact(2, "a KEY and a VALUE (- reads the value from standard input)"),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
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
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSet(cmd.Context(), &setOptions{files: filesOf(f, cmd), Key: args[0], Value: args[1]})
		},
	}
}

func runSet(ctx context.Context, opts *setOptions) error {
	value := opts.Value
	if value == "-" {
		var err error
		if value, err = readValue(opts.IO, opts.Key); err != nil {
			return err
		}
	}
	var where string
	err := opts.Edit(ctx, func(file *config.File, profile string) error {
		where = "profile " + profile + " of " + file.Path()
		return file.Set(profile, opts.Key, value)
	})
	if err != nil || !opts.IO.ErrTTY {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Set %s in %s\n", opts.Key, where)
	if isSecret(opts.Key) && opts.Value != "-" {
		fmt.Fprintf(opts.IO.ErrOut, "hint: the value is in your shell's history now; `dbgov config set %s -` reads it from standard input instead\n", opts.Key)
	}
	if opts.Key == "token" || opts.Key == "service_key" {
		fmt.Fprintf(opts.IO.ErrOut, "warning: the %s is kept in plain text; `dbgov auth login` keeps it in the keyring, or give it in the environment (DBGOV_%s)\n", opts.Key, strings.ToUpper(opts.Key))
	}
	return nil
}

// readValue reads a value from the first line of stdin, without its line
// ending. From a terminal, it asks for it, and does not echo a secret.
func readValue(ios *iostreams.IOStreams, key string) (string, error) {
	if f, ok := ios.In.(interface{ Fd() uintptr }); ok && ios.InTTY && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(ios.ErrOut, "%s: ", key)
		if isSecret(key) {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(ios.ErrOut)
			if err != nil {
				return "", fmt.Errorf("read %s from the terminal: %w", key, err)
			}
			return checkRead(key, string(b))
		}
	}
	var value string
	err := input.Lines(ios.In, "standard input", func(_ int, line string) error {
		value = line
		return io.EOF // the first line is the value
	})
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return checkRead(key, value)
}

func checkRead(key, value string) (string, error) {
	if strings.TrimSpace(value) == "" {
		return "", exitcode.Usagef("no value for %s on standard input: give it on the first line", key)
	}
	return value, nil
}
