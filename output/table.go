package output

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/dbgov/dbgov/internal/textsafe"
)

// Kind says how a column's values are shown in a table fitted to a terminal.
type Kind int

const (
	// Text values are shown as they are.
	Text Kind = iota
	// Name values are resource names, shown without the table's Under.
	Name
	// Time values are RFC 3339 timestamps, shown as an age: 5m, 3d.
	Time
)

// Fit says how a column gives way in a table fitted to a terminal.
type Fit struct {
	Priority int  // the highest are dropped first; 0 is never dropped
	MinWidth int  // the narrowest its values and header are cut to, ending in …; 0: not cut
	Kind     Kind // how its values are shown
}

// Column declares one column of a resource's table: its header, its Fit
// (Priority, MinWidth, Kind), and how to get its value from an item.
type Column[T any] struct {
	Header   string
	Priority int
	MinWidth int
	Kind     Kind
	Value    func(*T) string
}

// List declares how the items of one resource print: the columns of their
// table and the name of each.
type List[T any] struct {
	Columns []Column[T]
	Name    func(*T) string
}

// Document returns the Document of items, decoded from the answer raw whose
// list is field ("" for a single item): raw, the items' names, and their
// table, with names shown relative to under.
func (l List[T]) Document(raw []byte, field string, items []T, under string) Document {
	t := TableOf(items, l.Columns)
	t.Under = under
	return Document{Raw: raw, ListField: field, Names: l.Names(items), Tables: []Table{t}}
}

// Names lists the names of items, for -o name.
func (l List[T]) Names(items []T) []string {
	names := make([]string, len(items))
	for i := range items {
		names[i] = l.Name(&items[i])
	}
	return names
}

// TableOf declares the table of items, one row each.
func TableOf[T any](items []T, cols []Column[T]) Table {
	return TableEach(cols, func(yield func(*T) bool) error {
		for i := range items {
			if !yield(&items[i]) {
				break
			}
		}
		return nil
	})
}

// TableEach declares the table of the items each gives, one row each, made
// as the printer asks (twice: to measure, then to write), never held whole.
func TableEach[T any](cols []Column[T], each func(yield func(*T) bool) error) Table {
	t := Table{Headers: make([]string, len(cols)), Fit: make([]Fit, len(cols))}
	for i, c := range cols {
		t.Headers[i] = c.Header
		t.Fit[i] = Fit{Priority: c.Priority, MinWidth: c.MinWidth, Kind: c.Kind}
	}
	t.Each = func(yield func([]string) bool) error {
		row := make([]string, len(cols))
		return each(func(item *T) bool {
			for i, c := range cols {
				row[i] = c.Value(item)
			}
			return yield(row)
		})
	}
	return t
}

// EachRow calls yield with the rows of t, Each's when set, else Rows, until
// yield returns false.
func (t Table) EachRow(yield func([]string) bool) error {
	if t.Each != nil {
		return t.Each(yield)
	}
	slices.Values(t.Rows)(yield)
	return nil
}

// fit is the Fit of column i, the zero Fit when none is declared.
func (t Table) fit(i int) (f Fit) {
	if i < len(t.Fit) {
		f = t.Fit[i]
	}
	return f
}

// columnGap separates the columns of a table.
const columnGap = "   "

// tablePrinter prints tables kubectl-style: plain left-aligned columns, no
// borders, cells with control characters escaped.
type tablePrinter struct{ opts Options }

