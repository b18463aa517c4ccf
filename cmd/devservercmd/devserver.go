// Package devservercmd implements `dbgov dev-server`, which runs the embedded
// reference server.
package devservercmd

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/devserver"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
)

//go:embed help
var help embed.FS

type options struct {
	IO *iostreams.IOStreams

	Addr      string
	SeedFile  string
	Generate  devserver.GenerateOptions
	Server    devserver.Options // the flags that set the server's latency, token lifetime and release
	Log       bool
	PrintSeed bool
}

// NewCmd builds `dbgov dev-server`.
func NewCmd(f *factory.Factory) *cobra.Command {
	opts := &options{IO: f.IO}
	cmd := helptext.Command(help, &cobra.Command{
		Use:   "dev-server",
		Short: "Run the embedded reference server on loopback",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), opts)
		},
	})
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "`HOST:PORT` to listen on; port 0 picks a free port")
	cmd.Flags().StringVar(&opts.SeedFile, "seed", "", "start from the data of this JSON `FILE` instead of the demo data")
	cmd.Flags().BoolVar(&opts.Log, "log", false, "log each request to stderr")
	cmd.Flags().DurationVar(&opts.Server.TokenLifetime, "token-lifetime", devserver.TokenLifetime, "how long a service account's token is valid, e.g. 2s to try expiry")
	cmd.Flags().IntVar(&opts.Generate.Users, "generate-users", 0, "add `N` generated users to the demo data")
	cmd.Flags().IntVar(&opts.Generate.Tables, "generate-tables", 0, "add a database instances/bench-pg/databases/warehouse whose catalog has `N` tables")
	cmd.Flags().IntVar(&opts.Generate.ColumnsPerTable, "generate-columns", 20, "columns per generated table")
	cmd.Flags().IntVar(&opts.Generate.Databases, "generate-databases", 0, "add `N` databases instances/"+devserver.FleetInstance+"/databases/db0001 ..., some of them drifted")
	cmd.Flags().DurationVar(&opts.Server.Latency, "latency", 0, "delay every answer by `DURATION`")
	cmd.Flags().StringVar(&opts.Server.Release, "release", devserver.DefaultRelease, "answer as the service's release `X.Y.Z` does, from 3.13.0 to 3.21.1")
	cmd.Flags().BoolVar(&opts.PrintSeed, "print-seed", false, "print the demo data, a seed to start one's own --seed file from, and exit")
	return cmd
}

func run(ctx context.Context, opts *options) error {
	generate := opts.Generate.Users > 0 || opts.Generate.Tables > 0 || opts.Generate.Databases > 0
	switch {
	case opts.SeedFile != "" && generate:
		return exitcode.Usagef("--seed and --generate-* cannot be used together")
	case opts.Generate.Users < 0 || opts.Generate.Tables < 0 || opts.Generate.ColumnsPerTable < 0 || opts.Generate.Databases < 0:
		return exitcode.Usagef("--generate-* take a number of 0 or more")
	case opts.Server.TokenLifetime <= 0:
		return exitcode.Usagef("--token-lifetime takes a positive duration such as 1h or 30s")
	case opts.PrintSeed:
		_, err := opts.IO.Out.Write(devserver.DemoSeed())
		return err
	}
	switch {
	case opts.SeedFile != "":
		data, err := input.Read(opts.SeedFile, opts.IO.In)
		if err != nil {
			return err
		}
		opts.Server.Seed = bytes.NewReader(data)
	case generate:
		var buf bytes.Buffer
		if err := devserver.GenerateSeed(&buf, opts.Generate); err != nil {
			return fmt.Errorf("generate the seed: %w", err)
		}
		opts.Server.Seed = &buf
	}
	if opts.Log {
		opts.Server.Log = opts.IO.ErrOut
	}
	srv, err := devserver.New(opts.Server) // fails only on a bad --seed or --release
	if err != nil && opts.SeedFile != "" {
		err = fmt.Errorf("seed %s: %w", opts.SeedFile, err)
	}
	if err != nil {
		return exitcode.NewUsage(err)
	}
	l, err := net.Listen("tcp", opts.Addr)
	if addrErr := (*net.AddrError)(nil); errors.As(err, &addrErr) {
		return exitcode.NewUsage(fmt.Errorf("listen on %s: %w", opts.Addr, err)) // not an address at all
	} else if err != nil {
		return fmt.Errorf("listen on %s: %w", opts.Addr, err) // a port in use, say: the address was fine
	}
	addr := l.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(opts.IO.ErrOut, "warning: listening on %s, reachable from other hosts; the demo tokens are public\n", l.Addr())
	}
	host := addr.IP // a server listening on every interface is reached on loopback
	if host.IsUnspecified() {
		host = net.IPv4(127, 0, 0, 1)
	}
	url := "http://" + net.JoinHostPort(host.String(), strconv.Itoa(addr.Port))
	w := opts.IO.Out
	fmt.Fprintf(w, "dbgov reference server listening on %s, answering as release %s\n\n", url, opts.Server.Release)
	fmt.Fprintf(w, "  export DBGOV_URL=%s DBGOV_TOKEN=%s\n\n", url, srv.AdminToken())
	for _, t := range srv.Tokens() {
		fmt.Fprintf(w, "token %-22s %s: %s\n", t.Token, t.User, strings.Join(t.Permissions, ", "))
	}
	for _, sa := range srv.ServiceAccounts() {
		fmt.Fprintf(w, "service account %s, key %s\n", sa.Email, sa.Key)
	}
	fmt.Fprintf(w, "\nOIDC tokens of a test issuer, as GitHub Actions gets them:\n  export ACTIONS_ID_TOKEN_REQUEST_URL=%s%s?api-version=2.0 ACTIONS_ID_TOKEN_REQUEST_TOKEN=%s\n",
		url, devserver.OIDCTokenPath, devserver.ActionsRequestToken)
	fmt.Fprintf(w, "\nPress Ctrl-C to stop.\n")
	return srv.Serve(ctx, l)
}
