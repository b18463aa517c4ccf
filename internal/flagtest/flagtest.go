// Package flagtest parses a command's flags in tests without running it,
// through the run function its constructor takes in place of its own (gh's
// runF). It is apart from cmdtest, which runs the whole command tree: the
// commands' own tests cannot import that.
package flagtest

import (
	"cmp"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// Case is a command line (Args split at spaces, Stdin its standard input)
// and what parsing it must give: options that Want accepts, or, when
// WantErr is set, an error holding it before any run.
type Case[O any] struct {
	Name    string
	Args    string
	Stdin   string
	Want    func(*O) bool
	WantErr string
}

// Run executes each case, a subtest each named Name (else Args), on the
// command newCmd makes with a run function that keeps its options.
func Run[O any](t *testing.T, newCmd func(*factory.Factory, func(*O) error) *cobra.Command, cases []Case[O]) {
	for _, tt := range cases {
		t.Run(cmp.Or(tt.Name, tt.Args), func(t *testing.T) {
			ios := &iostreams.IOStreams{In: strings.NewReader(tt.Stdin), Out: io.Discard, ErrOut: io.Discard}
			var got *O
			cmd := newCmd(factory.New(ios, "test", "", func(string) string { return "" }), func(o *O) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.Args))
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			switch err := cmd.Execute(); {
			case tt.WantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.WantErr) || got != nil {
					t.Errorf("error %v (run called: %t), want %q", err, got != nil, tt.WantErr)
				}
			case err != nil:
				t.Fatal(err)
			case !tt.Want(got):
				t.Errorf("options %+v", *got)
			}
		})
	}
}
