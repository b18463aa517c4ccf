package output

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/ll"
	"github.com/olekukonko/tablewriter"
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

// Table is the table of items, their names shown relative to under.
func (l List[T]) Table(items []T, under string) Table {
	t := TableOf(items, l.Columns)
	t.Under = under
	return t
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
		t.Headers[i], t.Fit[i] = c.Header, Fit{c.Priority, c.MinWidth, c.Kind}
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
type tablePrinter struct {
	opts Options
}

// Print prints the tables of doc, or its text, or its JSON when it has neither.
func (p tablePrinter) Print(ctx context.Context, w io.Writer, doc Document) error {
	if doc.Text != nil {
		return printText(w, doc.Text(), p.opts.TTY, doc.Diff && p.opts.Color)
	}
	if doc.Tables == nil {
		return jsonPrinter{style: style{mask: !p.opts.ShowSecrets, tty: p.opts.TTY}}.Print(ctx, w, doc)
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

// printText prints text ending in a newline, nothing when it is empty; on a
// terminal with control characters but newline and tab escaped, piped as is.
// A diff in colour has its added lines green and its removed lines red.
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
			lines[i] = Paint(strings.HasPrefix(line, "-"), Red, Paint(strings.HasPrefix(line, "+"), Green, line))
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

// blank reports whether t prints nothing: no rows, and no header row to show.
func (p tablePrinter) blank(t Table) (bool, error) {
	if !p.opts.NoHeaders && len(t.Headers) > 0 {
		return false, nil
	}
	blank := true
	err := t.EachRow(func(row []string) bool {
		blank = len(row) == 0
		return blank
	})
	return blank, err
}

// render prints a table in two passes over its rows, one to lay out the
// columns and one to write, through tablewriter on a terminal (for people
// unless -o wide: relative names, ages, fitted by layOut), straight out when
// piped: tablewriter's 90 allocations a row cost 330 MB for 50,000 users.
func (p tablePrinter) render(w *bufio.Writer, t Table) error {
	forPeople := p.opts.TTY && p.opts.Format != "wide"
	now := cmp.Or(p.opts.Now, time.Now())
	show := func(i int, cell string) string {
		cell = textsafe.Line(cell)
		if !forPeople {
			return cell
		}
		switch t.fit(i).Kind {
		case Name:
			if rel, ok := strings.CutPrefix(cell, t.Under); ok && rel != "" {
				return rel
			}
		case Time:
			if at, err := time.Parse(time.RFC3339, cell); err == nil {
				return age(now.Sub(at))
			}
		}
		return cell
	}

	header := func(_ int, cell string) string { return textsafe.Line(cell) }
	headers := !p.opts.NoHeaders && len(t.Headers) > 0
	widths := make([]int, len(t.Headers))
	measure := func(row []string, show func(int, string) string) bool {
		for len(widths) < len(row) {
			widths = append(widths, 0)
		}
		for i, c := range row {
			widths[i] = max(widths[i], cellWidth(show(i, c)))
		}
		return true
	}
	if headers {
		measure(t.Headers, header)
	}
	if err := t.EachRow(func(row []string) bool { return measure(row, show) }); err != nil {
		return err
	}
	cols := make([]int, len(widths))
	for i, w := range widths {
		cols[i], widths[i] = i, max(w, 1) // as tablewriter sizes a column of empty cells
	}
	if forPeople && p.opts.Width > 0 {
		cols, widths = layOut(t, cols, widths, p.opts.Width)
	}

	cells := make([]string, len(cols))
	line := func(row []string, show func(int, string) string) []string {
		for k, i := range cols {
			c := ""
			if i < len(row) {
				c = show(i, row[i])
			}
			if forPeople && cellWidth(c) > widths[k] {
				c = cut(c, widths[k])
			}
			cells[k] = c
		}
		return cells
	}
	out := &lineWriter{w: w, widths: widths, color: p.opts.Color}
	if !p.opts.TTY {
		if headers {
			out.write(line(t.Headers, header), true)
		}
		return t.EachRow(func(row []string) bool { out.write(line(row, show), false); return true })
	}

	perColumn := tw.NewMapper[int, int]()
	for k, w := range widths {
		perColumn.Set(k, w)
	}
	cell := tw.CellConfig{ // cells come escaped and cut to fit
		Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapTruncate},
		Padding:    tw.CellPadding{Global: tw.PaddingNone},
	}
	table := tablewriter.NewTable(w, tablewriter.WithRenderer(out), tablewriter.WithConfig(tablewriter.Config{
		Header: cell, Row: cell, Widths: tw.CellWidth{PerColumn: perColumn},
		Stream: tw.StreamConfig{Enable: true}, Behavior: tw.Behavior{TrimSpace: tw.Off},
	}))
	if err := table.Start(); err != nil {
		return fmt.Errorf("lay out table: %w", err)
	}
	if headers {
		table.Header(line(t.Headers, header))
	}
	var appendErr error
	err := t.EachRow(func(row []string) bool { appendErr = table.Append(line(row, show)); return appendErr == nil })
	return errors.Join(err, appendErr, table.Close())
}

// layOut fits cols, the columns of a table, widths wide, in width, and
// returns the columns shown and their widths. While the table is too wide,
// the columns of the highest Priority are dropped, the rightmost first,
// unless cutting their values to their MinWidth is enough: no value is cut
// while a column of lower priority is shown. Columns of priority 0 that do
// not fit even so are cut further: no line is wider than width.
func layOut(t Table, cols, widths []int, width int) ([]int, []int) {
	for {
		lowest, drop := 0, 0
		for k, i := range cols {
			if p := t.fit(i).Priority; p >= lowest {
				lowest, drop = p, k
			}
		}
		shown, floors := make([]int, len(cols)), make([]int, len(cols))
		total, need := len(columnGap)*(len(cols)-1), len(columnGap)*(len(cols)-1)
		for k, i := range cols {
			shown[k], floors[k] = widths[i], widths[i]
			if f := t.fit(i); f.Priority == lowest && f.MinWidth > 0 {
				floors[k] = min(widths[i], f.MinWidth)
			}
			total, need = total+shown[k], need+floors[k]
		}
		if total > width && need > width && lowest > 0 && len(cols) > 1 {
			cols = slices.Delete(cols, drop, drop+1)
			continue
		}
		shrink(shown, floors, total-width)
		if need > width {
			shrink(shown, slices.Repeat([]int{1}, len(cols)), need-width)
		}
		return cols, shown
	}
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

// cellWidth is the display width of an escaped cell, rune by rune as
// terminals that follow wcwidth count it.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				i += runewidth.RuneWidth(r)
			}
			return i
		}
	}
	return len(s)
}

