// Package api implements `dbgov api`, which sends any /v1 request with
// dbgov's credentials, output and exit codes.
package api

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

// methods are the HTTP methods `dbgov api` sends, in the order help shows them.
var methods = [...]string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete}

// Options are what one api request is sent with.
type Options struct {
	IO            *iostreams.IOStreams
	Client        func() (*client.Client, error)
	OutputOptions func() (output.Options, error)

	Method string // upper case, one of methods
	Target string // /v1/PATH, with its query string if any
	Input  string // the body's file, "-" for stdin; "" for no body
	// Paginate follows nextPageToken: every page, one document.
	Paginate bool
}

//go:embed help
var help embed.FS

// NewCmd builds `dbgov api`. runF, when not nil, is called with the options
// in place of the request: for tests of the arguments.
func NewCmd(f *factory.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Client: f.Client, OutputOptions: f.PrintFlags().Options}
	cmd := helptext.Command(help, &cobra.Command{
		Use:   "api METHOD PATH",
		Short: "Send any /v1 request to the service",
		Args:  arity.Exact(2, "a METHOD and a PATH"),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return methods[:], cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Method = strings.ToUpper(args[0])
			if !slices.Contains(methods[:], opts.Method) {
				return exitcode.Usagef("method %q is not one of %s", args[0], strings.Join(methods[:], ", "))
			}
			var err error
			if opts.Target, err = parseTarget(args[1]); err != nil {
				return err
			}
			if opts.Method == http.MethodGet && opts.Input != "" {
				return exitcode.Usagef("a GET request has no body: drop --input, or use POST, PATCH or PUT")
			}
			if opts.Method != http.MethodGet && opts.Paginate {
				return exitcode.Usagef("--paginate follows the pages of a GET")
			}
			if runF != nil {
				return runF(opts)
			}
			return runAPI(cmd.Context(), opts)
		},
	})
	cmd.Flags().StringVar(&opts.Input, "input", "", "`file` holding the request body as JSON or YAML (- for standard input)")
	cmd.Flags().BoolVar(&opts.Paginate, "paginate", false, "follow nextPageToken to the last page, printing every page's items as one document")
	return cmd
}

// parseTarget checks PATH and returns it beginning with /v1/.
func parseTarget(s string) (string, error) {
	if strings.HasPrefix(s, "v1/") {
		s = "/" + s
	}
	if !strings.HasPrefix(s, "/v1/") {
		hint := ""
		if strings.Contains(s, "://") {
			hint = " (give the path alone; the address comes from --url)"
		}
		return "", exitcode.Usagef("PATH %q must begin with /v1/%s", s, hint)
	}
	return s, nil
}

func runAPI(ctx context.Context, opts *Options) error {
	c, err := opts.Client() // a missing URL is told before a large file is read
	if err != nil {
		return err
	}
	var body []byte
	if opts.Input != "" {
		if body, err = readBody(opts.Input, opts.IO); err != nil {
			return err
		}
	}
	call, err := client.NewRawRequest(opts.Method, opts.Target, body)
	if err != nil {
		return exitcode.NewUsage(err)
	}
	// Some routes are open (GET /v1/idps): without credentials the call goes
	// bare, and the service says whether it needs them.
	call.OptionalAuth = true
	o, err := opts.OutputOptions()
	if err != nil {
		return err
	}
	o.ShowSecrets = o.ShowSecrets || opts.Method != http.MethodGet
	p, err := output.New(o)
	if err != nil {
		return err
	}
	if opts.Paginate {
		items := func(page func(string, []json.RawMessage) error) error { return c.List(ctx, call, "", 0, page) }
		if err := p.Print(ctx, opts.IO.Out, output.Document{Items: items}); err != nil {
			return fmt.Errorf("%s %s: %w", opts.Method, opts.Target, err)
		}
		return nil
	}
	raw, err := c.Send(ctx, call, nil)
	if err != nil {
		return fmt.Errorf("%s %s: %w", opts.Method, opts.Target, err)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		// An empty answer is the service's empty message.
		raw = []byte("{}")
	}
	// The request was sent: an answer that names no resource prints no
	// names rather than failing as if nothing had been sent.
	doc := output.Document{Raw: raw, Names: namesIn(raw)}
	if err := p.Print(ctx, opts.IO.Out, doc); err != nil || opts.Method == http.MethodGet {
		return err
	}
	var v any
	_ = json.Unmarshal(raw, &v) // an answer that is not JSON holds no secret field
	if name := secretIn(v); name != "" {
		opts.IO.Warn(fmt.Sprintf("the answer holds a secret, %s, which the service shows only once: keep it now", name))
	}
	return nil
}

// secretIn returns the name of a non-empty secret field in the JSON value v,
// at any depth, or "".
func secretIn(v any) string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if secret.IsData(k) && x != nil && x != "" {
				return k
			}
			if name := secretIn(x); name != "" {
				return name
			}
		}
	case []any:
		for _, x := range v {
			if name := secretIn(x); name != "" {
				return name
			}
		}
	}
	return ""
}

// readBody reads the request body from a JSON or YAML file and returns it as
// JSON: a JSON file as it is, a YAML file converted.
func readBody(path string, ios *iostreams.IOStreams) ([]byte, error) {
	data, err := input.Read(path, ios.In)
	if err != nil {
		return nil, fmt.Errorf("read the request body: %w", err)
	}
	// Decoding into an interface that holds a *json.RawMessage lets input
	// check the syntax (with lines) and convert YAML, while the JSON text,
	// numbers and key order included, is kept as it is.
	var raw json.RawMessage
	var doc any = &raw
	if err := input.Decode(input.Name(path), data, &doc); err != nil {
		return nil, fmt.Errorf("read the request body: %w", err)
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return nil, exitcode.Usagef("read the request body: %s does not hold a JSON object or list", input.Name(path))
	}
	return raw, nil
}

// namesIn finds the resource names of an answer for -o name: the name of
// one resource, or the names of the resources of its lists, none when the
// answer names none.
func namesIn(raw []byte) []string {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(raw, &obj) // an answer that is no object has no name and no lists
	var name string
	if json.Unmarshal(obj["name"], &name) == nil && name != "" {
		return []string{name}
	}
	type named struct{ Name string }
	names := []string{}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		var list []named
		if json.Unmarshal(obj[k], &list) != nil {
			continue
		}
		for _, item := range list {
			names = append(names, item.Name) // -o name skips an item without one
		}
	}
	return names
}
