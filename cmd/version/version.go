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
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds `dbgov version`. A configuration it cannot read only leaves
// the service out, and -o to the flag, so it answers whatever the
// environment and config file hold.
func NewCmd(f *factory.Factory) *cobra.Command {
	var clientOnly bool
	cmd := helptext.Command(help, &cobra.Command{
		Use:   "version [--client]",
		Short: "Print dbgov's version and the service's",
		Args:  arity.Exact(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd.Context(), f, clientOnly) },
	})
	cmd.Flags().BoolVar(&clientOnly, "client", false, "print dbgov's version alone, without asking the service")
	return cmd
}

// serverInfo describes the service, and the release dbgov treats it as.
type serverInfo struct {
	URL string `json:"url"`
	*client.Server
	Release string `json:"release"`
}

// server describes the service at the URL set; nil when none is.
func server(ctx context.Context, f *factory.Factory) (*serverInfo, error) {
	s, err := f.Settings()
	if err != nil || s.URL == "" {
		return nil, nil
	}
	c, err := f.ClientWith(factory.Auth{}) // the service describes itself to anyone
	var srv *client.Server
	if err == nil {
		srv, err = c.Server(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", secret.URL(s.URL), err)
	}
	return &serverInfo{URL: secret.URL(s.URL), Server: srv, Release: srv.Release.String()}, nil
}

func run(ctx context.Context, f *factory.Factory, clientOnly bool) error {
	pf := f.PrintFlags()
	pf.SummaryFile = nil
	if _, err := f.Settings(); err != nil {
		pf.Format = nil
	}
	p, err := pf.ToPrinter()
	if err != nil {
		return err
	}
	type clientInfo struct {
		Version  string `json:"version"`
		Commit   string `json:"commit"`
		Go       string `json:"go"`
		Platform string `json:"platform"`
	}
	doc := struct {
		Client clientInfo  `json:"client"`
		Server *serverInfo `json:"server,omitempty"`
	}{Client: clientInfo{f.Version, f.Commit, runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH}}
	var serverErr error
	if !clientOnly {
		doc.Server, serverErr = server(ctx, f)
	}
	raw, _ := json.Marshal(doc) // strings alone
	cl := doc.Client
	text := fmt.Sprintf("dbgov %s (commit %s, %s, %s)\n", cl.Version, cl.Commit, cl.Go, cl.Platform)
	if s := doc.Server; s != nil && s.Version == s.Release {
		text += fmt.Sprintf("service %s at %s\n", s.Version, s.URL)
	} else if s != nil {
		text += fmt.Sprintf("service %s (as %s) at %s\n", cmp.Or(s.Version, "of a release it does not tell"), s.Release, s.URL)
	}
	err = p.Print(ctx, f.IO.Out, output.Document{Raw: raw, Text: &text})
	return cmp.Or(serverErr, err)
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
