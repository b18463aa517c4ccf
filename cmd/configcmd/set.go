package configcmd

import (
	"bufio"
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
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type setOptions struct {
	IO   *iostreams.IOStreams
	Open func() (*config.File, string, error)

	Key   string
	Value string // "-" reads the value from stdin
}

func newSetCmd(f *factory.Factory, runF func(context.Context, *setOptions) error) *cobra.Command {
	opts := &setOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Store a setting in the profile",
		Long: `Store VALUE under KEY in the profile in use, creating the profile and the file
as needed. The value is checked first: url an http:// or https:// address,
timeout a duration such as 30s, output one of ` + strings.Join(output.Formats, ", ") + `,
insecure_skip_tls_verify true or false, headers one "Name: value" (which
replaces the list), ca_cert a path (stored absolute).

A VALUE of - reads the value from the first line of standard input, so that a
token or a key stays out of the shell's history. The keys are:
` + keyList() + `.`,
		Example: `  dbgov config set url https://dbgov.example.com
  dbgov config set token - < token.txt
  pass show dbgov/ci-key | dbgov config set service_key -
  dbgov config set --profile ci service_account ci@service.example.com
  dbgov config set headers 'X-Proxy-Auth: abc'`,
		Args: arity.Exact(2, "a KEY and a VALUE (- reads the value from standard input)"),
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
			opts.Key, opts.Value = args[0], args[1]
			opts.Open = opener(f, cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSet(cmd.Context(), opts)
		},
	}
	return cmd
}

func runSet(_ context.Context, opts *setOptions) error {
	file, profile, err := opts.Open()
	if err != nil {
		return err
	}
	value := opts.Value
	if value == "-" {
		if value, err = readValue(opts.IO, opts.Key); err != nil {
			return err
		}
	}
	if err := file.Set(profile, opts.Key, value); err != nil {
		return err
	}
	if err := file.Save(); err != nil {
		return err
	}
	if opts.IO.ErrTTY {
		fmt.Fprintf(opts.IO.ErrOut, "Set %s in profile %s of %s\n", opts.Key, profile, file.Path())
		if config.IsSecret(opts.Key) && opts.Value != "-" {
			fmt.Fprintf(opts.IO.ErrOut, "hint: the value is in your shell's history now; `dbgov config set %s -` reads it from standard input instead\n", opts.Key)
		}
		if opts.Key == "token" || opts.Key == "service_key" {
			fmt.Fprintf(opts.IO.ErrOut, "warning: the %s is kept in plain text; `dbgov auth login` keeps it in the keyring, or give it in the environment (DBGOV_%s)\n", opts.Key, strings.ToUpper(opts.Key))
		}
	}
	return nil
}

// readValue reads a value from the first line of stdin, without its line
// ending. From a terminal, it asks for it, and does not echo a secret.
func readValue(ios *iostreams.IOStreams, key string) (string, error) {
	if f, ok := ios.In.(interface{ Fd() uintptr }); ok && ios.InTTY && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(ios.ErrOut, "%s: ", key)
		if config.IsSecret(key) {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(ios.ErrOut)
			if err != nil {
				return "", fmt.Errorf("read %s from the terminal: %w", key, err)
			}
			return checkRead(key, string(b))
		}
	}
	line, err := bufio.NewReader(ios.In).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read %s from standard input: %w", key, err)
	}
	return checkRead(key, strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"))
}

func checkRead(key, value string) (string, error) {
	if strings.TrimSpace(value) == "" {
		return "", exitcode.Usagef("no value for %s on standard input: give it on the first line", key)
	}
	return value, nil
}
