package users

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/output"
)

type undeleteOptions struct {
	factory.Deps
	Email  string
	DryRun bool
}

// newUndeleteCmd builds users undelete. runF, when not nil, is called with
// the options in place of the request: for tests of the flags.
func newUndeleteCmd(f *factory.Factory, runF func(*undeleteOptions) error) *cobra.Command {
	opts := &undeleteOptions{Deps: f.Deps()}
	cmd := helptext.Command(help, &cobra.Command{
		Use:   "undelete NAME",
		Short: "Restore a deleted user",
		Args:  arity.Name("one user NAME", client.ParseUser, &opts.Email),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runUndelete(cmd.Context(), opts)
		},
	})
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the request that would be sent, and send nothing")
	return cmd
}

func runUndelete(ctx context.Context, opts *undeleteOptions) error {
	return opts.Show(ctx, func(c *client.Client) (output.Document, error) {
		if opts.DryRun {
			r, err := c.UndeleteCall(ctx, opts.Email)
			if err != nil {
				return output.Document{}, err
			}
			return dryrun.Document(c, r)
		}
		u, raw, err := c.UndeleteUser(ctx, opts.Email)
		if err != nil {
			return output.Document{}, fmt.Errorf("undelete user %s: %w", opts.Email, err)
		}
		row := userRow{Name: u.Name, Email: u.Email, Title: u.Title, UserType: u.UserType,
			State: u.State, MfaEnabled: u.MfaEnabled, Groups: u.Groups}
		return userList.Document(raw, "", []userRow{row}, userCollection), nil
	})
}
