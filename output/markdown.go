package output

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/dbgov/dbgov/internal/safefile"
	"github.com/dbgov/dbgov/internal/textsafe"
)

// markdownPrinter prints the tables of a document as Markdown tables
// (-o markdown), for a CI system's step summary: values as the service sent
// them, each cell escaped so that it stays one cell. A text prints as a
// fenced code block, a document without tables as its JSON in one.
type markdownPrinter struct{ opts Options }

// Print prints doc as Markdown.
func (p markdownPrinter) Print(ctx context.Context, w io.Writer, doc Document) error {
	if doc.Report != nil {
		return p.report(ctx, w, doc.Report)
	}
	if doc.Text != nil || doc.Tables == nil {
		return p.fenced(ctx, w, doc)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	err := printTables(bw, doc.Tables, false, func(t Table) error {
		rows, err := t.cells(func(_, _ int, c string) string { return markdownCell(c) })
		if err != nil {
			return err
		}
		headers := make([]string, len(t.Headers))
		for i, h := range t.Headers {
			headers[i] = markdownCell(h)
		}
		cell := tw.CellConfig{Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone}}
		return layTable(bw, renderer.NewMarkdown(), cell, tw.CellWidth{}, headers, rows)
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write Markdown: %w", err)
	}
	return nil
}

// summarized is what New returns with --summary-file: it prints to stdout,
// then appends the Markdown of what it printed to the summary file.
type summarized struct {
	Printer
	opts Options
}

// Print prints doc to w, then appends its Markdown to the summary file; the
// items of a list given page by page are kept as they are printed, for the
// summary, rather than asked for again.
func (s summarized) Print(ctx context.Context, w io.Writer, doc Document) error {
	var all []json.RawMessage
	summary := doc
	if items := doc.Items; items != nil {
		doc.Items = func(page func(string, []json.RawMessage) error) error {
			return items(func(field string, p []json.RawMessage) error { all = append(all, p...); return page(field, p) })
		}
		summary.Items = func(page func(string, []json.RawMessage) error) error { return page(doc.ListField, all) }
	}
	if err := s.Printer.Print(ctx, w, doc); err != nil {
		return err
	}
	return AppendSummary(ctx, s.opts, summary)
}

// AppendSummary appends the Markdown of doc, and a blank line that ends it,
// to opts.SummaryFile (--summary-file), which is made when missing.
func AppendSummary(ctx context.Context, opts Options, doc Document) error {
	var b bytes.Buffer
	err := checked{markdownPrinter{opts}}.Print(ctx, &b, doc)
	if err == nil && b.Len() > 0 {
		b.WriteByte('\n')
		err = safefile.Append(opts.SummaryFile, b.Bytes())
	}
	if err != nil {
		return fmt.Errorf("write the summary to %s: %w", opts.SummaryFile, err)
	}
	return nil
}

// report prints r: a summary line ("118 of 120 databases succeeded, 2
// differ"), a table of the databases, and the changes of each database that
// differs in a collapsed <details> block.
func (p markdownPrinter) report(ctx context.Context, w io.Writer, r *Report) error {
	var b bytes.Buffer
	counts := map[string]int{}
	t := Table{Headers: []string{"DATABASE", "RESULT", "DETAIL"}}
	for _, c := range r.Cases {
		counts[c.Result]++
		t.Rows = append(t.Rows, []string{c.Name, c.Result, c.Detail})
	}
	fmt.Fprintf(&b, "%d of %d databases succeeded", counts[Succeeded], len(r.Cases))
	if n := counts[Differs]; n == 1 {
		b.WriteString(", 1 differs")
	} else if n > 1 {
		fmt.Fprintf(&b, ", %d differ", n)
	}
	for _, k := range []string{Failed, NotSent} {
		if n := counts[k]; n > 0 {
			fmt.Fprintf(&b, ", %d %s", n, k)
		}
	}
	b.WriteString("\n\n")
	if err := p.Print(ctx, &b, Document{Tables: []Table{t}}); err != nil {
		return err
	}
	for _, c := range r.Cases {
		if c.Changes != "" {
			fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", html.EscapeString(textsafe.Line(c.Name)))
			if err := p.fenced(ctx, &b, Document{Text: &c.Changes}); err != nil {
				return err
			}
			b.WriteString("\n</details>\n")
		}
	}
	if _, err := b.WriteTo(w); err != nil {
		return fmt.Errorf("write Markdown: %w", err)
	}
	return nil
}

// fenced prints the text of doc, or its JSON, in a fenced code block
// (```diff for a diff), nothing for an empty text.
func (p markdownPrinter) fenced(ctx context.Context, w io.Writer, doc Document) error {
	var body strings.Builder
	info := "json"
	if doc.Text != nil {
		body.WriteString(*doc.Text)
		info = ""
		if doc.Diff {
			info = "diff"
		}
	} else if err := (jsonPrinter{style: style{mask: !p.opts.ShowSecrets}}).Print(ctx, &body, doc); err != nil {
		return err
	}
	text := strings.TrimSuffix(body.String(), "\n")
	if text == "" {
		return nil
	}
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	if _, err := fmt.Fprintf(w, "%s%s\n%s\n%s\n", fence, info, text, fence); err != nil {
		return fmt.Errorf("write Markdown: %w", err)
	}
	return nil
}

// markdownCell is s as one cell of a Markdown table: line breaks as <br>,
// other control characters escaped, backslashes and pipes escaped.
func markdownCell(s string) string {
	s = strings.NewReplacer("\r\n", "<br>", "\n", "<br>", "\r", "<br>").Replace(s)
	return strings.NewReplacer(`\`, `\\`, "|", `\|`).Replace(textsafe.Line(s))
}
