// Package version implements `dbgov version`.
package version

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

type options struct {
	IO      *iostreams.IOStreams
	Printer func() (output.Printer, error)

	Version, Commit string
}

// NewCmd builds `dbgov version`. It reads neither the config file nor the
// environment, so it answers whatever they hold.
func NewCmd(f *factory.Factory) *cobra.Command {
	opts := &options{IO: f.IO, Printer: f.PrintFlags().DefaultFrom(factory.FlagsOnly).ToPrinter, Version: f.Version, Commit: f.Commit}
	return helptext.Command(help, &cobra.Command{
		Use:   "version",
		Short: "Print dbgov's version",
		Args:  arity.Exact(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd.Context(), opts) },
	})
}

func run(ctx context.Context, opts *options) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	raw, err := json.Marshal(struct {
		Version  string `json:"version"`
		Commit   string `json:"commit"`
		Go       string `json:"go"`
		Platform string `json:"platform"`
	}{opts.Version, opts.Commit, runtime.Version(), platform})
	if err != nil {
		return fmt.Errorf("describe the version: %w", err)
	}
	return p.Print(ctx, opts.IO.Out, output.Document{
		Raw: raw,
		Text: func() string {
			return fmt.Sprintf("dbgov %s (commit %s, %s, %s)\n", opts.Version, opts.Commit, runtime.Version(), platform)
		},
	})
}

// Stamp fills a version or commit that -ldflags left at its default ("dev",
// "none") from the build info: the module version `go install ...@v1.2.3`
// records, the VCS revision of a `go build` in a checkout.
func Stamp(version, commit string, info *debug.BuildInfo) (string, string) {
	if info == nil {
		return version, commit
	}
	if v := info.Main.Version; version == "dev" && v != "" && v != "(devel)" {
		version = v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && commit == "none" {
			commit = s.Value[:min(len(s.Value), 12)]
		}
	}
	return version, commit
}
