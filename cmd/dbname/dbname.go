// Package dbname holds the --instance and --database flags every database
// command shares, and their resolution to a database name.
package dbname

import (
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/exitcode"
)

// Flags are the values of --instance and --database.
type Flags struct {
	Instance string
	Database string
}

// Add registers --instance and --database on cmd.
func (f *Flags) Add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.Instance, "instance", "", "instance `id` of the database")
	cmd.Flags().StringVar(&f.Database, "database", "", "database `id`, or its full name instances/I/databases/D")
}

// Resolve returns the database the flags name, or a usage error.
func (f *Flags) Resolve() (client.DatabaseName, error) {
	if f.Database == "" {
		return client.DatabaseName{}, exitcode.Usagef("--database is required (with --instance, or as instances/I/databases/D)")
	}
	db, err := client.ParseDatabase(f.Instance, f.Database)
	if err != nil {
		return client.DatabaseName{}, exitcode.NewUsage(err)
	}
	return db, nil
}