// cut shortens s, wider than width, to width columns ending in "…".
func cut(s string, width int) string {
	w := 0
	for i, r := range s {
		if w += runewidth.RuneWidth(r); w >= width {
			return s[:i] + "…"
		}
	}
	return s
}

// lineWriter writes the lines of a table laid out: each cell left-aligned
// in its column's width, columnGap between columns, no spaces at the end of
// a line; in colour, the header bold and DELETED red. It is tablewriter's
// renderer on a terminal, so that a terminal and a pipe get the same lines.
type lineWriter struct {
	w      io.Writer
	widths []int
	color  bool
	line   []byte
}

func (l *lineWriter) write(cells []string, header bool) {
	line := l.line[:0]
	pad := 0
	for i, c := range cells { // one a column
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

// Start begins a table; the lineWriter knows where it goes.
func (l *lineWriter) Start(io.Writer) error { return nil }

// Header writes the header line.
func (l *lineWriter) Header(headers [][]string, _ tw.Formatting) {
	for _, h := range headers {
		l.write(h, true)
	}
}

// Row writes the line of one row.
func (l *lineWriter) Row(row []string, _ tw.Formatting) { l.write(row, false) }

// Footer writes nothing: tables have no footer.
func (l *lineWriter) Footer([][]string, tw.Formatting) {}

// Line writes nothing: tables have no separator lines.
func (l *lineWriter) Line(tw.Formatting) {}

// Config tells tablewriter there are no borders or lines, and that rows
// may be streamed.
func (l *lineWriter) Config() tw.Rendition {
	return tw.Rendition{Borders: tw.BorderNone, Settings: tw.Settings{Lines: tw.LinesNone}, Streaming: true}
}

// Close ends a table; nothing is buffered.
func (l *lineWriter) Close() error { return nil }

// Logger ignores tablewriter's logger: nothing is logged.
func (l *lineWriter) Logger(*ll.Logger) {}
