// Package root assembles dbgov's command tree and runs it: the one place where
// a command's error becomes its message and exit code.
package root

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/dbgov/dbgov/cmd/api"
	"github.com/dbgov/dbgov/cmd/auth"
	"github.com/dbgov/dbgov/cmd/catalog"
	"github.com/dbgov/dbgov/cmd/completion"
	"github.com/dbgov/dbgov/cmd/configcmd"
	"github.com/dbgov/dbgov/cmd/devservercmd"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/idps"
	"github.com/dbgov/dbgov/cmd/listing"
	"github.com/dbgov/dbgov/cmd/policies"
	"github.com/dbgov/dbgov/cmd/reviewconfigs"
	"github.com/dbgov/dbgov/cmd/revisions"
	"github.com/dbgov/dbgov/cmd/schema"
	"github.com/dbgov/dbgov/cmd/users"
	"github.com/dbgov/dbgov/cmd/version"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

// rootLong is the root's help, embedded from dbgov.txt: the long help, then
// the examples after a line "Examples:", the layout helptext reads for the
// other commands.
//
//go:embed dbgov.txt
var rootLong string

// New builds the root command with every subcommand.
func New(f *factory.Factory) *cobra.Command {
	long, example, _ := strings.Cut(strings.TrimSpace(rootLong), "\n\nExamples:\n")
	cmd := &cobra.Command{
		Use:           "dbgov <command> <subcommand> [flags]",
		Short:         "Administer a Database Governance Service from the command line",
		Long:          long,
		Example:       example,
		Args:          cobra.ArbitraryArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	f.RegisterFlags(cmd.PersistentFlags())
	cmd.Flags().Bool("version", false, "print dbgov's version, as the version command does")
	cmd.SetFlagErrorFunc(flagError)
	cmd.AddCommand(
		api.NewCmd(f, nil),
		auth.NewCmd(f, nil),
		catalog.NewCmd(f),
		completion.NewCmd(f),
		configcmd.NewCmd(f),
		idps.NewCmd(f),
		policies.NewCmd(f),
		reviewconfigs.NewCmd(f),
		revisions.NewCmd(f),
		schema.NewCmd(f),
		users.NewCmd(f),
		version.NewCmd(f),
		devservercmd.NewCmd(f),
	)
	cmd.AddCommand(listing.NewCmds(f)...)
	addTopics(cmd)
	versionCmd, _, _ := cmd.Find([]string{"version"})
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if v, _ := c.Flags().GetBool("version"); v && len(args) == 0 {
			versionCmd.SetContext(c.Context())
			return versionCmd.RunE(versionCmd, nil)
		}
		return unknownCommand(c, args)
	}
	registerCompletions(cmd, f)
	eachCommand(cmd, func(c *cobra.Command) {
		// A command group answers an unknown verb with a usage error (cobra
		// would print the help and succeed), and shows its help bare.
		if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
			c.Args, c.RunE = cobra.ArbitraryArgs, unknownCommand
		}
		noFileCompletion(c)
	})
	setHelp(cmd, f.IO.TermWidth)
	return cmd
}

// eachCommand calls fn on c and on every command under it.
func eachCommand(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		eachCommand(sub, fn)
	}
}

// idFlags take an id: completion offers no file names for them.
var idFlags = []string{"instance", "database", "changelog", "target-changelog", "environment", "project"}

// registerCompletions offers the values of the global enum flags, and the
// profiles of the config file for --profile.
func registerCompletions(cmd *cobra.Command, f *factory.Factory) {
	_ = cmd.RegisterFlagCompletionFunc("output", fixedValues(output.Formats...))
	_ = cmd.RegisterFlagCompletionFunc("profile", func(c *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		file, _, err := config.Open(c.Root().PersistentFlags(), f.Getenv)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return fixedValues(file.Profiles()...)(c, nil, toComplete)
	})
}

// noFileCompletion keeps file names out of the completion of c's id flags
// and arguments: no command takes a file as an argument.
func noFileCompletion(c *cobra.Command) {
	for _, name := range idFlags {
		if _, done := c.GetFlagCompletionFunc(name); !done && c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
		}
	}
	if c.Runnable() && !c.HasSubCommands() && c.ValidArgsFunction == nil && len(c.ValidArgs) == 0 {
		c.ValidArgsFunction = cobra.NoFileCompletions
	}
}

// fixedValues completes a flag from a fixed list, keeping those that start
// with what was typed, in any case.
func fixedValues(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		out := slices.DeleteFunc(slices.Clone(values), func(v string) bool {
			return !strings.HasPrefix(strings.ToLower(v), strings.ToLower(toComplete))
		})
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// unknownCommand shows the help of c without args, and otherwise refuses
// args[0], naming the verbs it may have meant: those it is close to or a
// part of (get for batch-get), else every verb of a group.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return c.Help()
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	s := c.SuggestionsFor(args[0])
	var verbs []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			verbs = append(verbs, sub.Name())
			if slices.Contains(strings.Split(sub.Name(), "-"), args[0]) && !slices.Contains(s, sub.Name()) {
				s = append(s, sub.Name())
			}
		}
	}
	switch {
	case len(s) == 1:
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	case len(s) > 1:
		msg += fmt.Sprintf("; did you mean one of %q?", s)
	case c.HasParent():
		msg += "; its commands are " + strings.Join(verbs, ", ")
	}
	return exitcode.Usagef("%s\nrun '%s --help' for usage", msg, c.CommandPath())
}

