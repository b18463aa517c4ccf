// Package version implements `dbgov version`.
package version

import (
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

type options struct {
	IO      *iostreams.IOStreams
	Printer func() (output.Printer, error)
	// Server returns the client of the service and its URL; a nil client
	// when no URL is set.
	Server func() (*client.Client, string, error)

	Version, Commit string
	ClientOnly      bool
}

// NewCmd builds `dbgov version`. Its output format comes from the flags
// alone, and a configuration it cannot read only leaves the service out,
// so it answers whatever the environment and config file hold.
func NewCmd(f *factory.Factory) *cobra.Command {
	pf := f.PrintFlags()
	pf.Format = nil
	opts := &options{IO: f.IO, Printer: pf.ToPrinter, Version: f.Version, Commit: f.Commit,
		Server: func() (*client.Client, string, error) {
			s, err := f.Settings()
			if err != nil || s.URL == "" {
				return nil, "", nil
			}
			c, err := f.ClientWith(factory.Auth{}) // the service describes itself to anyone
			return c, s.URL, err
		}}
	cmd := helptext.Command(help, &cobra.Command{
		Use:   "version [--client]",
		Short: "Print dbgov's version and the service's",
		Args:  arity.Exact(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd.Context(), opts) },
	})
	cmd.Flags().BoolVar(&opts.ClientOnly, "client", false, "print dbgov's version alone, without asking the service")
	return cmd
}

// clientInfo describes dbgov.
type clientInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// serverInfo describes the service.
type serverInfo struct {
	URL string `json:"url"`
	*client.Server
	// Release is the release dbgov treats the service as.
	Release string `json:"release"`
}

func run(ctx context.Context, opts *options) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	doc := struct {
		Client clientInfo  `json:"client"`
		Server *serverInfo `json:"server,omitempty"`
	}{Client: clientInfo{opts.Version, opts.Commit, runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH}}
	var serverErr error
	if !opts.ClientOnly {
		doc.Server, serverErr = askServer(ctx, opts)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("describe the version: %w", err)
	}
	cl := doc.Client
	text := fmt.Sprintf("dbgov %s (commit %s, %s, %s)\n", cl.Version, cl.Commit, cl.Go, cl.Platform)
	if s := doc.Server; s != nil {
		as := ""
		if s.Version != s.Release {
			as = " (as " + s.Release + ")"
		}
		text += fmt.Sprintf("service %s%s at %s\n", cmp.Or(s.Version, "of a release it does not tell"), as, s.URL)
	}
	err = p.Print(ctx, opts.IO.Out, output.Document{Raw: raw, Text: &text})
	if serverErr != nil {
		return serverErr
	}
	return err
}

// askServer describes the service when a URL is set, else returns nil.
func askServer(ctx context.Context, opts *options) (*serverInfo, error) {
	c, url, err := opts.Server()
	if c == nil || err != nil {
		return nil, err
	}
	s, err := c.Server(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", secret.URL(url), err)
	}
	return &serverInfo{URL: secret.URL(url), Server: s, Release: s.Release.String()}, nil
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
