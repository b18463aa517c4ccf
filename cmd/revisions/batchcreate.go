// Package revisions implements `dbgov revisions`: the schema revisions of a
// database.
package revisions

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/dbname"
	"github.com/dbgov/dbgov/cmd/dryrun"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/cmd/listing"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/output"
)

//go:embed help
var help embed.FS

// NewCmd builds the revisions command group.
func NewCmd(f *factory.Factory) *cobra.Command {
	return helptext.Command(help, &cobra.Command{Use: "revisions <command>", Aliases: []string{"revision"}, Short: "Manage the schema revisions of a database"}, newBatchCreateCmd(f, nil),
		listing.Cmd(f, help, listing.Spec[client.Revision]{Use: "list (--instance I --database D | --databases-from FILE) [--limit N]",
			Short: "List the schema revisions of a database", Collection: "revisions", Parent: listing.PerDatabase, List: revisionList}, nil))
}

// revisionList is how revisions print.
var revisionList = output.List[client.Revision]{
	Columns: []output.Column[client.Revision]{
		{Header: "NAME", Kind: output.Name, MinWidth: 20, Value: func(r *client.Revision) string { return r.Name }},
		{Header: "VERSION", Value: func(r *client.Revision) string { return r.Version }},
		{Header: "TYPE", Priority: 1, Value: func(r *client.Revision) string { return string(r.Type) }},
		{Header: "RELEASE", Priority: 3, MinWidth: 12, Value: func(r *client.Revision) string { return r.Release }},
		{Header: "FILE", Priority: 2, MinWidth: 15, Value: func(r *client.Revision) string { return r.File }},
		{Header: "CREATED", Priority: 1, Kind: output.Time, Value: func(r *client.Revision) string { return r.CreateTime }},
	},
	Name: func(r *client.Revision) string { return r.Name },
}

// Bounds and default of --batch-size.
const (
	defaultBatchSize = 100
	maxBatchSize     = 1000
)

type batchCreateOptions struct {
	factory.Deps
	DB           dbname.Flags
	f            *factory.Factory
	dbs          []client.DatabaseName // every database: the one, or those of --databases-from
	File         string
	BatchSize    int
	DryRun       bool
	SkipExisting bool
}

// newBatchCreateCmd builds revisions batch-create. runF, when not nil, is
// called with the checked options in place of the creation: for tests of
// the flags.
func newBatchCreateCmd(f *factory.Factory, runF func(*batchCreateOptions) error) *cobra.Command {
	opts := &batchCreateOptions{Deps: f.Deps(), f: f}
	cmd := opts.DB.Command(f, help, "batch-create (--instance I --database D | --databases-from FILE) -f FILE", "Create schema revisions of a database from a file",
		func(cmd *cobra.Command, dbs []client.DatabaseName) error {
			if opts.File == "" {
				return exitcode.Usagef("-f/--file is required: the revisions to create, as JSON or YAML (- for standard input)")
			}
			if opts.BatchSize < 1 || opts.BatchSize > maxBatchSize {
				return exitcode.Usagef("--batch-size must be between 1 and %d, not %d", maxBatchSize, opts.BatchSize)
			}
			opts.dbs = dbs
			if runF != nil {
				return runF(opts)
			}
			return runBatchCreate(cmd.Context(), opts)
		}, &opts.File)
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "revisions `file`, JSON or YAML; - reads standard input")
	cmd.Flags().IntVar(&opts.BatchSize, "batch-size", defaultBatchSize, fmt.Sprintf("revisions per request (1 to %d)", maxBatchSize))
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the requests that would be sent, and send nothing")
	cmd.Flags().BoolVar(&opts.SkipExisting, "skip-existing", false, "skip the versions the service reports as existing, and create the rest")
	return cmd
}

// batchResponse keeps each created revision as the service sent it, so that
// fields this version does not know are printed too; typed values are
// decoded only for table and name output.
type batchResponse struct {
	Revisions []json.RawMessage `json:"revisions"`
}

