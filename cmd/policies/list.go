// Package policies implements `dbgov policies`: the policies set on a
// database.
package policies

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the policies command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "policies <command>", Aliases: []string{"policy"}, Short: "Read the policies of a database and above"}, newListCmd(f, nil))
}

type listOptions struct {
	Parent      client.PolicyParent
	DB          dbname.Flags
	f           *factory.Factory
	Type        client.PolicyType // empty: every type
	ShowDeleted bool
}

// parentsHint names the parents whose policies the service lists when it
// does not know the database route.
const parentsHint = "this version of the service lists no policies of a database: list those of its environment (--environment), its project (--project) or the workspace (--workspace)"

// newListCmd builds policies list. runF, when not nil, is called with the
// options in place of the listing: for tests of the flags.
func newListCmd(f *factory.Factory, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{f: f}
	db := &opts.DB
	var policyType string
	var workspace bool
	cmd := helptext.Command(help, &cobra.Command{
		Use:   "list (--instance I --database D | --databases-from FILE | --environment E | --project P | --workspace) [--type TYPE] [--show-deleted]",
		Short: "List the policies of a database, an environment, a project or the workspace",
		Args:  arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			// The full names environments/E and projects/P are taken as --database takes instances/I/databases/D.
			opts.Parent.Environment = strings.TrimPrefix(opts.Parent.Environment, "environments/")
			opts.Parent.Project = strings.TrimPrefix(opts.Parent.Project, "projects/")
			if !arity.One(db.Instance != "" || db.Database != "" || db.Many(), opts.Parent.Environment != "", opts.Parent.Project != "", workspace) {
				return exitcode.Usagef("give exactly one parent: --instance I --database D, --environment E, --project P or --workspace (or many databases: --databases-from FILE)")
			}
			if db.Instance != "" || db.Database != "" || db.Many() {
				dbs, err := db.Databases(f.IO.In)
				if err != nil {
					return err
				}
				opts.Parent.Database = &dbs[0]
			}
			if cmd.Flags().Changed("type") && opts.Type.Set(policyType) != nil {
				return exitcode.Usagef("unknown policy type %q for --type: use one of %s", policyType, typeList())
			}
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	})
	db.AddMany(cmd)
	cmd.Flags().StringVar(&opts.Parent.Environment, "environment", "", "list the policies of the environment with this `id`")
	cmd.Flags().StringVar(&opts.Parent.Project, "project", "", "list the policies of the project with this `id`")
	cmd.Flags().BoolVar(&workspace, "workspace", false, "list the policies of the workspace")
	cmd.Flags().StringVar(&policyType, "type", "", "list only the policies of this `type` ("+typeList()+"), in any case")
	cmd.Flags().BoolVar(&opts.ShowDeleted, "show-deleted", false, "include deleted policies")
	_ = cmd.RegisterFlagCompletionFunc("type", completeType)
	_ = cmd.RegisterFlagCompletionFunc("environment", cobra.NoFileCompletions)
	_ = cmd.RegisterFlagCompletionFunc("project", cobra.NoFileCompletions)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	if opts.DB.Many() {
		// A type the release lacks is refused once, before any database.
		c, err := opts.f.Client()
		if err == nil {
			err = c.CheckPolicyType(ctx, opts.Type)
		}
		if err != nil {
			return err
		}
		return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
			doc, err := listOne(ctx, c, opts, client.PolicyParent{Database: &db})
			return dbname.Result{Doc: doc}, err
		})
	}
	return opts.f.Deps().Show(ctx, func(c *client.Client) (output.Document, error) {
		return listOne(ctx, c, opts, opts.Parent)
	})
}

// listOne is the document of the policies of one parent, listed with the
// filters of opts.
func listOne(ctx context.Context, c *client.Client, opts *listOptions, parent client.PolicyParent) (output.Document, error) {
	resp, raw, err := c.ListPolicies(ctx, parent, client.ListPoliciesOptions{PolicyType: opts.Type, ShowDeleted: opts.ShowDeleted})
	if err != nil {
		err = fmt.Errorf("list policies of %s: %w", parent, err)
		var api *client.APIError
		if parent.Database != nil && errors.As(err, &api) && api.HTTPStatus == http.StatusBadRequest && strings.Contains(api.Message, "unknown request name") {
			err = exitcode.WithHint(err, parentsHint)
		}
		return output.Document{}, err
	}
	return policyList.Document(raw, "policies", resp.Policies, policiesOf(parent)), nil
}

// typeList names the policy types --type takes.
func typeList() string { return strings.Join(client.Names(client.PolicyTypes()), ", ") }

// completeType offers the policy types that start with what was typed, in
// any case. Each keeps what was typed and goes on in the case of its last
// letter, so that a shell that matches case keeps them: "mask" offers
// masking_rule and masking_exemption, "" and "MASK" offer them in capitals.
func completeType(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	lower := false
	if i := strings.LastIndexFunc(toComplete, unicode.IsLetter); i >= 0 {
		r, _ := utf8.DecodeRuneInString(toComplete[i:])
		lower = unicode.IsLower(r)
	}
	var out []string
	for _, t := range client.PolicyTypes() {
		name := string(t)
		if len(toComplete) > len(name) || !strings.EqualFold(name[:len(toComplete)], toComplete) {
			continue
		}
		rest := name[len(toComplete):]
		if lower {
			rest = strings.ToLower(rest)
		}
		out = append(out, toComplete+rest)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
