// Package reviewconfigs implements `dbgov review-configs`.
package reviewconfigs

import (
	"context"
	"embed"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the review-configs command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "review-configs <command>", Aliases: []string{"review-config"}, Short: "Read SQL review configurations"}, newGetCmd(f))
}

type getOptions struct {
	factory.Deps
	ID string
}

func newGetCmd(f *factory.Factory) *cobra.Command {
	opts := &getOptions{Deps: f.Deps()}
	return helptext.Command(help, &cobra.Command{
		Use:   "get ID",
		Short: "Show a SQL review configuration and its rules",
		Args:  arity.Name("a review configuration ID", client.ParseReviewConfig, &opts.ID),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runGet(cmd.Context(), opts) },
	})
}

func runGet(ctx context.Context, opts *getOptions) error {
	return opts.Show(ctx, func(c *client.Client) (output.Document, error) {
		cfg, raw, err := c.GetReviewConfig(ctx, opts.ID)
		if err != nil {
			return output.Document{}, fmt.Errorf("get review config %s: %w", opts.ID, err)
		}
		config := output.TableOf([]client.ReviewConfig{*cfg}, configColumns)
		config.Under = "reviewConfigs/"
		return output.Document{Raw: raw, Names: []string{cfg.Name}, Tables: []output.Table{config, output.TableOf(cfg.Rules, ruleColumns)}}, nil
	})
}
