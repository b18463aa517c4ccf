package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// TestDiffCmd_flags parses schema diff's flags without a service: the
// options its run would get, or the usage error that stops it first.
func TestDiffCmd_flags(t *testing.T) {
	list := filepath.Join(t.TempDir(), "dbs.txt")
	if err := os.WriteFile(list, []byte("prod/orders\nprod/users\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    string
		stdin   string
		want    func(*diffOptions) bool // the options the run gets
		wantErr string
	}{
		{name: "one database, a schema file", args: "--database instances/prod/databases/orders --schema-file s.sql --exit-code",
			want: func(o *diffOptions) bool { return !o.DB.Many() && o.SchemaFile == "s.sql" && o.ExitCode }},
		{name: "many databases, a target changelog", args: "--databases-from " + list + " --concurrency 8 --target-changelog c1",
			want: func(o *diffOptions) bool { return o.DB.Many() && o.DB.Concurrency == 8 && o.TargetChangelog == "c1" }},
		{name: "the list on standard input, the schema in a file", args: "--databases-from - --schema-file s.sql", stdin: "prod/orders\n",
			want: func(o *diffOptions) bool { return o.DB.From == "-" && o.SchemaFile == "s.sql" }},
		{name: "standard input for the list and the schema", args: "--databases-from - --schema-file -", stdin: "prod/orders\n",
			wantErr: "standard input already gave the list of --databases-from"},
		{name: "two targets", args: "--database instances/p/databases/d --schema-file s.sql --target-changelog c1",
			wantErr: "--schema-file and --target-changelog cannot be used together"},
		{name: "no target", args: "--database instances/p/databases/d", wantErr: "give the target to compare with"},
		{name: "concurrency out of range", args: "--databases-from " + list + " --concurrency 65 --schema-file s.sql",
			wantErr: "--concurrency must be between 1 and 64, not 65"},
		{name: "a changelog of no database", args: "--database instances/p/databases/d --changelog instances/q/databases/e/changelogs/c --schema-file s.sql",
			wantErr: "is not a changelog of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios := &iostreams.IOStreams{In: strings.NewReader(tt.stdin), Out: &strings.Builder{}, ErrOut: &strings.Builder{}}
			var got *diffOptions
			cmd := newDiffCmd(factory.New(ios, "test", "", func(string) string { return "" }), func(o *diffOptions) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.args))
			cmd.SetOut(ios.ErrOut)
			cmd.SetErr(ios.ErrOut)
			err := cmd.Execute()
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
					t.Errorf("error %v (run called: %t), want %q", err, got != nil, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case !tt.want(got):
				t.Errorf("options %+v", *got)
			}
		})
	}
}