func runBatchCreate(ctx context.Context, opts *batchCreateOptions) error {
	p, c, err := opts.Connect() // a missing URL is told before a large file is read
	if err != nil {
		return err
	}
	name := input.Name(opts.File)
	data, err := input.Read(opts.File, opts.IO.In)
	if err != nil {
		return err
	}
	revs, err := readRevisions(name, data, opts.dbs[0])
	for i := 1; i < len(opts.dbs) && err == nil && !input.IsList(data); i++ {
		_, err = readRevisions(name, data, opts.dbs[i]) // the parents of a body
	}
	var s *client.Server
	if err == nil {
		s, err = c.Server(ctx)
	}
	if err == nil {
		err = refuse(name, checkRelease(s.Release, revs))
	}
	if err != nil {
		return err
	}
	if opts.DryRun {
		var reqs []*client.Request
		for _, db := range opts.dbs {
			for lo := 0; lo < len(revs); lo += opts.BatchSize {
				req, err := batchCall(db, revs, lo, opts.BatchSize)
				if err != nil {
					return err
				}
				reqs = append(reqs, req)
			}
		}
		doc, err := dryrun.Document(c, reqs...)
		if err != nil {
			return err
		}
		return p.Print(ctx, opts.IO.Out, doc)
	}
	if opts.DB.Many() {
		return opts.DB.Run(ctx, opts.f, func(ctx context.Context, c *client.Client, db client.DatabaseName) (dbname.Result, error) {
			creation := newCreation(opts, db, revs, false)
			created, err := creation.send(ctx, c)
			if err != nil {
				return dbname.Result{}, creation.incomplete(err)
			}
			return dbname.Result{Doc: creation.doc(created)}, nil
		})
	}

	creation := newCreation(opts, opts.dbs[0], revs, opts.IO.ErrTTY)
	first, sendErr := creation.next(ctx, c)
	var doc output.Document
	switch {
	case first == nil && sendErr != nil:
		creation.clearProgress()
		return creation.incomplete(sendErr) // nothing was created: nothing to show
	case creation.lo < len(revs) && !opts.IO.OutTTY:
		// Piped, the revisions are printed as each batch is created, so that
		// a large file's are never held at once. A reader that goes away
		// (head) then fails a write, which stops the creation with its
		// account, rather than SIGPIPE killing dbgov between two batches.
		broken := make(chan os.Signal, 1)
		signal.Notify(broken, syscall.SIGPIPE)
		defer signal.Stop(broken)
		doc = revisionList.ItemsDocument("revisions", opts.dbs[0].String()+"/revisions/", func(page func(string, []json.RawMessage) error) error {
			for batch := first; batch != nil; batch, sendErr = creation.next(ctx, c) {
				// Each answer is checked as a document printed whole is.
				if err := jsondoc.Check(creation.body); err != nil {
					return err
				}
				if err := page("revisions", batch); err != nil {
					return err
				}
			}
			return nil
		})
		doc.OneResult = true
	default:
		var rest []json.RawMessage
		if sendErr == nil {
			rest, sendErr = creation.send(ctx, c)
		}
		creation.clearProgress()
		doc = creation.doc(append(first, rest...))
	}
	// Printing is not cancelled: interrupted, the creation stops, and its
	// document still ends with the revisions created.
	printErr := p.Print(context.WithoutCancel(ctx), opts.IO.Out, doc)
	creation.clearProgress()
	if printErr != nil {
		printErr = fmt.Errorf("show the created revisions: %w", printErr)
	}
	if sendErr == nil && creation.lo < len(revs) {
		creation.stopAt(creation.lo, creation.lo) // printing failed, and stopped the sending
	}
	if sendErr == nil && !creation.stopped {
		creation.summary()
		return printErr
	}
	return creation.incomplete(errors.Join(sendErr, printErr))
}

// send creates every revision in batches, keeping those created for doc.
func (r *creation) send(ctx context.Context, c *client.Client) ([]json.RawMessage, error) {
	var created []json.RawMessage
	for {
		batch, err := r.next(ctx, c)
		if batch == nil || err != nil {
			return created, err
		}
		created = append(created, batch...)
	}
}

