// Package output prints the results of dbgov commands: tables for people,
// and JSON, YAML, names, jq results or templates for scripts. The format is
// chosen once from the flags (New); every printer then has one method.
package output

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// ErrInvalidOptions is wrapped by the errors of New: an unknown format,
// --jq together with --template, a jq expression or a template that does
// not compile. Commands map it to the usage exit code.
var ErrInvalidOptions = exitcode.NewUsage(errors.New("invalid output options"))

// FilterError is an error of the --jq expression or the --template itself:
// it does not compile, or fails on the document.
type FilterError struct{ Err error }

// Error returns the message of the error met.
func (e FilterError) Error() string { return e.Err.Error() }

// Unwrap returns the error met.
func (e FilterError) Unwrap() error { return e.Err }

// ErrorHint says where the expression runs, for the report of the error.
func (e FilterError) ErrorHint() string {
	return "--jq and --template run on the document -o json prints; `dbgov help formatting` describes them"
}

// Formats are the values -o accepts, the default first.
var Formats = []string{"table", "json", "yaml", "name", "wide", "jsonl", "markdown", "junit"}

// Options are the output flags: -o, --jq, --template, --no-headers,
// --show-secrets, --color, and what is known about stdout.
type Options struct {
	Format      string    // "table" (also when ""), "wide", "json", "yaml", "name", "jsonl", "markdown", "junit"
	JQ          string    // --jq: when set, overrides Format
	Template    string    // --template: when set, overrides Format
	NoHeaders   bool      // tables without the header row
	ShowSecrets bool      // print secret fields as the service sent them
	TTY         bool      // stdout is a terminal: tables but -o wide are for people
	Width       int       // terminal width when TTY (0 = unknown): tables fit in it
	Color       bool      // colour: headers bold, DELETED red, diff lines green and red
	Now         time.Time // when ages are counted to (zero: the current time)
	HiddenEnv   []string  // environment variables --jq does not see: those holding credentials
	// FormatIsDefault marks a Format from the environment or the config
	// file, not -o: a default "name" gives way to a table for results that
	// name no resource.
	FormatIsDefault bool
	// Reports says that the command gives a Report, which -o junit prints.
	Reports bool
	// SummaryFile is --summary-file: the Markdown of each document printed
	// is appended to it too; "" for none.
	SummaryFile string
}

// Table is one table of a document, for people.
type Table struct {
	Headers []string   // the column headers, shown unless --no-headers
	Fit     []Fit      // how each column gives way on a terminal
	Under   string     // where a Name column's names are ("users/"): left out on a terminal
	Unders  []string   // when set, the Under of each row: a table of many databases
	Rows    [][]string // the cells of each row, when Each is nil
	// Each, when not nil, gives the rows instead of Rows, one at a time,
	// until yield returns false, the same rows each time the printer calls
	// it (twice), in a slice it may reuse. Its error (the answer does not
	// decode) ends printing before any of the table is written.
	Each func(yield func(row []string) bool) error
}

// Document is one result to print, finished before printing: its tables,
// names and text are made, and whether they could be (Invalid) is known.
type Document struct {
	// Raw is the JSON body exactly as the service sent it.
	Raw []byte
	// Items, when not nil, gives the items of the list ListField page by
	// page in place of Raw: the document is {ListField: [items...]}.
	Items Items
	page  func([]json.RawMessage) (Document, error) // the names and tables of a page of Items
	// OneResult says that the list of Items is one command's result, not
	// a listing: -o jsonl prints it on one line, and a table lays it out
	// whole, as if it had come at once.
	OneResult bool
	// ListField names the list of a list response ("users", "policies",
	// ...). It is always present in json, yaml, jq and template output,
	// as [] when the service omitted it.
	ListField string
	// Tables are the tables of table, wide and markdown output, separated
	// by one blank line; nil when the result has none: its JSON is printed.
	Tables []Table
	// Names are the lines of -o name, one resource name each; nil when the
	// result names no resource.
	Names []string
	// Text, when not nil, is printed as is in table mode instead of Tables
	// (control characters other than newline and tab escaped); nothing is
	// printed when it is empty.
	Text *string
	Diff bool // Text is a diff: in colour, lines starting with + green, - red, ~ yellow
	// Invalid, when set, says why Raw gave no Tables or Names (it is not
	// what it should be): the formats that print them fail with it before
	// printing anything, the others print Raw.
	Invalid error
	// Report, when set, is what -o markdown prints instead of Tables: the
	// result of each database of a run over many.
	Report *Report
}

