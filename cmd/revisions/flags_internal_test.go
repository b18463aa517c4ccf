package revisions

import (
	"strings"
	"testing"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// TestBatchCreateCmd_flags parses batch-create's flags without a service:
// the options its run would get, or the usage error that stops it first.
func TestBatchCreateCmd_flags(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		stdin   string
		want    func(*batchCreateOptions) bool // the options the run gets
		wantErr string
	}{
		{name: "one database", args: "--instance prod --database orders -f revs.json --batch-size 10 --dry-run",
			want: func(o *batchCreateOptions) bool {
				return o.Database.String() == "instances/prod/databases/orders" && o.File == "revs.json" && o.BatchSize == 10 && o.DryRun
			}},
		{name: "many databases from standard input", args: "--databases-from - -f revs.json --skip-existing", stdin: "prod/a\nprod/b\nprod/a\n",
			want: func(o *batchCreateOptions) bool {
				return len(o.dbs) == 2 && o.Database.Database == "a" && o.BatchSize == defaultBatchSize && o.SkipExisting
			}},
		{name: "standard input for the list and the file", args: "--databases-from - -f -", stdin: "prod/a\n",
			wantErr: "standard input already gave the list of --databases-from"},
		{name: "no file", args: "--instance prod --database orders", wantErr: "-f/--file is required"},
		{name: "batch too large", args: "--instance prod --database orders -f r.json --batch-size 1001",
			wantErr: "--batch-size must be between 1 and 1000, not 1001"},
		{name: "a list beside a database", args: "--databases-from - --database orders -f r.json", stdin: "prod/a\n",
			wantErr: "--databases-from cannot be used with --instance or --database"},
		{name: "a bad line of the list", args: "--databases-from - -f r.json", stdin: "prod/a\nno-slash\n",
			wantErr: "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios := &iostreams.IOStreams{In: strings.NewReader(tt.stdin), Out: &strings.Builder{}, ErrOut: &strings.Builder{}}
			var got *batchCreateOptions
			cmd := newBatchCreateCmd(factory.New(ios, "test", "", func(string) string { return "" }), func(o *batchCreateOptions) error { got = o; return nil })
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
