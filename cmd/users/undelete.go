package users

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

type undeleteOptions struct {
	IO      *iostreams.IOStreams
	Client  func() (*client.Client, error)
	Printer func() (output.Printer, error)

	Email  string
	DryRun bool
}

func newUndeleteCmd(f *factory.Factory, runF func(context.Context, *undeleteOptions) error) *cobra.Command {
	opts := &undeleteOptions{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter}
	cmd := &cobra.Command{
		Use:   "undelete NAME",
		Short: "Restore a deleted user",
		Long: `Restore a deleted user account and show it, now active.

NAME is the user's email, alice@example.com, or its full name,
users/alice@example.com. The service refuses a user that is not deleted
(exit code 6, INVALID_ARGUMENT) and one it does not know (exit code 5).

--dry-run prints the request that would be sent and sends nothing.`,
		Example: `  dbgov users undelete bob@example.com
  dbgov users undelete users/bob@example.com --dry-run
  dbgov users undelete bob@example.com --jq .state`,
		Args: arity.Exact(1, "one user NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			email, err := client.ParseUser(args[0])
			if err != nil {
				return exitcode.NewUsage(err)
			}
			opts.Email = email
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runUndelete(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the request that would be sent, and send nothing")
	return cmd
}

func runUndelete(ctx context.Context, opts *undeleteOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if opts.DryRun {
		r, err := client.UndeleteUserCall(opts.Email)
		if err != nil {
			return exitcode.NewUsage(err)
		}
		return dryrun.Print(ctx, opts.IO.Out, p, c, r)
	}
	u, raw, err := c.UndeleteUser(ctx, opts.Email)
	if err != nil {
		return fmt.Errorf("undelete user %s: %w", opts.Email, err)
	}
	return p.Print(ctx, opts.IO.Out, output.Document{
		Raw:    raw,
		Names:  func() []string { return []string{u.Name} },
		Tables: func() []output.Table { return []output.Table{userList.Table([]userRow{rowOf(u)}, userCollection)} },
	})
}
