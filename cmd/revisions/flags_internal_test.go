package revisions

import (
	"testing"

	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestBatchCreateCmd_flags parses batch-create's flags without a service:
// the options its run would get, or the usage error that stops it first.
func TestBatchCreateCmd_flags(t *testing.T) {
	flagtest.Run(t, newBatchCreateCmd, []flagtest.Case[batchCreateOptions]{
		{Name: "one database", Args: "--instance prod --database orders -f revs.json --batch-size 10 --dry-run",
			Want: func(o *batchCreateOptions) bool {
				return o.dbs[0].String() == "instances/prod/databases/orders" && o.File == "revs.json" && o.BatchSize == 10 && o.DryRun
			}},
		{Name: "many databases from standard input", Args: "--databases-from - -f revs.json --skip-existing", Stdin: "prod/a\nprod/b\nprod/a\n",
			Want: func(o *batchCreateOptions) bool {
				return len(o.dbs) == 2 && o.dbs[0].Database == "a" && o.BatchSize == defaultBatchSize && o.SkipExisting
			}},
		{Name: "standard input for the list and the file", Args: "--databases-from - -f -", Stdin: "prod/a\n",
			WantErr: "standard input already gave the list of --databases-from"},
		{Name: "no file", Args: "--instance prod --database orders", WantErr: "-f/--file is required"},
		{Name: "batch too large", Args: "--instance prod --database orders -f r.json --batch-size 1001",
			WantErr: "--batch-size must be between 1 and 1000, not 1001"},
		{Name: "a list beside a database", Args: "--databases-from - --database orders -f r.json", Stdin: "prod/a\n",
			WantErr: "--databases-from cannot be used with --instance or --database"},
		{Name: "a bad line of the list", Args: "--databases-from - -f r.json", Stdin: "prod/a\nno-slash\n",
			WantErr: "line 2"},
	})
}
