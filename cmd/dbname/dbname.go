// Package dbname holds the flags of database commands, --instance and
// --database or --databases-from, and runs a command over those databases.
package dbname

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/fleet"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

// Flags are the values of the database flags.
type Flags struct {
	Instance    string
	Database    string
	From        string // --databases-from: a file, or - for standard input
	Concurrency int
	FailFast    bool

	dbs []client.DatabaseName
	cmd *cobra.Command // the command, named in reports
}

// AddMany registers --instance and --database, and --databases-from,
// --concurrency and --fail-fast for commands that Run over many databases.
func (f *Flags) AddMany(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.Instance, "instance", "", "instance `id` of the database")
	cmd.Flags().StringVar(&f.Database, "database", "", "database `id`, or its full name instances/I/databases/D")
	cmd.Flags().StringVar(&f.From, "databases-from", "", "do it for each database listed in `FILE` (- for standard input), one a line: I/D or instances/I/databases/D")
	cmd.Flags().IntVar(&f.Concurrency, "concurrency", 4, "with --databases-from: requests in flight at once, 1 to 64")
	cmd.Flags().BoolVar(&f.FailFast, "fail-fast", false, "with --databases-from: start no database after the first failure")
}

// Command builds a verb that takes no arguments and works on the databases
// of f, its help read from help; run is called with the databases once the
// flags are checked. files point at the verb's other inputs (-f), none of
// which standard input can give when it gives the list.
func (f *Flags) Command(fac *factory.Factory, help fs.FS, use, short string, run func(*cobra.Command, []client.DatabaseName) error, files ...*string) *cobra.Command {
	cmd := helptext.Command(help, &cobra.Command{
		Use:   use,
		Short: short,
		Args:  arity.Exact(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			dbs, err := f.Databases(fac.IO.In, files...)
			if err != nil {
				return err
			}
			return run(cmd, dbs)
		},
	})
	f.AddMany(cmd)
	return cmd
}

// Many reports whether the command runs over the list of --databases-from.
func (f *Flags) Many() bool { return f.From != "" }

// Databases checks the flags and returns the databases they name, keeping
// them for Run; its errors are usage errors. The list of --databases-from -
// is read from in; files point at the command's other inputs (-f), none of
// which may be - as well.
func (f *Flags) Databases(in io.Reader, files ...*string) ([]client.DatabaseName, error) {
	var err error
	switch {
	case f.Many() && (f.Instance != "" || f.Database != ""):
		return nil, exitcode.Usagef("--databases-from cannot be used with --instance or --database")
	case f.Many() && (f.Concurrency < 1 || f.Concurrency > 64):
		return nil, exitcode.Usagef("--concurrency must be between 1 and 64, not %d", f.Concurrency)
	case !f.Many() && f.Database == "":
		return nil, exitcode.Usagef("--database is required (with --instance, or as instances/I/databases/D)")
	case !f.Many():
		var db client.DatabaseName
		db, err = client.ParseDatabase(f.Instance, f.Database)
		f.dbs = []client.DatabaseName{db}
	case f.From == "-" && slices.ContainsFunc(files, func(file *string) bool { return *file == "-" }):
		return nil, exitcode.Usagef("standard input already gave the list of --databases-from: give the file's name instead of -")
	default:
		var data []byte
		if data, err = input.Read(f.From, in); err == nil {
			f.dbs, err = fleet.Parse(data, input.Name(f.From))
		}
	}
	return f.dbs, exitcode.NewUsage(err)
}

// Result is what a command gives for one database.
type Result struct {
	Doc     output.Document // what it prints for that database alone
	Differs bool            // differences found under --exit-code
	Changes string          // the differences found, for reports; "" for none
	// Written, when set, names what the command wrote ("the catalog of
	// instances/I/databases/D"): an output that fails says it was written.
	Written string
}

// Func does a command's work for one database.
type Func func(ctx context.Context, c *client.Client, db client.DatabaseName) (Result, error)

// Run calls fn for the databases of Databases, prints what it gives (one
// database's document as is; many as {"results": [...]} in the list's order,
// or a line each as they finish with -o jsonl) and returns the exit error.
func (f *Flags) Run(ctx context.Context, fac *factory.Factory, fn Func) error {
	pf := fac.PrintFlags()
	pf.Reports = true
	p, err := pf.ToPrinter()
	if err != nil {
		return err
	}
	// -o junit reports one database as it reports many.
	if o, _ := pf.Options(); f.Many() || o.Format == "junit" && o.JQ == "" && o.Template == "" {
		c, err := fac.FleetClient(f.Concurrency)
		if err != nil {
			return err
		}
		return f.runMany(ctx, fac, o, c, fn)
	}
	c, err := fac.Client()
	if err != nil {
		return err
	}
	r, err := fn(ctx, c, f.dbs[0])
	if err == nil {
		if err = p.Print(ctx, fac.IO.Out, r.Doc); err != nil && r.Written != "" {
			err = fmt.Errorf("%s was written, but showing it failed: %w", r.Written, err)
		}
	}
	if err == nil && r.Differs {
		err = &exitcode.SilentError{Code: exitcode.Differences}
	}
	return err
}

