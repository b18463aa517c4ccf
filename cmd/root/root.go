// Package root assembles dbgov's command tree and runs it: the one place where
// a command's error becomes its message and exit code.
package root

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// New builds the root command with every subcommand.
func New(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dbgov <command> <subcommand> [flags]",
		Short: "Administer a Database Governance Service from the command line",
		Long: `dbgov drives a Database Governance Service through its /v1 API: database
catalogs, schema revisions, SQL review configurations, users, policies,
identity providers and schema diffs.

Point it at a service with --url (or DBGOV_URL, or ` + "`dbgov config set url`" + `) and
authenticate with --token, or with --service-account and --service-key.`,
		Example: `  dbgov idps list
  dbgov users batch-get alice@example.com bob@example.com -o json
  dbgov policies list --instance prod-pg --database orders --type masking_rule`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	f.RegisterFlags(cmd.PersistentFlags())
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return exitcode.Usagef("%v\nrun '%s --help' for usage", err, c.CommandPath())
	})
	registerCompletions(cmd, f)
	addCommands(cmd, f)
	refuseUnknownSubcommands(cmd)
	return cmd
}

// refuseUnknownSubcommands makes every command group answer an unknown verb
// with a usage error (cobra would print the help and succeed), and a bare
// group with its help.
func refuseUnknownSubcommands(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) == 0 {
					return c.Help()
				}
				msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
				if c.SuggestionsMinimumDistance <= 0 {
					c.SuggestionsMinimumDistance = 2
				}
				switch s := c.SuggestionsFor(args[0]); len(s) {
				case 0:
				case 1:
					msg += fmt.Sprintf("; did you mean %q?", s[0])
				default:
					msg += fmt.Sprintf("; did you mean one of %q?", s)
				}
				return exitcode.Usagef("%s\nrun '%s --help' for usage", msg, c.CommandPath())
			}
		}
		refuseUnknownSubcommands(c)
	}
}

// Run executes the command line args and returns the exit code, having
// reported any error on stderr.
func Run(ctx context.Context, ios *iostreams.IOStreams, version, commit string, args []string, getenv func(string) string) int {
	f := factory.New(ios, version, commit, getenv)
	cmd := New(f)
	cmd.SetArgs(args)
	cmd.SetIn(ios.In)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)

	// Errors that cobra finds before any command runs (an unknown command, a
	// wrong number of arguments) are usage errors.
	started := false
	hook := cmd.PersistentPreRunE
	cmd.PersistentPreRunE = func(c *cobra.Command, a []string) error {
		started = true
		if hook != nil {
			return hook(c, a)
		}
		return nil
	}
	_, err := cmd.ExecuteContextC(ctx)
	if err == nil {
		return exitcode.OK
	}
	if !started && !isTyped(err) {
		err = exitcode.NewUsage(err)
	}
	if ctx.Err() != nil {
		// The run was stopped by a signal, whatever error it ended with.
		err = errors.Join(context.Cause(ctx), err)
	}
	return exitcode.Write(ios.ErrOut, err, f.JSONErrors())
}

func isTyped(err error) bool {
	return exitcode.Classify(err).Code != exitcode.Failure
}
