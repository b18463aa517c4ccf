package schema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestDiffCmd_flags parses schema diff's flags without a service: the
// options its run would get, or the usage error that stops it first.
func TestDiffCmd_flags(t *testing.T) {
	list := filepath.Join(t.TempDir(), "dbs.txt")
	if err := os.WriteFile(list, []byte("prod/orders\nprod/users\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	flagtest.Run(t, newDiffCmd, []flagtest.Case[diffOptions]{
		{Name: "one database, a schema file", Args: "--database instances/prod/databases/orders --schema-file s.sql --exit-code",
			Want: func(o *diffOptions) bool { return !o.DB.Many() && o.SchemaFile == "s.sql" && o.ExitCode }},
		{Name: "many databases, a target changelog", Args: "--databases-from " + list + " --concurrency 8 --target-changelog c1",
			Want: func(o *diffOptions) bool { return o.DB.Many() && o.DB.Concurrency == 8 && o.TargetChangelog == "c1" }},
		{Name: "the list on standard input, the schema in a file", Args: "--databases-from - --schema-file s.sql", Stdin: "prod/orders\n",
			Want: func(o *diffOptions) bool { return o.DB.From == "-" && o.SchemaFile == "s.sql" }},
		{Name: "standard input for the list and the schema", Args: "--databases-from - --schema-file -", Stdin: "prod/orders\n",
			WantErr: "standard input already gave the list of --databases-from"},
		{Name: "two targets", Args: "--database instances/p/databases/d --schema-file s.sql --target-changelog c1",
			WantErr: "--schema-file and --target-changelog cannot be used together"},
		{Name: "no target", Args: "--database instances/p/databases/d", WantErr: "give the target to compare with"},
		{Name: "concurrency out of range", Args: "--databases-from " + list + " --concurrency 65 --schema-file s.sql",
			WantErr: "--concurrency must be between 1 and 64, not 65"},
		{Name: "a changelog of no database", Args: "--database instances/p/databases/d --changelog instances/q/databases/e/changelogs/c --schema-file s.sql",
			WantErr: "is not a changelog of"},
	})
}

// TestDumpCmd_flags parses schema dump's flags without a service.
func TestDumpCmd_flags(t *testing.T) {
	flagtest.Run(t, newDumpCmd, []flagtest.Case[dbname.Flags]{
		{Name: "one database", Args: "--database instances/prod/databases/orders",
			Want: func(db *dbname.Flags) bool { return !db.Many() && db.Database == "instances/prod/databases/orders" }},
		{Name: "many databases, failing fast", Args: "--databases-from - --fail-fast", Stdin: "prod/orders\n",
			Want: func(db *dbname.Flags) bool { return db.Many() && db.FailFast }},
		{Name: "both", Args: "--databases-from - --database orders", Stdin: "prod/orders\n", WantErr: "cannot be used with --instance or --database"},
		{Name: "no database", Args: "", WantErr: "--database is required"},
	})
}