// runMany runs fn over many databases with c, printing the results as o
// says, a line each as they finish with -o jsonl, and then the report to
// the summary file of o.
func (f *Flags) runMany(ctx context.Context, fac *factory.Factory, o output.Options, c *client.Client, fn Func) error {
	// The summary file gets the run's report once, at the end (summed), so
	// the printer of the results leaves it out; Run has checked the options.
	summed := o
	o.SummaryFile = ""
	p, _ := output.New(o)
	stream := o.Format == "jsonl" && o.JQ == "" && o.Template == ""
	ios := fac.IO
	asJSON := ios.JSONErrors
	scrub := fac.Secrets()
	pctx := context.WithoutCancel(ctx) // the results are printed also after Ctrl-C
	// The lines of -o jsonl share one buffer, flushed by the printer a line
	// at a time (bufio.NewWriterSize takes a large enough bufio.Writer as is).
	lines := bufio.NewWriterSize(ios.Out, 64<<10)
	var done, failed, interrupted int
	written := []string{} // the databases whose line was printed
	var werr error
	status := func(s string) {
		if ios.ErrTTY {
			fmt.Fprintf(ios.ErrOut, "\r%s\x1b[K", s)
		}
	}
	printResult := func(r fleet.Result[*Result]) {
		if werr == nil {
			if werr = p.Print(pctx, lines, output.Document{Raw: resultJSON(r, scrub)}); werr == nil && r.Sent {
				written = append(written, r.DB.String())
			}
		}
	}
	results := fleet.Run(ctx, f.dbs, fleet.Options{Concurrency: f.Concurrency, FailFast: f.FailFast},
		func(ctx context.Context, db client.DatabaseName) (*Result, error) {
			r, err := fn(ctx, c, db)
			return &r, err
		},
		func(r fleet.Result[*Result]) bool {
			done++
			if errors.Is(r.Err, context.Canceled) {
				interrupted++
			} else if r.Err != nil {
				failed++
				if !asJSON {
					status("")
					exitcode.Write(ios.ErrOut, r.Err, false, false, scrub)
				}
			}
			if stream {
				printResult(r)
				r.Value.Doc = output.Document{} // printed: kept no longer
			}
			status(fmt.Sprintf("%d/%d databases, %d failed", done, len(f.dbs), failed))
			return werr == nil
		})
	status("")
	if !stream {
		// When tables or names are printed, a database whose answer cannot
		// give them (Doc.Invalid) has failed.
		for i, r := range results {
			if r.Sent && r.Err == nil && r.Value.Doc.Invalid != nil && o.ReadsTables() {
				results[i].Err = r.Value.Doc.Invalid
				exitcode.Write(ios.ErrOut, results[i].Err, asJSON, false, scrub)
			}
		}
		doc := document(results, scrub, o.ReadsTables())
		doc.Report = f.report(results, scrub)
		werr = p.Print(pctx, ios.Out, doc)
	}
	for _, r := range results {
		if stream && !r.Sent {
			printResult(r)
		}
	}
	if werr != nil {
		return unwritten(werr, results, written)
	}
	if summed.SummaryFile != "" {
		if err := output.AppendSummary(pctx, summed, output.Document{Report: f.report(results, scrub)}); err != nil {
			return err
		}
	}
	if n := len(f.dbs); ctx.Err() != nil {
		return &exitcode.IncompleteError{
			Err:    ctx.Err(),
			Lines:  []string{fmt.Sprintf("%d of %d databases sent, %d finished, %d not sent", done, n, done-interrupted, n-done)},
			Detail: map[string]int{"databases": n, "sent": done, "finished": done - interrupted, "notSent": n - done},
		}
	}
	code, summary := fleet.Outcome(results, func(r *Result) bool { return r.Differs })
	if code == exitcode.OK {
		return nil
	}
	return &exitcode.SilentError{Code: code, Message: summary}
}

