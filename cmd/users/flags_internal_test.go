package users

import (
	"slices"
	"testing"

	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestBatchGetCmd_flags parses users batch-get's arguments without a
// service: the users its run would ask for, or the usage error that stops it.
func TestBatchGetCmd_flags(t *testing.T) {
	emails := func(want ...string) func(*batchGetOptions) bool {
		return func(o *batchGetOptions) bool { return slices.Equal(o.Emails, want) }
	}
	flagtest.Run(t, newBatchGetCmd, []flagtest.Case[batchGetOptions]{
		{Name: "names and full names, each once", Args: "a@x.com users/b@x.com a@x.com", Want: emails("a@x.com", "b@x.com")},
		{Name: "names on standard input, blank lines skipped", Args: "c@x.com -", Stdin: "a@x.com\n\n  b@x.com \n", Want: emails("c@x.com", "a@x.com", "b@x.com")},
		{Name: "standard input twice", Args: "- -", Stdin: "a@x.com\n", WantErr: "- may be given only once"},
		{Name: "a bad line of piped input", Args: "-", Stdin: "a@x.com\nb?@x.com\n", WantErr: "stdin line 2"},
		{Name: "standard input with no names", Args: "-", Stdin: "\n", WantErr: "stdin held none"},
		{Name: "no names", Args: "", WantErr: "at least one user NAME"},
	})
}

// TestUndeleteCmd_flags parses users undelete's arguments without a
// service: the user its run would restore, or the usage error that stops it.
func TestUndeleteCmd_flags(t *testing.T) {
	flagtest.Run(t, newUndeleteCmd, []flagtest.Case[undeleteOptions]{
		{Name: "a name", Args: "a@x.com", Want: func(o *undeleteOptions) bool { return o.Email == "a@x.com" && !o.DryRun }},
		{Name: "a full name, a dry run", Args: "users/a@x.com --dry-run", Want: func(o *undeleteOptions) bool { return o.Email == "a@x.com" && o.DryRun }},
		{Name: "not a user's name", Args: "users/", WantErr: `user id "" is empty`},
		{Name: "no name", Args: "", WantErr: "takes one user NAME (got 0 arguments)"},
		{Name: "two names", Args: "a@x.com b@x.com", WantErr: "takes one user NAME (got 2 arguments)"},
	})
}
