package revisions

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/textsafe"
	"github.com/dbgov/dbgov/output"
)

// creation follows one batch-create as its batches are sent: what was created,
// where it stopped, and the progress shown on a terminal.
type creation struct {
	opts *batchCreateOptions
	db   client.DatabaseName // the database the revisions are created in
	revs []client.RevisionInput

	lo        int    // the first entry of the next batch to send, or of the batch that failed
	singlesTo int    // the entries before it are sent one a request: their batch held an existing version
	created   int    // revisions created
	batches   int    // batches the service answered with success
	body      []byte // the body of the last successful batch
	skipped   int    // versions the service reported as existing
	start     time.Time

	stopped  bool
	notFrom  int // first entry (from 0) of the batch that failed or was never sent
	failedHi int // end of the batch that failed; notFrom when it was never sent

	progress bool // progress is being shown on stderr
}

// newCreation starts following a batch-create in db, showing its progress on
// stderr when progress is true.
func newCreation(opts *batchCreateOptions, db client.DatabaseName, revs []client.RevisionInput, progress bool) *creation {
	r := &creation{opts: opts, db: db, revs: revs, start: time.Now(), progress: progress}
	r.showProgress()
	return r
}

// stopAt records that the entries from lo on were not confirmed created;
// those up to hi were sent in the batch that failed.
func (r *creation) stopAt(lo, hi int) {
	r.stopped, r.notFrom, r.failedHi = true, lo, hi
}

// status says how far the creation is: "created 40/100 revisions, skipped 3 existing in 2.5s, 17/s".
func (r *creation) status() string {
	elapsed := time.Since(r.start)
	s := fmt.Sprintf("created %d/%d revisions", r.created, len(r.revs))
	if r.skipped > 0 {
		s += fmt.Sprintf(", skipped %d existing", r.skipped)
	}
	rate := float64(r.created+r.skipped) / max(elapsed.Seconds(), 1e-3)
	return s + fmt.Sprintf(" in %s, %.0f/s", elapsed.Round(100*time.Millisecond), rate)
}

func (r *creation) showProgress() {
	if r.progress {
		fmt.Fprintf(r.opts.IO.ErrOut, "\r%s\x1b[K", r.status())
	}
}

// summary ends a creation that created or skipped every revision with its
// status on stderr, on a terminal or when versions were skipped; under JSON
// output only then, as a warning line.
func (r *creation) summary() {
	switch {
	case r.opts.IO.JSONErrors:
		if r.skipped > 0 {
			r.opts.IO.Warn(r.status())
		}
	case r.opts.IO.ErrTTY || r.skipped > 0:
		fmt.Fprintln(r.opts.IO.ErrOut, r.status())
	}
}

// clearProgress erases the progress line, leaving stderr as it was.
func (r *creation) clearProgress() {
	if r.progress {
		_, _ = io.WriteString(r.opts.IO.ErrOut, "\r\x1b[K")
		r.progress = false
	}
}

// doc is the document of the revisions created, as the service sent them;
// one that is not a revision makes it Invalid. Its JSON is the body itself
// when one batch did it all, else {"revisions": [...]} gathering those of
// every batch.
func (r *creation) doc(created []json.RawMessage) output.Document {
	revs := make([]client.Revision, len(created))
	var invalid error
	for i, raw := range created {
		if err := json.Unmarshal(raw, &revs[i]); err != nil && invalid == nil {
			invalid = fmt.Errorf("created revision %d is not a revision: %w", i+1, err)
		}
	}
	raw := r.body
	if r.batches != 1 || r.stopped {
		raw = output.ListJSON("revisions", created)
	}
	doc := revisionList.Document(raw, "revisions", revs, r.db.String()+"/revisions/")
	doc.Invalid = invalid
	return doc
}

// incomplete wraps err, the failure that stopped the creation, with how many
// revisions were created and which entries were not.
func (r *creation) incomplete(err error) error {
	if r.created == 0 && r.skipped == 0 && r.failedHi <= r.notFrom {
		return err // nothing was created, nor could have been
	}
	total := len(r.revs)
	// rest says that the entries from lo on were not what: "entry 5 (version 1.5) was not sent".
	rest := func(lo int, what string) string {
		if total-lo == 1 {
			return describe(r.revs, lo, total) + " was not " + what
		}
		return describe(r.revs, lo, total) + " were not " + what
	}
	type span struct {
		First int `json:"first"`
		Last  int `json:"last"`
	}
	type detail struct {
		Created            int   `json:"created"`
		Skipped            int   `json:"skipped,omitempty"`
		Total              int   `json:"total"`
		NotCreated         span  `json:"notCreated"`
		MaybePartlyCreated *span `json:"maybePartlyCreated,omitempty"`
	}
	d := detail{Created: r.created, Skipped: r.skipped, Total: total, NotCreated: span{r.notFrom + 1, total}}
	skipped := ""
	if r.skipped > 0 {
		skipped = fmt.Sprintf(" (%d existing skipped)", r.skipped)
	}
	if r.failedHi == r.notFrom {
		// Nothing is in doubt: what was not confirmed was never sent.
		lines := []string{fmt.Sprintf("created %d of %d revisions%s; %s", r.created, total, skipped, rest(r.notFrom, "created"))}
		return &exitcode.IncompleteError{Err: err, Lines: lines, Detail: d}
	}
	d.MaybePartlyCreated = &span{r.notFrom + 1, r.failedHi}
	lines := []string{
		fmt.Sprintf("created %d of %d revisions for certain%s", r.created, total, skipped),
		fmt.Sprintf("the failed batch, %s, may be partly created: the service does not create a batch atomically; a rerun with --skip-existing skips the versions that exist (reported as ALREADY_EXISTS, or INTERNAL with SQLSTATE 23505) and creates the rest",
			describe(r.revs, r.notFrom, r.failedHi)),
	}
	if r.failedHi < total {
		lines = append(lines, rest(r.failedHi, "sent"))
	}
	return &exitcode.IncompleteError{Err: err, Lines: lines, Detail: d}
}

// describe names the entries lo to hi (from 0, hi excluded) compactly, by
// their numbers (from 1) and versions: "entry 7 (version 1.2)", "entries
// 7-9 (versions 1.2, 1.3, 1.4)", "entries 7-300 (versions 1.2 ... 3.5)".
func describe(revs []client.RevisionInput, lo, hi int) string {
	version := func(i int) string { return textsafe.Line(revs[i].Version) }
	switch n := hi - lo; {
	case n <= 0:
		return "no entries"
	case n == 1:
		return "entry " + strconv.Itoa(lo+1) + " (version " + version(lo) + ")"
	case n <= 3:
		vs := make([]string, 0, n)
		for i := lo; i < hi; i++ {
			vs = append(vs, version(i))
		}
		return fmt.Sprintf("entries %d-%d (versions %s)", lo+1, hi, strings.Join(vs, ", "))
	default:
		return fmt.Sprintf("entries %d-%d (versions %s ... %s)", lo+1, hi, version(lo), version(hi-1))
	}
}
