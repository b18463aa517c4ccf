// Package version implements `dbgov version`.
package version

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
)

// NewCmd builds `dbgov version`. It resolves no configuration, so it answers
// at once whatever the environment holds.
func NewCmd(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print dbgov's version",
		Args:    cobra.NoArgs,
		Long:    "Print dbgov's version, commit and platform; with -o json, as a JSON object.",
		Example: "  dbgov version\n  dbgov version -o json",
		RunE: func(cmd *cobra.Command, args []string) error {
			// Only the flag counts: version must answer whatever the
			// configuration holds, without reading it.
			asJSON := false
			if fl := cmd.Flags().Lookup("output"); fl != nil {
				asJSON = fl.Value.String() == "json"
			}
			return run(f.IO.Out, f.Version, f.Commit, asJSON)
		},
	}
	return cmd
}

func run(w io.Writer, version, commit string, asJSON bool) error {
	if asJSON {
		b, err := json.MarshalIndent(map[string]string{
			"version": version, "commit": commit, "go": runtime.Version(),
			"platform": runtime.GOOS + "/" + runtime.GOARCH,
		}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	_, err := fmt.Fprintf(w, "dbgov %s (commit %s, %s, %s/%s)\n", version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
