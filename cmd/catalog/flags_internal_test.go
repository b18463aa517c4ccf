package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestSetCmd_flags parses catalog set's flags without a service: the
// change its run would make, or the usage error that stops it.
func TestSetCmd_flags(t *testing.T) {
	const db = "--database instances/prod/databases/orders "
	flagtest.Run(t, newSetCmd, []flagtest.Case[setOptions]{
		{Name: "a column's labels", Args: db + "--schema public --table t --column c --label pii=true --remove-label owner",
			Want: func(o *setOptions) bool {
				return o.SchemaGiven && o.Column == "c" && o.Labels["pii"] == "true" && o.Labels["owner"] == nil && len(o.Labels) == 2
			}},
		{Name: "a table's classification removed", Args: db + "--table t --classification=",
			Want: func(o *setOptions) bool { return !o.SchemaGiven && o.Classification != nil && *o.Classification == "" }},
		{Name: "no table", Args: db + "--classification 1-1", WantErr: "--table is required"},
		{Name: "labels of a table", Args: db + "--table t --label a=b", WantErr: "need --column"},
		{Name: "nothing to change", Args: db + "--table t --column c", WantErr: "nothing to change"},
	})
}

// TestUpdateCmd_flags parses catalog update's flags without a service.
func TestUpdateCmd_flags(t *testing.T) {
	const db = "--database instances/prod/databases/orders "
	list := filepath.Join(t.TempDir(), "dbs.txt")
	if err := os.WriteFile(list, []byte("prod/orders\nprod/users\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	flagtest.Run(t, newUpdateCmd, []flagtest.Case[updateOptions]{
		{Name: "a file merged", Args: db + "-f c.yaml --merge --dry-run",
			Want: func(o *updateOptions) bool { return o.File == "c.yaml" && o.Merge && o.DryRun }},
		{Name: "many databases, the file on standard input", Args: "--databases-from " + list + " -f -",
			Want: func(o *updateOptions) bool { return o.DB.Many() && o.File == "-" }},
		{Name: "no file", Args: db, WantErr: "-f/--file is required"},
		{Name: "standard input for the list and the file", Args: "--databases-from - -f -", Stdin: "prod/orders\n",
			WantErr: "standard input already gave the list of --databases-from"},
		{Name: "allow-missing", Args: db + "-f c.yaml --allow-missing", WantErr: "no release of the service grants it"},
	})
}

// TestGetCmd_flags parses catalog get's flags without a service.
func TestGetCmd_flags(t *testing.T) {
	flagtest.Run(t, newGetCmd, []flagtest.Case[dbname.Flags]{
		{Name: "one database", Args: "--instance prod --database orders",
			Want: func(db *dbname.Flags) bool { return !db.Many() && db.Instance == "prod" && db.Database == "orders" }},
		{Name: "many databases on standard input", Args: "--databases-from - --concurrency 2", Stdin: "prod/orders\nprod/users\n",
			Want: func(db *dbname.Flags) bool { return db.Many() && db.Concurrency == 2 }},
		{Name: "no database", Args: "--instance prod", WantErr: "--database is required"},
		{Name: "an argument", Args: "--database instances/prod/databases/orders orders", WantErr: "takes no arguments (got 1 argument)"},
	})
}

// TestDiffCmd_flags parses catalog diff's flags without a service.
func TestDiffCmd_flags(t *testing.T) {
	flagtest.Run(t, newDiffCmd, []flagtest.Case[diffOptions]{
		{Name: "a file, the exit code", Args: "--instance prod --database orders -f c.json --exit-code",
			Want: func(o *diffOptions) bool { return o.File == "c.json" && o.ExitCode && !o.DB.Many() }},
		{Name: "no file", Args: "--instance prod --database orders", WantErr: "-f/--file is required"},
		{Name: "no database", Args: "-f c.json", WantErr: "--database"},
	})
}