// flagError turns an error in c's flags into a usage error. Under a command
// group, the argument before the flag is taken for a mistyped verb. An
// unknown --flag gets the nearest of c's visible flags as a suggestion:
// one within two edits or starting with what was typed, but never one that
// changes half of it ("all" is not "url").
func flagError(c *cobra.Command, err error) error {
	if args := c.Flags().Args(); len(args) > 0 && c.HasAvailableSubCommands() {
		return unknownCommand(c, args)
	}
	var unknown *pflag.NotExistError
	if errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() == "" {
		typed := strings.ToLower(unknown.GetSpecifiedName())
		limit := min(2, len(typed)/2)
		near, best := "", limit+1
		c.Flags().VisitAll(func(f *pflag.Flag) {
			d := levenshtein.ComputeDistance(typed, f.Name)
			if limit > 0 && strings.HasPrefix(f.Name, typed) {
				d = min(d, limit)
			}
			if !f.Hidden && d < best {
				near, best = f.Name, d
			}
		})
		if near != "" {
			err = fmt.Errorf("unknown flag --%s; did you mean --%s?", unknown.GetSpecifiedName(), near)
		}
	}
	return exitcode.Usagef("%v\nrun '%s --help' for usage", err, c.CommandPath())
}

// stopGrace is how long a run may take to return once a signal has
// cancelled it, before dbgov reports the signal and ends without it.
const stopGrace = 500 * time.Millisecond

// Run executes the command line args with what f gives and returns the exit
// code, having reported any error on stderr. Once ctx is cancelled (a
// signal), a command that does not return within stopGrace (blocked in a
// read or write that does not watch ctx) is left behind and the signal is
// reported.
func Run(ctx context.Context, f *factory.Factory, args []string) int {
	ios := f.IO
	restoreTerminal := saveTerminal(ios)
	cmd := New(f)
	if len(args) > 0 && strings.HasPrefix(args[0], cobra.ShellCompRequestCmd) {
		// Completion shows flag descriptions as they are: without the
		// backticks that name a flag's value in the help (`FILE`).
		eachCommand(cmd, func(c *cobra.Command) {
			for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
				fs.VisitAll(func(fl *pflag.Flag) { fl.Usage = strings.ReplaceAll(fl.Usage, "`", "") })
			}
		})
	}
	out := &recordingWriter{Writer: ios.Out}
	cmd.SetArgs(args)
	cmd.SetIn(ios.In)
	cmd.SetOut(out)
	cmd.SetErr(ios.ErrOut)

	var running atomic.Pointer[cobra.Command] // set once the flags are parsed
	var reported atomic.Bool                  // the run's one report is written
	cmd.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		running.Store(c)
		return nil
	}
	// The run goes on in a goroutine, so that a signal can end dbgov while
	// the command is blocked; codes carries the exit code of its report.
	codes := make(chan int, 1)
	go func() {
		_, err := cmd.ExecuteContextC(ctx)
		if running.Load() == nil && err != nil && exitcode.Classify(err).Code == exitcode.Failure {
			// Errors that cobra finds before any command runs (an unknown
			// flag, a wrong number of arguments) are usage errors.
			err = exitcode.NewUsage(err)
		}
		if err == nil && out.err != nil {
			err = fmt.Errorf("write to stdout: %w", out.err)
		}
		if ctx.Err() != nil && err != nil {
			// The run was stopped by a signal, whatever error it ended with.
			err = errors.Join(exitcode.Signalled(context.Cause(ctx)), err)
		}
		if err != nil {
			f.ReadStderrForm()
		}
		// A mistake in --jq or --template is told as text to a person at a
		// terminal, even though the output is for programs.
		asJSON := ios.JSONErrors && !(ios.ErrTTY && errors.As(err, new(output.FilterError)))
		if reported.CompareAndSwap(false, true) {
			codes <- exitcode.Write(ios.ErrOut, err, asJSON, ios.ErrColorEnabled, ios.Secrets)
		}
	}()
	// Wait for the run; once a signal cancels ctx, wait stopGrace more.
	select {
	case code := <-codes:
		return code
	case <-ctx.Done():
	}
	select {
	case code := <-codes:
		return code
	case <-time.After(stopGrace):
	}
	// The run is still blocked: report the signal here, unless the run
	// has begun its own report meanwhile.
	if !reported.CompareAndSwap(false, true) {
		return <-codes
	}
	restoreTerminal()
	// The run may still be resolving its settings, so the form of stderr
	// comes from the flags alone, and no scrubber is read: a signal's
	// message holds no credential.
	asJSON := running.Load() != nil && f.JSONErrors(nil)
	return exitcode.Write(ios.ErrOut, exitcode.Signalled(context.Cause(ctx)), asJSON, false, nil)
}

// saveTerminal returns what puts a terminal on stdin back as it was (a
// prompt for a secret turns echo off), for a run left blocked.
func saveTerminal(ios *iostreams.IOStreams) func() {
	if f, ok := ios.In.(*os.File); ok && ios.InTTY {
		if state, err := term.GetState(int(f.Fd())); err == nil {
			return func() { _ = term.Restore(int(f.Fd()), state) }
		}
	}
	return func() {}
}

// recordingWriter keeps the first error of a write: cobra ignores those of
// the help it prints.
type recordingWriter struct {
	io.Writer
	err error
}

func (r *recordingWriter) Write(p []byte) (n int, err error) {
	if n, err = r.Writer.Write(p); err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}