// unwritten is the error of a run whose output failed with err: it says
// which databases were sent, which of their results were written (a line
// each of -o jsonl) and which not.
func unwritten(err error, results []fleet.Result[*Result], written []string) error {
	sent := 0
	lost := []string{} // sent, but their results not written
	for _, r := range results {
		if r.Sent {
			sent++
			if !slices.Contains(written, r.DB.String()) {
				lost = append(lost, r.DB.String())
			}
		}
	}
	n := len(results)
	lines := []string{fmt.Sprintf("%d of %d databases sent, %d not sent; the output failed after the results of %d", sent, n, n-sent, len(written))}
	if len(written) > 0 {
		lines = append(lines, "results written: "+strings.Join(written, ", "))
	}
	if len(lost) > 0 {
		lines = append(lines, "sent, results not written: "+strings.Join(lost, ", "))
	}
	detail := map[string]any{"databases": n, "sent": sent, "notSent": n - sent, "written": written, "notWritten": lost}
	return &exitcode.IncompleteError{Err: err, Lines: lines, Detail: detail}
}

// resultJSON is the JSON of one database's result: the response as sent,
// or the object of its JSON error line, scrubbed, or that it was never sent.
func resultJSON(r fleet.Result[*Result], scrub *secret.Scrubber) []byte {
	name, _ := json.Marshal(r.DB.String())
	switch {
	case !r.Sent:
		return fmt.Appendf(nil, `{"database":%s,"exitCode":%d,"sent":false}`, name, exitcode.Failure)
	case r.Err != nil:
		obj, code := exitcode.ErrorJSON(r.Err)
		e, _ := json.Marshal(obj)
		return fmt.Appendf(nil, `{"database":%s,"exitCode":%d,"error":%s}`, name, code, scrub.String(string(e)))
	}
	return fmt.Appendf(nil, `{"database":%s,"exitCode":0,"response":%s}`, name, r.Value.Doc.Raw)
}

// report returns the Report of a run: a Case for each database, with what
// failed scrubbed of credentials.
func (f *Flags) report(results []fleet.Result[*Result], scrub *secret.Scrubber) *output.Report {
	r := &output.Report{Title: f.cmd.CommandPath()}
	for _, res := range results {
		c := output.Case{Name: res.DB.Instance + "/" + res.DB.Database, Result: output.Succeeded}
		switch {
		case !res.Sent:
			c.Result = output.NotSent
		case res.Err != nil:
			c.Result = output.Failed
			c.Detail = scrub.String(exitcode.Classify(res.Err).Message)
			c.Failure = true
		case res.Value.Changes != "":
			lines := strings.FieldsFunc(res.Value.Changes, func(r rune) bool { return r == '\n' })
			c.Result = output.Differs
			c.Detail = lines[0]
			c.Changes = strings.TrimRight(res.Value.Changes, "\n")
			c.Failure = res.Value.Differs
			if len(lines) > 1 {
				c.Detail += fmt.Sprintf(" (%d lines)", len(lines))
			}
		}
		r.Cases = append(r.Cases, c)
	}
	return r
}

// document returns the Document of a run: its Raw is {"results": [...]},
// its Names those of every database's document, and, when tables is set,
// its Tables theirs joined, each row led by its database (I/D); a database's
// text, a diff, gives one row a line.
func document(results []fleet.Result[*Result], scrub *secret.Scrubber, tables bool) output.Document {
	doc := output.Document{Names: []string{}, Tables: []output.Table{}}
	raw := []byte(`{"results":[`)
	for i, r := range results {
		if i > 0 {
			raw = append(raw, ',')
		}
		raw = append(raw, resultJSON(r, scrub)...)
		if !r.Sent || r.Err != nil {
			continue
		}
		d := r.Value.Doc
		doc.Names = append(doc.Names, d.Names...)
		if !tables {
			continue
		}
		db := r.DB.Instance + "/" + r.DB.Database
		ts := d.Tables
		if d.Text != nil {
			ts = []output.Table{{Headers: []string{"DIFF"}}}
			for _, l := range strings.Split(*d.Text, "\n") {
				if l != "" {
					ts[0].Rows = append(ts[0].Rows, []string{l})
				}
			}
		}
		for k, t := range ts {
			if k == len(doc.Tables) {
				// DATABASE is never dropped nor cut.
				doc.Tables = append(doc.Tables, output.Table{
					Headers: append([]string{"DATABASE"}, t.Headers...),
					Fit:     append([]output.Fit{{}}, t.Fit...),
				})
			}
			if err := t.EachRow(func(cells []string) bool {
				doc.Tables[k].Rows = append(doc.Tables[k].Rows, append([]string{db}, cells...))
				doc.Tables[k].Unders = append(doc.Tables[k].Unders, t.Under) // names relative to their own database
				return true
			}); err != nil {
				doc.Invalid = err
			}
		}
	}
	doc.Raw = append(raw, "]}"...)
	return doc
}