// Print prints the tables of doc, or its text, or its JSON when it has
// neither. On a terminal, a note under the tables names the columns left
// out to fit.
func (p tablePrinter) Print(ctx context.Context, w io.Writer, doc Document) error {
	switch {
	case doc.Text != nil:
		return printText(w, *doc.Text, p.opts.TTY, doc.Diff && p.opts.Color)
	case doc.Tables == nil:
		return jsonPrinter{style: style{mask: !p.opts.ShowSecrets, tty: p.opts.TTY}}.Print(ctx, w, doc)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var hidden []string
	err := printTables(bw, doc.Tables, p.opts.NoHeaders, func(t Table) error {
		if !p.opts.TTY {
			return p.renderPiped(bw, t)
		}
		left, err := p.renderTerminal(bw, t)
		hidden = append(hidden, left...)
		return err
	})
	if err != nil {
		return err
	}
	if note := hiddenNote(hidden, p.opts.Width); note != "" {
		bw.WriteString(Paint(p.opts.Color, Dim, note) + "\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// hiddenNote returns the note that names the columns hidden, fitted to width
// (0: unknown): it only counts them when their names do not fit, and is cut
// when even that does not.
func hiddenNote(hidden []string, width int) string {
	n := len(hidden)
	if n == 0 {
		return ""
	}
	what := fmt.Sprintf("%d columns hidden", n)
	if n == 1 {
		what = "1 column hidden"
	}
	note := fmt.Sprintf("(%s: %s; -o wide shows every column)", what, strings.Join(hidden, ", "))
	if width > 0 && cellWidth(note) > width {
		note = fmt.Sprintf("(%s; -o wide shows every column)", what)
	}
	if width > 0 && cellWidth(note) > width {
		note = twwidth.Truncate(note, width-1) + "…"
	}
	return note
}

// printText prints text ending in a newline, nothing when it is empty; on a
// terminal with control characters but newline and tab escaped, piped as is.
// A diff in colour has its added lines green, its removed lines red and its
// changed lines yellow.
func printText(w io.Writer, text string, tty, diff bool) error {
	if text == "" {
		return nil
	}
	if tty {
		text = textsafe.Text(text)
	}
	if diff {
		lines := strings.Split(text, "\n")
		for i, line := range lines {
			if style, ok := diffStyles[line[:min(len(line), 1)]]; ok {
				lines[i] = Paint(true, style, line)
			}
		}
		text = strings.Join(lines, "\n")
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if _, err := io.WriteString(w, text); err != nil {
		return fmt.Errorf("write text: %w", err)
	}
	return nil
}

// diffStyles are the styles of the lines of a diff, by their first character.
var diffStyles = map[string]Style{"+": Green, "-": Red, "~": Yellow}

// printTables prints with render each of tables that shows anything, one
// blank line to w between two.
func printTables(w *bufio.Writer, tables []Table, noHeaders bool, render func(Table) error) error {
	printed := false
	for _, t := range tables {
		blank, err := t.blank(noHeaders)
		switch {
		case err != nil:
			return err
		case blank:
			continue
		case printed:
			w.WriteByte('\n')
		}
		if err := render(t); err != nil {
			return err
		}
		printed = true
	}
	return nil
}

// blank reports whether t prints nothing: no rows, and no header row to
// show (none, or noHeaders).
func (t Table) blank(noHeaders bool) (bool, error) {
	if !noHeaders && len(t.Headers) > 0 {
		return false, nil
	}
	blank := true
	err := t.EachRow(func(row []string) bool {
		blank = len(row) == 0
		return blank
	})
	return blank, err
}

// cells returns the rows of t, each cell replaced by show(r, i, cell), where
// r is the row's index and i the column's.
func (t Table) cells(show func(r, i int, cell string) string) ([][]string, error) {
	var rows [][]string
	err := t.EachRow(func(row []string) bool {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = show(len(rows), i, c)
		}
		rows = append(rows, cells)
		return true
	})
	return rows, err
}

// headers are the headers of t, nil under --no-headers.
func (p tablePrinter) headers(t Table) []string {
	if p.opts.NoHeaders || len(t.Headers) == 0 {
		return nil
	}
	return t.Headers
}

// renderPiped streams a table as the service sent its values, in two passes
// over its rows: one to measure the columns, one to write the lines.
func (p tablePrinter) renderPiped(w *bufio.Writer, t Table) error {
	headers := p.headers(t)
	widths := widen(nil, headers, textsafe.Line)
	measure := func(row []string) bool {
		widths = widen(widths, row, textsafe.Line)
		return true
	}
	if err := t.EachRow(measure); err != nil {
		return err
	}
	out := &lineWriter{w: w, widths: widths, color: p.opts.Color}
	if headers != nil {
		out.write(headers, true)
	}
	return t.EachRow(func(row []string) bool {
		out.write(row, false)
		return true
	})
}

// renderTerminal prints a table for people through tablewriter: names
// relative to the table's Under, timestamps as ages, and unless -o wide,
// fitted to the window (layOut). It returns the headers of the columns
// left out.
func (p tablePrinter) renderTerminal(w io.Writer, t Table) ([]string, error) {
	// Measure the cells as shown, then choose the columns that fit.
	now := cmp.Or(p.opts.Now, time.Now())
	headers := p.headers(t)
	widths := slices.Repeat([]int{1}, len(t.Headers))
	rows, err := t.cells(func(r, i int, c string) string { return t.show(r, i, c, now) })
	if err != nil {
		return nil, err
	}
	for _, row := range append(rows, headers) {
		widths = widen(widths, row, textsafe.Line) // the headers are not escaped yet
	}
	cols := make([]int, len(widths))
	for i := range cols {
		cols[i] = i
	}
	if p.opts.Format != "wide" && p.opts.Width > 0 {
		cols, widths = layOut(t, cols, widths, p.opts.Width)
	}
	var hidden []string
	for i, h := range t.Headers {
		if !slices.Contains(cols, i) {
			hidden = append(hidden, textsafe.Line(h))
		}
	}

	// Lay out the columns shown, painted, with tablewriter: each as wide as
	// chosen, columnGap after all but the last.
	perColumn := tw.NewMapper[int, int]()
	padding := make([]tw.Padding, len(cols))
	for k, width := range widths {
		padding[k] = tw.Padding{Right: columnGap, Overwrite: true}
		if k == len(cols)-1 {
			padding[k].Right = ""
		}
		perColumn.Set(k, width+twwidth.Width(padding[k].Right))
	}
	shown := func(row []string, paint func(string) string) []string {
		cells := make([]string, len(cols))
		for k, i := range cols {
			if i < len(row) {
				cells[k] = paint(row[i])
			}
		}
		return cells
	}
	if headers != nil {
		headers = shown(headers, func(h string) string { return Paint(p.opts.Color, Bold, textsafe.Line(h)) })
	}
	for r, row := range rows {
		rows[r] = shown(row, func(c string) string { return Paint(p.opts.Color && c == "DELETED", Red, c) })
	}
	plain := renderer.NewBlueprint(tw.Rendition{
		Borders:  tw.BorderNone,
		Symbols:  tw.NewSymbols(tw.StyleNone),
		Settings: tw.Settings{Lines: tw.LinesNone, Separators: tw.SeparatorsNone},
	})
	cell := tw.CellConfig{
		Formatting: tw.CellFormatting{AutoWrap: tw.WrapTruncate},
		Padding:    tw.CellPadding{PerColumn: padding},
	}
	var out strings.Builder
	if err := layTable(&out, plain, cell, tw.CellWidth{PerColumn: perColumn}, headers, rows); err != nil {
		return nil, err
	}
	// tablewriter pads the last column to its width: a line ends without it.
	for line := range strings.Lines(out.String()) {
		io.WriteString(w, strings.TrimRight(line, " \n"))
		io.WriteString(w, "\n")
	}
	return hidden, nil
}

// layTable lays out headers, unless nil, and rows with tablewriter's
// renderer r, to w: cells left-aligned as they are, in the widths given,
// wrapped and padded as cell says.
func layTable(w io.Writer, r tw.Renderer, cell tw.CellConfig, widths tw.CellWidth, headers []string, rows [][]string) error {
	cell.Formatting.AutoFormat = tw.Off
	cell.Alignment.Global = tw.AlignLeft
	table := tablewriter.NewTable(w, tablewriter.WithRenderer(r), tablewriter.WithConfig(tablewriter.Config{
		Header:   cell,
		Row:      cell,
		Widths:   widths,
		Behavior: tw.Behavior{TrimSpace: tw.Off},
	}))
	if headers != nil {
		table.Header(headers)
	}
	if err := table.Bulk(rows); err != nil {
		return fmt.Errorf("lay out table: %w", err)
	}
	return table.Render()
}

// widen widens widths, those of the columns of a table, to hold row, each
// cell as show shows it; a column of empty cells is one wide.
func widen(widths []int, row []string, show func(string) string) []int {
	for len(widths) < len(row) {
		widths = append(widths, 1)
	}
	for i, c := range row {
		widths[i] = max(widths[i], cellWidth(show(c)))
	}
	return widths
}

// show is the cell of column i of row r as people see it: escaped, a name
// relative to the row's Under, a timestamp as its age at now.
func (t Table) show(r, i int, cell string, now time.Time) string {
	cell = textsafe.Line(cell)
	switch t.fit(i).Kind {
	case Name:
		under := t.Under
		if r < len(t.Unders) {
			under = t.Unders[r]
		}
		if rel, ok := strings.CutPrefix(cell, under); ok && rel != "" {
			return rel
		}
	case Time:
		if at, err := time.Parse(time.RFC3339, cell); err == nil {
			return age(now.Sub(at))
		}
	}
	return cell
}

// layOut fits cols, the columns of a table, widths wide, in width, and
// returns the columns shown and their widths. While the table is too wide,
// the columns of the highest Priority are dropped, the rightmost first,
// unless cutting their values to their MinWidth is enough: no value is cut
// while a column of lower priority is shown. Names (Kind Name) are cut to
// their MinWidth too before a column is dropped, and only then. Columns of
// priority 0 that do not fit even so are cut further: no line is wider
// than width.
func layOut(t Table, cols, widths []int, width int) ([]int, []int) {
	for {
		// lowest is the lowest priority shown (the highest Priority), drop
		// the rightmost column of it.
		lowest, drop := 0, 0
		for k, i := range cols {
			if p := t.fit(i).Priority; p >= lowest {
				lowest, drop = p, k
			}
		}
		// The widths of the columns shown and the table's: as they are, with
		// the lowest priority cut, and with the names cut as well.
		shown, total := t.cutWidths(cols, widths, func(Fit) bool { return false })
		floors, need := t.cutWidths(cols, widths, func(f Fit) bool { return f.Priority == lowest })
		namesCut, needNamesCut := t.cutWidths(cols, widths, func(f Fit) bool { return f.Priority == lowest || f.Kind == Name })
		if total > width && needNamesCut > width && lowest > 0 && len(cols) > 1 {
			cols = slices.Delete(cols, drop, drop+1)
			continue
		}
		if need > width {
			floors, need = namesCut, needNamesCut
		}
		shrink(shown, floors, total-width)
		if need > width {
			shrink(shown, slices.Repeat([]int{1}, len(cols)), need-width)
		}
		return cols, shown
	}
}

// cutWidths returns the widths of cols, those of cut's choice cut to their
// MinWidth, and the width of the table they make, gaps included.
func (t Table) cutWidths(cols, widths []int, cut func(Fit) bool) ([]int, int) {
	out := make([]int, len(cols))
	total := len(columnGap) * (len(cols) - 1)
	for k, i := range cols {
		out[k] = widths[i]
		if f := t.fit(i); f.MinWidth > 0 && cut(f) {
			out[k] = min(widths[i], f.MinWidth)
		}
		total += out[k]
	}
	return out, total
}

// shrink narrows widths by excess, none below its floor, a column at a
// time, the widest first, so that as much of every column is kept as can be.
func shrink(widths, floors []int, excess int) {
	for ; excess > 0; excess-- {
		widest := -1
		for i, w := range widths {
			if w > floors[i] && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return
		}
		widths[widest]--
	}
}

// age shows d as kubectl shows ages: in seconds up to two minutes, then in
// the two largest units while the larger is small (5m30s, 3h20m, 2d4h,
// 3y20d), in one after (45m, 15h, 30d, 9y).
func age(d time.Duration) string {
	s := max(int(d/time.Second), 0)
	m, h, days := s/60, s/3600, s/86400
	switch years := days / 365; {
	case s < 120:
		return fmt.Sprintf("%ds", s)
	case m < 10 && s%60 > 0:
		return fmt.Sprintf("%dm%ds", m, s%60)
	case m < 180:
		return fmt.Sprintf("%dm", m)
	case h < 8 && m%60 > 0:
		return fmt.Sprintf("%dh%dm", h, m%60)
	case h < 48:
		return fmt.Sprintf("%dh", h)
	case h < 8*24 && h%24 > 0:
		return fmt.Sprintf("%dd%dh", days, h%24)
	case years < 2:
		return fmt.Sprintf("%dd", days)
	case years < 8 && days%365 > 0:
		return fmt.Sprintf("%dy%dd", years, days%365)
	default:
		return fmt.Sprintf("%dy", years)
	}
}

// cellWidth is the display width of an escaped cell, as tablewriter
// counts it.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return twwidth.Width(s)
		}
	}
	return len(s)
}

// lineWriter writes the lines of a piped table: each cell left-aligned in
// its column's width, columnGap between columns, no spaces at the end of a
// line; in colour (--color always), the header bold and DELETED red.
type lineWriter struct {
	w      io.Writer
	widths []int
	color  bool
	line   []byte
}

// write writes one line of cells, the header's when header.
func (l *lineWriter) write(cells []string, header bool) {
	line := l.line[:0]
	pad := 0 // the spaces owed before the next cell
	for i, c := range cells {
		c = textsafe.Line(c)
		if i > 0 {
			pad += len(columnGap)
		}
		if c != "" {
			for ; pad > 0; pad-- {
				line = append(line, ' ')
			}
			line = append(line, Paint(l.color && !header && c == "DELETED", Red, c)...)
		}
		pad += l.widths[i] - cellWidth(c)
	}
	// A cell ending in spaces must not leave them at the end of the line.
	for n := len(line); n > 0 && line[n-1] == ' '; n-- {
		line = line[:n-1]
	}
	if header && l.color {
		line = append(line[:0], Paint(true, Bold, string(line))...)
	}
	l.line = append(line, '\n')
	l.w.Write(l.line)
}