// Report is a run over many databases as a CI system shows it: a summary
// line and a table in Markdown, a test case a database in JUnit XML.
type Report struct {
	Title string // the command run ("dbgov schema diff"): the JUnit suite
	Cases []Case // the databases, in the order of the run
}

// The results of a Case.
const (
	// Succeeded is a database whose request succeeded, with nothing to tell.
	Succeeded = "succeeded"
	// Differs is a database that differs from the file or schema given.
	Differs = "differs"
	// Failed is a database whose request failed.
	Failed = "failed"
	// NotSent is a database the run stopped before.
	NotSent = "not sent"
)

// Case is one database of a Report.
type Case struct {
	Name    string // the database, as I/D
	Result  string // Succeeded, Differs, Failed or NotSent
	Detail  string // what failed, or the first line of what differs
	Changes string // the differences found, no line break after; "" for none
	Failure bool   // a failure of JUnit: it failed, or differs under --exit-code
}

// ReadsTables reports whether the output opts choose prints a document's
// Tables or Names (table, wide, markdown, name, or a summary file) rather
// than its JSON.
func (o Options) ReadsTables() bool {
	return o.SummaryFile != "" || o.JQ == "" && o.Template == "" && !slices.Contains([]string{"json", "jsonl", "yaml"}, o.Format)
}

// Printer prints documents in the format chosen by New.
type Printer interface {
	// Print prints doc to w; it stops with the context's cause once ctx is done.
	Print(ctx context.Context, w io.Writer, doc Document) error
}

// New chooses the printer for opts. Its errors wrap ErrInvalidOptions.
func New(opts Options) (Printer, error) {
	p, err := newPrinter(opts)
	if err != nil {
		return nil, err
	}
	if opts.SummaryFile != "" {
		return summarized{checked{p}, opts}, nil
	}
	return checked{p}, nil
}

// newPrinter returns the printer of the format opts choose, without the
// checks and the summary file New adds around it.
func newPrinter(opts Options) (Printer, error) {
	if opts.Format != "" && !slices.Contains(Formats, opts.Format) {
		return nil, fmt.Errorf("%w: unknown output format %q: use one of %s",
			ErrInvalidOptions, opts.Format, strings.Join(Formats, ", "))
	}
	s := style{mask: !opts.ShowSecrets, tty: opts.TTY}
	switch {
	case opts.JQ != "" && opts.Template != "":
		return nil, fmt.Errorf("%w: --jq and --template cannot be used together", ErrInvalidOptions)
	case opts.JQ != "":
		return newJQPrinter(opts.JQ, s, opts.HiddenEnv)
	case opts.Template != "":
		return newTemplatePrinter(opts.Template, s)
	}
	switch opts.Format {
	case "json", "jsonl":
		return jsonPrinter{s, opts.Format == "jsonl"}, nil
	case "yaml":
		return yamlPrinter{s}, nil
	case "markdown":
		return markdownPrinter{opts}, nil
	case "junit":
		if opts.Reports {
			return junitPrinter{}, nil
		}
		if !opts.FormatIsDefault { // from DBGOV_OUTPUT or the config file, a table instead
			return nil, fmt.Errorf("%w: -o junit is for runs over many databases (--databases-from) and diffs", ErrInvalidOptions)
		}
		return tablePrinter{opts: opts}, nil
	case "name":
		if opts.FormatIsDefault {
			return namePrinter{fallback: tablePrinter{opts: opts}}, nil
		}
		return namePrinter{}, nil
	default:
		return tablePrinter{opts: opts}, nil
	}
}

// Style is an SGR style of the terminal.
type Style string

const (
	// Bold is for the header of a table.
	Bold Style = "1"
	// Dim is for hints.
	Dim Style = "2"
	// Red is for DELETED, errors and removed lines.
	Red Style = "31"
	// Green is for added lines.
	Green Style = "32"
	// Yellow is for changed lines.
	Yellow Style = "33"
)

// Paint returns text in style when on (colour is wanted where it goes).
func Paint(on bool, style Style, text string) string {
	if !on || text == "" {
		return text
	}
	return "\x1b[" + string(style) + "m" + text + "\x1b[0m"
}
