package output

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/ll"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/tw"
)

// Column declares one column of a resource's table: its header and how to
// get the cell from a value.
type Column[T any] struct {
	// Header is the column's header.
	Header string
	// Value gives the cell of one item.
	Value func(T) string
}

// TableOf declares the table of items: one row per item, one cell per
// column. The rows are not built here: the printer asks for them one at a
// time (twice, to measure the columns and then to write them), so a table
// of 100,000 items is never held whole.
func TableOf[T any](items []T, cols []Column[T]) Table {
	t := Table{Headers: make([]string, len(cols))}
	for i, c := range cols {
		t.Headers[i] = c.Header
	}
	t.Each = func(yield func([]string) bool) error {
		row := make([]string, len(cols))
		for _, item := range items {
			for i, c := range cols {
				row[i] = c.Value(item)
			}
			if !yield(row) {
				break
			}
		}
		return nil
	}
	return t
}

// each calls yield with the rows of t, Each's when set, else Rows, until
// yield returns false.
func (t Table) each(yield func([]string) bool) error {
	if t.Each != nil {
		return t.Each(yield)
	}
	for _, row := range t.Rows {
		if !yield(row) {
			break
		}
	}
	return nil
}

// columnGap separates the columns of a table.
const columnGap = "   "

// minTruncatedWidth is the narrowest a column is cut to when a table is
// fitted to the terminal (a header wider than that is never cut).
const minTruncatedWidth = 10

// tablePrinter prints tables kubectl-style: plain left-aligned columns, no
// borders, cells with control characters escaped.
type tablePrinter struct {
	opts Options
}

