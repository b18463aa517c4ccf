// Package listing holds what the list commands share: --limit and --filter,
// and a list printed as its pages arrive.
package listing

import (
	"context"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/output"
)

// Flags are the flags of a list command.
type Flags struct {
	Filter string // sent to the service as written
	Limit  int    // 0: every item
}

// Add registers --limit, and --filter when the service filters the list.
func (f *Flags) Add(cmd *cobra.Command, filter bool) {
	cmd.Flags().IntVar(&f.Limit, "limit", 0, "list at most `N` items (0: every one)")
	if filter {
		cmd.Flags().StringVar(&f.Filter, "filter", "", "list the items the service's filter `EXPR` keeps, sent as written (its syntax changed in 3.17: see README)")
	}
}

// Check refuses a negative --limit.
func (f *Flags) Check() error {
	if f.Limit < 0 {
		return exitcode.Usagef("--limit must be 0 (no limit) or more, not %d", f.Limit)
	}
	return nil
}

// Items gives the items of field in the list r asks for, page by page up
// to the limit; what names the list in errors.
func (f *Flags) Items(ctx context.Context, c *client.Client, r *client.Request, field, what string) output.Items {
	return func(page func(string, []jsontext.Value) error) error {
		if err := c.List(ctx, r, field, f.Limit, page); err != nil {
			return fmt.Errorf("list %s: %w", what, err)
		}
		return nil
	}
}