// next sends batches from where the creation stands until one creates
// revisions, and returns those; nil when every batch is sent, or one failed.
func (r *creation) next(ctx context.Context, c *client.Client) ([]json.RawMessage, error) {
	opts, revs := r.opts, r.revs
	for r.lo < len(revs) {
		lo, size := r.lo, opts.BatchSize
		if lo < r.singlesTo {
			size = 1
		}
		hi := min(lo+size, len(revs))
		if err := ctx.Err(); err != nil {
			r.stopAt(lo, lo)
			return nil, fmt.Errorf("create revisions in %s: stopped before %s: %w", r.db, describe(revs, lo, len(revs)), err)
		}
		req, err := batchCall(r.db, revs, lo, size)
		if err != nil {
			return nil, err
		}
		var res batchResponse
		raw, err := c.Send(ctx, req, &res)
		switch {
		case err != nil && opts.SkipExisting && alreadyExists(err) && hi-lo > 1:
			r.singlesTo = hi
			continue
		case err != nil && opts.SkipExisting && alreadyExists(err):
			r.skipped++
		case err != nil:
			sent := hi
			if createdNothing(err, revs[lo:hi]) {
				sent = lo
			}
			r.stopAt(lo, sent)
			return nil, fmt.Errorf("create %s in %s: %w", describe(revs, lo, hi), r.db, err)
		case len(res.Revisions) != hi-lo:
			r.stopAt(lo, hi)
			return nil, fmt.Errorf("create %s in %s: %w", describe(revs, lo, hi), r.db, &client.InvalidResponseError{
				Err: fmt.Errorf("the service answered %d revisions for the %d sent", len(res.Revisions), hi-lo)})
		case slices.ContainsFunc(res.Revisions, func(rev json.RawMessage) bool { return rev[0] != '{' }):
			r.stopAt(lo, hi)
			return nil, fmt.Errorf("create %s in %s: %w", describe(revs, lo, hi), r.db, &client.InvalidResponseError{
				Err: errors.New("the service answered revisions that are not objects")})
		}
		r.lo = hi
		if err != nil { // skipped: the version exists
			r.showProgress()
			continue
		}
		r.batches++
		r.body = raw
		r.created += len(res.Revisions)
		r.showProgress()
		return res.Revisions, nil
	}
	return nil, nil
}

// createdNothing reports whether batch, failed with err, certainly created
// nothing: the service refused the credentials, the permission or the
// database before looking at the batch, or refused the batch (400) where
// only the checks it makes before creating the first entry could (every
// entry's parent, version and sheet; an entry's release, file and task run
// are checked in its turn, after the entries before it were created), or
// the request never left.
func createdNothing(err error, batch []client.RevisionInput) bool {
	var api *client.APIError
	if errors.As(err, &api) {
		switch api.HTTPStatus {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			return true
		case http.StatusBadRequest:
			return !slices.ContainsFunc(batch[1:], func(r client.RevisionInput) bool { return r.Release != "" || r.File != "" || r.TaskRun != "" })
		}
		return false
	}
	var te *client.TransportError
	return errors.Is(err, client.ErrNoCredentials) || errors.As(err, &te) && te.SentNothing
}

// alreadyExists reports whether err is the service saying that a version
// exists: ALREADY_EXISTS, or INTERNAL with SQLSTATE 23505 (unique violation).
func alreadyExists(err error) bool {
	var api *client.APIError
	return errors.As(err, &api) && (api.CodeName == "ALREADY_EXISTS" ||
		api.HTTPStatus == http.StatusInternalServerError && strings.Contains(api.Message, "23505"))
}

// batchCall builds the request of the batch starting at entry lo.
func batchCall(db client.DatabaseName, revs []client.RevisionInput, lo, size int) (*client.Request, error) {
	hi := min(lo+size, len(revs))
	req, err := client.BatchCreateRevisionsCall(db, revs[lo:hi])
	if err != nil {
		return nil, exitcode.NewUsage(fmt.Errorf("build the request for entries %d-%d: %w", lo+1, hi, err))
	}
	return req, nil
}