// Print prints the tables of doc, or its text, or its JSON when it has neither.
func (p tablePrinter) Print(w io.Writer, doc Document) error {
	if doc.Text != nil {
		return printText(w, doc.Text(), p.opts.TTY)
	}
	if doc.Tables == nil {
		return jsonPrinter{mask: !p.opts.ShowSecrets}.Print(w, doc)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	printed := false
	for _, t := range doc.Tables() {
		blank, err := p.blank(t)
		if err != nil {
			return err
		}
		if blank {
			continue
		}
		if printed {
			bw.WriteByte('\n')
		}
		if err := p.render(bw, t); err != nil {
			return err
		}
		printed = true
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// printText prints text as is, ending in a newline; nothing when text is
// empty. On a terminal, control characters other than newline and tab are
// escaped so that the text cannot drive it; piped (a diff written to a file,
// say) the text is the service's exactly.
func printText(w io.Writer, text string, tty bool) error {
	if text == "" {
		return nil
	}
	if tty {
		text = escapeText(text)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if _, err := io.WriteString(w, text); err != nil {
		return fmt.Errorf("write text: %w", err)
	}
	return nil
}

// blank reports whether t prints nothing: no rows, and no header row to
// show.
func (p tablePrinter) blank(t Table) (bool, error) {
	if !p.opts.NoHeaders && len(t.Headers) > 0 {
		return false, nil
	}
	blank := true
	err := t.each(func(row []string) bool {
		blank = len(row) == 0
		return blank
	})
	return blank, err
}

// render prints one table that is not blank: laid out by tablewriter on a
// terminal, streamed when piped.
func (p tablePrinter) render(w *bufio.Writer, t Table) error {
	if !p.opts.TTY {
		return p.stream(w, t)
	}
	ncols := len(t.Headers)
	var rows [][]string
	err := t.each(func(row []string) bool {
		ncols = max(ncols, len(row))
		rows = append(rows, escapeRow(row, len(row)))
		return true
	})
	if err != nil {
		return err
	}
	for i, row := range rows {
		if len(row) < ncols {
			rows[i] = append(row, make([]string, ncols-len(row))...)
		}
	}
	showHeaders := !p.opts.NoHeaders && len(t.Headers) > 0
	var headers []string
	if showHeaders {
		headers = escapeRow(t.Headers, ncols)
	}
	if p.opts.Width > 0 {
		fitWidth(headers, rows, ncols, p.opts.Width)
	}

	cell := tw.CellConfig{
		Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
		Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
		Padding:    tw.CellPadding{Global: tw.PaddingNone},
	}
	table := tablewriter.NewTable(w,
		tablewriter.WithRenderer(&plainRenderer{bold: p.opts.TTY && p.opts.Color}),
		tablewriter.WithConfig(tablewriter.Config{
			Header:   cell,
			Row:      cell,
			Footer:   cell,
			Behavior: tw.Behavior{TrimSpace: tw.Off, TrimLine: tw.Off, TrimTab: tw.Off},
		}),
	)
	if showHeaders {
		table.Header(headers)
	}
	if err := table.Bulk(rows); err != nil {
		return fmt.Errorf("lay out table: %w", err)
	}
	if err := table.Render(); err != nil {
		return fmt.Errorf("render table: %w", err)
	}
	return nil
}

// stream prints a table for a pipe or a file, where it is never cut to a
// width: one pass over the rows measures the columns, a second writes each
// line. Rows are neither kept nor copied, so the table costs no memory
// beyond one line, whatever its length.
//
// tablewriter lays out every row through its own cell pipeline: about 75
// allocations a row in a bulk render and twice that in its streaming mode,
// seconds for the 105,000 rows of a large catalog. The lines written here
// are the ones its layout gives with this package's renderer: columns as
// wide as their widest cell (measured with tablewriter's width function),
// columnGap between them, no spaces at the end of a line.
func (p tablePrinter) stream(w *bufio.Writer, t Table) error {
	showHeaders := !p.opts.NoHeaders && len(t.Headers) > 0
	var widths []int
	measure := func(row []string) {
		for len(widths) < len(row) {
			widths = append(widths, 0)
		}
		for i, c := range row {
			widths[i] = max(widths[i], escapedWidth(c))
		}
	}
	if showHeaders {
		measure(t.Headers)
	} else {
		widths = make([]int, len(t.Headers))
	}
	err := t.each(func(row []string) bool {
		measure(row)
		return true
	})
	if err != nil {
		return err
	}
	for i, w := range widths {
		widths[i] = max(w, 1) // as tablewriter sizes a column of empty cells
	}
	var line []byte
	if showHeaders {
		line = appendLine(line[:0], t.Headers, widths)
		w.Write(line)
	}
	return t.each(func(row []string) bool {
		line = appendLine(line[:0], row, widths)
		w.Write(line)
		return true
	})
}

// escapedWidth is the display width of cell once its control characters
// are escaped; it allocates only for a cell that needs escaping.
func escapedWidth(cell string) int {
	for i := 0; i < len(cell); i++ {
		c := cell[i]
		if c < 0x20 || c >= 0x7f {
			return cellWidth(EscapeControl(cell))
		}
	}
	return len(cell)
}

// appendLine appends the line of one row to line: each cell escaped and
// left-aligned in its column's width, columnGap between columns, no spaces
// at the end, a newline.
func appendLine(line []byte, cells []string, widths []int) []byte {
	pad := 0
	for i := range widths {
		if i > 0 {
			pad += len(columnGap)
		}
		c := ""
		if i < len(cells) {
			c = EscapeControl(cells[i])
		}
		if c != "" {
			for ; pad > 0; pad-- {
				line = append(line, ' ')
			}
			line = append(line, c...)
		}
		pad += widths[i] - cellWidth(c)
	}
	// A cell ending in spaces must not leave them at the end of the line.
	for len(line) > 0 && line[len(line)-1] == ' ' {
		line = line[:len(line)-1]
	}
	return append(line, '\n')
}

// escapeRow returns the cells of row with control characters escaped,
// padded with empty cells to ncols.
func escapeRow(row []string, ncols int) []string {
	out := make([]string, ncols)
	for i, cell := range row {
		out[i] = EscapeControl(cell)
	}
	return out
}

// fitWidth fits the table in width by truncating, with "…", the cells of
// the widest columns. The first column is never cut: it names the rows,
// which would look alike cut. No other column is cut below its header (when
// there are headers) nor below minTruncatedWidth; a table that does not fit
// even then is cut that far and overflows. Headers may be nil.
func fitWidth(headers []string, rows [][]string, ncols, width int) {
	widths := make([]int, ncols)
	for i, h := range headers {
		widths[i] = cellWidth(h)
	}
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	total := len(columnGap) * (ncols - 1)
	for _, w := range widths {
		total += w
	}
	// floors[i] is as narrow as column i may be cut.
	floors := make([]int, ncols)
	for i, w := range widths {
		floor := minTruncatedWidth
		if headers != nil {
			floor = max(floor, cellWidth(headers[i]))
		}
		floors[i] = min(w, floor)
	}
	floors[0] = widths[0]
	limits := append([]int(nil), widths...)
	for excess := total - width; excess > 0; {
		// The widest column that may still be cut, and the width of the
		// next widest: cutting the widest down to it first keeps as much of
		// every column as can be kept.
		widest, next := -1, 0
		for i, w := range limits {
			if w <= floors[i] {
				continue
			}
			if widest < 0 || w > limits[widest] {
				if widest >= 0 {
					next = max(next, limits[widest])
				}
				widest = i
			} else {
				next = max(next, w)
			}
		}
		if widest < 0 {
			break // every column is as narrow as allowed: the table overflows
		}
		cut := min(excess, limits[widest]-floors[widest], max(limits[widest]-next, 1))
		limits[widest] -= cut
		excess -= cut
	}
	for i := range ncols {
		if limits[i] == widths[i] {
			continue
		}
		for _, row := range rows {
			row[i] = truncateCell(row[i], limits[i])
		}
		if headers != nil {
			headers[i] = truncateCell(headers[i], limits[i])
		}
	}
}

// truncateCell shortens s to at most width columns, ending in "…" when cut.
func truncateCell(s string, width int) string {
	if cellWidth(s) <= width {
		return s
	}
	const ellipsis = "…"
	cut := twwidth.Truncate(s, width-twwidth.Width(ellipsis))
	for cut != "" && cellWidth(cut)+twwidth.Width(ellipsis) > width {
		_, size := utf8.DecodeLastRuneInString(cut)
		cut = cut[:len(cut)-size]
	}
	return cut + ellipsis
}

// cellWidth is the display width of an escaped cell, as tablewriter
// measures it. tablewriter's own Width caches every string it measures,
// which costs an allocation per cell of a large table and saves nothing
// for cells that differ; WidthNoCache computes the same width without it.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return twwidth.WidthNoCache(s)
		}
	}
	return len(s)
}

// plainRenderer writes the rows tablewriter lays out as plain columns:
// each cell left-aligned in its column's width, columnGap between columns,
// nothing at the end of a line. Its own rendering (tablewriter's default
// renderer draws cell by cell through borders and junctions) is what makes
// 50,000-row tables fast enough.
type plainRenderer struct {
	w    io.Writer
	bold bool
	line []byte
}

// Start begins a table written to w.
func (r *plainRenderer) Start(w io.Writer) error {
	r.w = w
	return nil
}

// Header writes the header line, bold when asked.
func (r *plainRenderer) Header(headers [][]string, ctx tw.Formatting) {
	for _, h := range headers {
		r.writeLine(h, ctx, r.bold)
	}
}

// Row writes the line of one row.
func (r *plainRenderer) Row(row []string, ctx tw.Formatting) {
	r.writeLine(row, ctx, false)
}

func (r *plainRenderer) writeLine(cells []string, ctx tw.Formatting, bold bool) {
	r.line = r.line[:0]
	if bold {
		r.line = append(r.line, "\x1b[1m"...)
	}
	pad := 0
	for i, c := range cells {
		if i > 0 {
			pad += len(columnGap)
		}
		if c != "" {
			for ; pad > 0; pad-- {
				r.line = append(r.line, ' ')
			}
			r.line = append(r.line, c...)
		}
		pad += ctx.Row.Widths.Get(i) - cellWidth(c)
	}
	// A cell ending in spaces must not leave them at the end of the line.
	for n := len(r.line); n > 0 && r.line[n-1] == ' '; n-- {
		r.line = r.line[:n-1]
	}
	if bold {
		r.line = append(r.line, "\x1b[0m"...)
	}
	r.line = append(r.line, '\n')
	r.w.Write(r.line)
}

// Footer writes nothing: tables have no footer.
func (r *plainRenderer) Footer([][]string, tw.Formatting) {}

// Line writes nothing: tables have no separator lines.
func (r *plainRenderer) Line(tw.Formatting) {}

// Config tells tablewriter there are no borders, symbols or separators.
func (r *plainRenderer) Config() tw.Rendition {
	return tw.Rendition{
		Borders:  tw.BorderNone,
		Symbols:  tw.NewSymbols(tw.StyleNone),
		Settings: tw.Settings{Separators: tw.SeparatorsNone, Lines: tw.LinesNone},
	}
}

// Close ends a table; nothing is buffered.
func (r *plainRenderer) Close() error { return nil }

// Logger ignores tablewriter's logger: the renderer logs nothing.
func (r *plainRenderer) Logger(*ll.Logger) {}
