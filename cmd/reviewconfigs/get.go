// Package reviewconfigs implements `dbgov review-configs`.
package reviewconfigs

import (
	"context"
	"embed"
	"fmt"
	"strconv"
	"strings"

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
	return helptext.Command(help, &cobra.Command{Use: "review-configs <command>", Aliases: []string{"review-config"}, Short: "Read SQL review configurations"}, newGetCmd(f, nil))
}

type getOptions struct {
	factory.Deps
	ID string
}

// newGetCmd builds review-configs get. runF, when not nil, is called with
// the options in place of the request: for tests of the flags.
func newGetCmd(f *factory.Factory, runF func(*getOptions) error) *cobra.Command {
	opts := &getOptions{Deps: f.Deps()}
	return helptext.Command(help, &cobra.Command{
		Use:   "get ID",
		Short: "Show a SQL review configuration and its rules",
		Args:  arity.Name("a review configuration ID", client.ParseReviewConfig, &opts.ID),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runGet(cmd.Context(), opts)
		},
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

var configColumns = []output.Column[client.ReviewConfig]{
	{Header: "NAME", Kind: output.Name, MinWidth: 20, Value: func(c *client.ReviewConfig) string { return c.Name }},
	{Header: "TITLE", Priority: 2, MinWidth: 10, Value: func(c *client.ReviewConfig) string { return c.Title }},
	{Header: "ENABLED", Priority: 1, Value: func(c *client.ReviewConfig) string { return strconv.FormatBool(c.Enabled) }},
	{Header: "RESOURCES", Priority: 3, MinWidth: 15, Value: func(c *client.ReviewConfig) string { return strings.Join(c.Resources, ", ") }},
}

var ruleColumns = []output.Column[client.ReviewRule]{
	{Header: "TYPE", Value: func(r *client.ReviewRule) string { return string(r.Type) }},
	{Header: "LEVEL", Priority: 1, Value: func(r *client.ReviewRule) string { return string(r.Level) }},
	{Header: "ENGINE", Priority: 2, Value: func(r *client.ReviewRule) string { return string(r.Engine) }},
	{Header: "PAYLOAD", Priority: 3, MinWidth: 15, Value: payload},
}

// payload summarises the rule's payload on one line.
func payload(r *client.ReviewRule) string {
	var parts []string
	add := func(on bool, format string, args ...any) {
		if on {
			parts = append(parts, fmt.Sprintf(format, args...))
		}
	}
	if p := r.NamingPayload; p != nil {
		add(p.Format != "", "format=%q", p.Format)
		add(p.MaxLength != 0, "maxLength=%d", p.MaxLength)
	}
	if p := r.NumberPayload; p != nil {
		add(true, "number=%d", p.Number)
	}
	if p := r.StringArrayPayload; p != nil {
		add(true, "list=[%s]", strings.Join(p.List, ", "))
	}
	if p := r.CommentConventionPayload; p != nil {
		add(true, "required=%t", p.Required)
		add(p.MaxLength != 0, "maxLength=%d", p.MaxLength)
	}
	if p := r.StringPayload; p != nil {
		add(true, "value=%q", p.Value)
	}
	if p := r.NamingCasePayload; p != nil {
		letters := "lower"
		if p.Upper {
			letters = "upper"
		}
		add(true, "case=%s", letters)
	}
	return strings.Join(parts, " ")
}
