package output

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/textsafe"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -update to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

type user struct {
	Name, State, Title string
	MFA                bool
}

var userColumns = []Column[user]{
	{Header: "NAME", Value: func(u *user) string { return u.Name }},
	{Header: "STATE", Priority: 1, Value: func(u *user) string { return u.State }},
	{Header: "TITLE", Priority: 2, MinWidth: 10, Value: func(u *user) string { return u.Title }},
	{Header: "MFA", Priority: 1, Value: func(u *user) string {
		if u.MFA {
			return "yes"
		}
		return "no"
	}},
}

var someUsers = []user{
	{Name: "users/alice@example.com", State: "ACTIVE", Title: "Alice Liddell", MFA: true},
	{Name: "users/bob@example.com", State: "DELETED", Title: "", MFA: false},
	{Name: "users/carol.with.a.very.long.address@subdomain.example.com", State: "ACTIVE", Title: "Carol  (two spaces)", MFA: false},
}

func tablesDoc(tables ...Table) Document {
	return Document{Tables: append([]Table{}, tables...)}
}

func ptr(s string) *string { return &s }

func TestTablePrinter_golden(t *testing.T) {
	users := TableOf(someUsers, userColumns)
	tests := []struct {
		name string
		opts Options
		doc  Document
	}{
		{"users.golden", Options{}, tablesDoc(users)},
		{"users_no_headers.golden", Options{NoHeaders: true}, tablesDoc(users)},
		{"users_piped_wide_values.golden", Options{Width: 30}, tablesDoc(users)},             // not a terminal: never truncated
		{"users_terminal_truncated.golden", Options{TTY: true, Width: 60}, tablesDoc(users)}, // cannot fit: overflows
		{"policies_terminal_fitted.golden", Options{TTY: true, Width: 50}, tablesDoc(Table{
			Headers: []string{"NAME", "TYPE", "SUMMARY"},
			Fit:     []Fit{{Kind: Name}, {Priority: 1}, {Priority: 2, MinWidth: 12}},
			Under:   "instances/prod-pg/databases/orders/policies/",
			Rows: [][]string{
				{"instances/prod-pg/databases/orders/policies/masking", "MASKING_RULE", "3 rules: email, phone, card number"},
				{"instances/prod-pg/databases/orders/policies/sql-review", "SQL_REVIEW", "reviewConfigs/default"},
			},
		})},
		{"users_terminal_no_headers.golden", Options{TTY: true, Width: 50, NoHeaders: true}, tablesDoc(users)},
		{"users_terminal_colour.golden", Options{TTY: true, Color: true, Width: 200}, tablesDoc(users)},
		{"two_tables.golden", Options{}, tablesDoc(
			Table{Headers: []string{"POLICY", "TYPE"}, Rows: [][]string{{"policies/masking", "MASKING_RULE"}}},
			Table{Headers: []string{"RULE", "SEMANTIC TYPE"}, Rows: [][]string{{"r1", "email"}, {"r2", "phone"}}},
		)},
		{"empty_table_shows_headers.golden", Options{}, tablesDoc(Table{Headers: []string{"NAME", "STATE"}})},
		{"ragged_rows.golden", Options{}, tablesDoc(Table{Headers: []string{"A", "B"}, Rows: [][]string{{"1"}, {"1", "2", "3"}, {}}})},
		{"control_characters.golden", Options{}, tablesDoc(Table{
			Headers: []string{"NAME", "TITLE"},
			Rows: [][]string{
				{"users/evil@x.com", "\x1b[2J\x1b]0;pwned\x07clear"},
				{"users/lines@x.com", "one\ntwo\r\nthree\tfour"},
				{"users/c1@x.com", "next\u0085line\u009bcsi"},
				{"users/bytes@x.com", "bad\xff\xfeutf8\x7fdel\x00nul"},
			},
		})},
		{"wide_characters.golden", Options{}, tablesDoc(Table{
			Headers: []string{"NAME", "TITLE", "STATE"},
			Rows:    [][]string{{"users/漢字@x.com", "日本語のタイトル", "ACTIVE"}, {"users/e@x.com", "café", "DELETED"}},
		})},
		{"wide_characters_truncated.golden", Options{TTY: true, Width: 38}, tablesDoc(Table{
			Headers: []string{"NAME", "TITLE", "STATE"},
			Fit:     []Fit{{}, {Priority: 1, MinWidth: 6}, {}},
			Rows:    [][]string{{"users/漢字@x.com", "日本語のタイトルとても長い説明", "ACTIVE"}, {"users/e@x.com", "café", "DELETED"}},
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, tt.opts, tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(got, "\n") {
				if strings.HasSuffix(line, " ") {
					t.Errorf("line %d ends in a space: %q", i+1, line)
				}
			}
			golden(t, tt.name, got)
		})
	}
}

func TestTablePrinter_neverSendsControlCharacters(t *testing.T) {
	hostile := "a\x1b[31mred\x07\x08\x0b\x0c\r\n\t\x7f\u0080\u009f\xc0"
	got, err := render(t, Options{TTY: true, Width: 80}, tablesDoc(Table{Headers: []string{"NAME" + hostile}, Rows: [][]string{{hostile, hostile}}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range strings.TrimSuffix(got, "\n") {
		if r < 0x20 && r != '\n' || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			t.Fatalf("output holds control character %U: %q", r, got)
		}
	}
	if strings.Count(got, "\n") != 2 {
		t.Errorf("want 2 lines, got %q", got)
	}
}

func TestTablePrinter_cutsTheNameColumnLast(t *testing.T) {
	policies := Table{
		Headers: []string{"NAME", "TYPE", "ENFORCE", "SUMMARY"},
		Fit:     []Fit{{}, {MinWidth: 8}, {}, {MinWidth: 10}},
		Rows: [][]string{
			{"instances/prod-pg/databases/orders/policies/masking", "MASKING_RULE", "true", "3 rules: email, phone, card number"},
			{"instances/prod-pg/databases/orders/policies/sql-review", "SQL_REVIEW", "false", "reviewConfigs/default"},
		},
	}
	tests := []struct {
		name      string
		width     int
		noHeaders bool
		nameWhole bool
	}{
		{"other columns cut to fit", 90, false, true},
		{"other columns cut to fit, no headers", 90, true, true},
		{"too narrow for the name: it is cut too", 60, false, false},
		{"far too narrow: every column cut", 16, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, Options{TTY: true, Width: tt.width, NoHeaders: tt.noHeaders}, tablesDoc(policies))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			for _, line := range lines {
				if w := cellWidth(line); w > tt.width {
					t.Errorf("line %q is %d wide, wider than %d", line, w, tt.width)
				}
			}
			if !tt.noHeaders {
				lines = lines[1:]
			}
			if len(lines) != len(policies.Rows) {
				t.Fatalf("got %d rows:\n%s", len(lines), got)
			}
			for i, line := range lines {
				if first := policies.Rows[i][0]; strings.HasPrefix(line, first+columnGap) != tt.nameWhole {
					t.Errorf("row %d begins with %q whole: %v, want %v:\n%s", i+1, first, !tt.nameWhole, tt.nameWhole, got)
				}
			}
			if !strings.Contains(got, "…") {
				t.Errorf("nothing was cut:\n%s", got)
			}
		})
	}
}

// fitCase is a random table with declared columns, printed at a random width.
type fitCase struct {
	table Table
	width int
}

func randomFitCase(rng *rand.Rand) fitCase {
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return string(b)
	}
	ncols := 1 + rng.IntN(7)
	var t Table
	for i := range ncols {
		t.Headers = append(t.Headers, fmt.Sprintf("%s%d", strings.ToUpper(word(rng.IntN(10))), i))
		f := Fit{Priority: rng.IntN(4), MinWidth: []int{0, 0, 5, 12}[rng.IntN(4)]}
		if i == 0 || rng.IntN(5) == 0 {
			f.Priority = 0 // at most a few columns that stay, so that they fit in 20
		}
		if f.Priority == 0 && i > 0 && rng.IntN(2) == 0 {
			f.Priority = 1
		}
		t.Fit = append(t.Fit, f)
	}
	for range 1 + rng.IntN(5) {
		row := make([]string, ncols)
		for i := range row {
			row[i] = word(1 + rng.IntN(40))
		}
		t.Rows = append(t.Rows, row)
	}
	return fitCase{table: t, width: 20 + rng.IntN(181)}
}

// shownColumns finds which columns of c.table a printed header line shows.
func shownColumns(c fitCase, header string) []int {
	var cols []int
	for _, f := range strings.Fields(header) {
		for j := range c.table.Headers {
			if (f == c.table.Headers[j] || strings.HasSuffix(f, "…") && strings.HasPrefix(c.table.Headers[j], strings.TrimSuffix(f, "…"))) &&
				(len(cols) == 0 || j > cols[len(cols)-1]) {
				cols = append(cols, j)
				break
			}
		}
	}
	return cols
}

func TestTablePrinter_fitsEveryWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 1000 {
		c := randomFitCase(rng)
		got, err := render(t, Options{TTY: true, Width: c.width}, tablesDoc(c.table))
		if err != nil {
			t.Fatal(err)
		}
		full, err := render(t, Options{}, tablesDoc(c.table))
		if err != nil {
			t.Fatal(err)
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("table %d at width %d (fits %v): %s:\n%s\nwhole:\n%s", n, c.width, c.table.Fit, fmt.Sprintf(format, args...), got, full)
		}
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		for _, line := range lines {
			if cellWidth(line) > c.width {
				fail("line %q is wider than the window", line)
			}
		}
		note := ""
		if last := lines[len(lines)-1]; strings.HasPrefix(last, "(") {
			note, lines = last, lines[:len(lines)-1]
		}
		if strings.Contains(got, "\x1b") {
			fail("colour without Color")
		}
		fullWidth := 0
		for _, line := range strings.Split(full, "\n") {
			fullWidth = max(fullWidth, cellWidth(line))
		}
		if fullWidth <= c.width && got != full {
			fail("the whole table fits, yet it was changed")
		}
		cols := shownColumns(c, lines[0])
		cut := map[int]bool{}
		for r, line := range lines[1:] {
			cells := strings.Fields(line)
			if len(cells) != len(cols) {
				fail("row %d has %d cells for %d columns %v", r+1, len(cells), len(cols), cols)
			}
			for k, cell := range cells {
				whole := c.table.Rows[r][cols[k]]
				if cell == whole {
					continue
				}
				if !strings.HasSuffix(cell, "…") || !strings.HasPrefix(whole, strings.TrimSuffix(cell, "…")) {
					fail("cell %q is not %q cut with …", cell, whole)
				}
				cut[cols[k]] = true
			}
		}
		shown := map[int]bool{}
		lowestShown := 0
		for _, i := range cols {
			shown[i] = true
			lowestShown = max(lowestShown, c.table.Fit[i].Priority)
		}
		var hidden []string
		for i, h := range c.table.Headers {
			if !shown[i] {
				hidden = append(hidden, h)
			}
		}
		what, wantNote := fmt.Sprintf("%d columns hidden", len(hidden)), ""
		if len(hidden) == 1 {
			what = "1 column hidden"
		}
		if len(hidden) > 0 {
			wantNote = fmt.Sprintf("(%s: %s; -o wide shows every column)", what, strings.Join(hidden, ", "))
		}
		if len(wantNote) > c.width {
			wantNote = fmt.Sprintf("(%s; -o wide shows every column)", what)
		}
		if cut, ok := strings.CutSuffix(note, "…"); note != wantNote && (!ok || !strings.HasPrefix(wantNote, cut) || cellWidth(note) != c.width) {
			fail("note %q, want %q", note, wantNote)
		}
		for i, f := range c.table.Fit {
			switch {
			case f.Priority == 0 && !shown[i]:
				fail("column %d of priority 0 was dropped", i+1)
			case !shown[i] && f.Priority < lowestShown:
				fail("column %d of priority %d was dropped while one of priority %d is shown", i+1, f.Priority, lowestShown)
			case cut[i] && f.Priority < lowestShown:
				fail("column %d of priority %d was cut while one of priority %d is shown", i+1, f.Priority, lowestShown)
			}
		}
	}
}

func TestLayOut_dropsTheLowestPriorityBeforeCutting(t *testing.T) {
	// NAME 10, STATE 7, TITLE 30, GROUPS 20: 76 wide with the gaps.
	table := Table{Headers: []string{"NAME", "STATE", "TITLE", "GROUPS"}}
	widths := []int{10, 7, 30, 20}
	tests := []struct {
		name       string
		fit        []Fit
		width      int
		wantCols   []int
		wantWidths []int
	}{
		{"fits whole", []Fit{{}, {Priority: 1}, {Priority: 2}, {Priority: 3}}, 76, []int{0, 1, 2, 3}, []int{10, 7, 30, 20}},
		{"drops the lowest", []Fit{{}, {Priority: 1}, {Priority: 2}, {Priority: 3}}, 75, []int{0, 1, 2}, []int{10, 7, 30}},
		{"cuts the lowest rather than drop it when its minimum fits", []Fit{{}, {Priority: 1}, {Priority: 2}, {Priority: 3, MinWidth: 12}}, 70, []int{0, 1, 2, 3}, []int{10, 7, 30, 14}},
		{"drops the lowest when its minimum does not fit", []Fit{{}, {Priority: 1}, {Priority: 2}, {Priority: 3, MinWidth: 12}}, 67, []int{0, 1, 2}, []int{10, 7, 30}},
		{"drops the rightmost of equals first", []Fit{{}, {Priority: 2}, {Priority: 1}, {Priority: 2}}, 60, []int{0, 1, 2}, []int{10, 7, 30}},
		{"cuts a column it keeps only when every lower one is gone", []Fit{{}, {Priority: 1}, {Priority: 2, MinWidth: 10}, {Priority: 3}}, 40, []int{0, 1, 2}, []int{10, 7, 17}},
		{"priority 0 stays, cut to its minimum", []Fit{{}, {}, {MinWidth: 10}, {Priority: 1}}, 33, []int{0, 1, 2}, []int{10, 7, 10}},
		{"priority 0 cut below its minimum rather than overflow", []Fit{{}, {}, {MinWidth: 10}, {Priority: 1}}, 25, []int{0, 1, 2}, []int{6, 6, 7}},
		{"columns without a Fit stay, cut widest first", nil, 61, []int{0, 1, 2, 3}, []int{10, 7, 17, 18}},
		{"a long name is cut to its minimum before a column is dropped", []Fit{{Kind: Name, MinWidth: 4}, {Priority: 1}, {Priority: 2}, {Priority: 3}}, 72, []int{0, 1, 2, 3}, []int{6, 7, 30, 20}},
		{"a name is cut no further than its minimum to keep a column", []Fit{{Kind: Name, MinWidth: 8}, {Priority: 1}, {Priority: 2}, {Priority: 3}}, 72, []int{0, 1, 2}, []int{10, 7, 30}},
		{"a name stays whole while cutting the lowest is enough", []Fit{{Kind: Name, MinWidth: 4}, {Priority: 1}, {Priority: 2}, {Priority: 3, MinWidth: 12}}, 70, []int{0, 1, 2, 3}, []int{10, 7, 30, 14}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table.Fit = tt.fit
			cols, got := layOut(table, []int{0, 1, 2, 3}, slices.Clone(widths), tt.width)
			if !slices.Equal(cols, tt.wantCols) || !slices.Equal(got, tt.wantWidths) {
				t.Errorf("layOut at %d = columns %v widths %v, want %v %v", tt.width, cols, got, tt.wantCols, tt.wantWidths)
			}
		})
	}
}

func TestTablePrinter_namesAndAgesForPeople(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	table := Table{
		Headers: []string{"NAME", "PARENT", "CREATED"},
		Fit:     []Fit{{Kind: Name}, {}, {Kind: Time}},
		Under:   "instances/prod-pg/databases/orders/policies/",
		Rows: [][]string{
			{"instances/prod-pg/databases/orders/policies/rollout", "instances/prod-pg/databases/orders/policies/rollout", "2025-06-01T11:55:00Z"},
			{"instances/other/databases/orders/policies/tag", "x", "2025-05-29T11:00:00.123456Z"},
			{"instances/prod-pg/databases/orders/policies/", "x", "not a time"},
		},
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"terminal", Options{TTY: true, Now: now}, `NAME                                            PARENT                                                CREATED
rollout                                         instances/prod-pg/databases/orders/policies/rollout   5m
instances/other/databases/orders/policies/tag   x                                                     3d
instances/prod-pg/databases/orders/policies/    x                                                     not a time
`},
		{"piped: as sent", Options{Now: now}, `NAME                                                  PARENT                                                CREATED
instances/prod-pg/databases/orders/policies/rollout   instances/prod-pg/databases/orders/policies/rollout   2025-06-01T11:55:00Z
instances/other/databases/orders/policies/tag         x                                                     2025-05-29T11:00:00.123456Z
instances/prod-pg/databases/orders/policies/          x                                                     not a time
`},
	}
	tests = append(tests, struct {
		name string
		opts Options
		want string
	}{"wide on a terminal: every column, names and ages as on a terminal", Options{TTY: true, Width: 40, Format: "wide", Now: now}, tests[0].want},
		struct {
			name string
			opts Options
			want string
		}{"wide piped: as piped", Options{Format: "wide", Now: now}, tests[1].want})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, tt.opts, tablesDoc(table), tt.want)
		})
	}
}

func TestAge_asKubectlShowsIt(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Minute, "0s"},
		{0, "0s"},
		{59 * time.Second, "59s"},
		{119 * time.Second, "119s"},
		{2 * time.Minute, "2m"},
		{5*time.Minute + 30*time.Second, "5m30s"},
		{10*time.Minute + 30*time.Second, "10m"},
		{179 * time.Minute, "179m"},
		{3 * time.Hour, "3h"},
		{3*time.Hour + 20*time.Minute, "3h20m"},
		{8*time.Hour + 20*time.Minute, "8h"},
		{47 * time.Hour, "47h"},
		{48 * time.Hour, "2d"},
		{52 * time.Hour, "2d4h"},
		{8 * 24 * time.Hour, "8d"},
		{729 * 24 * time.Hour, "729d"},
		{(2*365 + 20) * 24 * time.Hour, "2y20d"},
		{9 * 365 * 24 * time.Hour, "9y"},
	}
	for _, tt := range tests {
		if got := age(tt.d); got != tt.want {
			t.Errorf("age(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestTablePrinter_colour(t *testing.T) {
	table := Table{Headers: []string{"NAME", "STATE"}, Rows: [][]string{{"users/a@x.com", "ACTIVE"}, {"users/b@x.com", "DELETED"}}}
	plain := "NAME            STATE\nusers/a@x.com   ACTIVE\nusers/b@x.com   DELETED\n"
	coloured := "\x1b[1mNAME            STATE\x1b[0m\nusers/a@x.com   ACTIVE\nusers/b@x.com   \x1b[31mDELETED\x1b[0m\n"
	// tablewriter paints each header cell, and resets after each painted cell.
	colouredOnTerminal := "\x1b[1mNAME\x1b[0m            \x1b[0m\x1b[1mSTATE\x1b[0m\nusers/a@x.com   ACTIVE\nusers/b@x.com   \x1b[31mDELETED\x1b[0m\n"
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"terminal in colour", Options{TTY: true, Color: true, Width: 80}, colouredOnTerminal},
		{"terminal without colour", Options{TTY: true, Width: 80}, plain},
		{"piped in colour (--color always)", Options{Color: true}, coloured},
		{"piped without colour", Options{}, plain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, tt.opts, tablesDoc(table), tt.want)
		})
	}
}

func TestTablePrinter_diffInColour(t *testing.T) {
	diff := "+ .orders.email  classification: → PII\n- .orders.fax\n~ .orders.id  labels\n"
	tests := []struct {
		name string
		opts Options
		doc  Document
		want string
	}{
		{"in colour", Options{TTY: true, Color: true}, Document{Diff: true},
			"\x1b[32m+ .orders.email  classification: → PII\x1b[0m\n\x1b[31m- .orders.fax\x1b[0m\n\x1b[33m~ .orders.id  labels\x1b[0m\n"},
		{"without colour", Options{TTY: true}, Document{Diff: true}, diff},
		{"not a diff", Options{TTY: true, Color: true}, Document{}, diff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.doc.Text = &diff
			printsExactly(t, tt.opts, tt.doc, tt.want)
		})
	}
}

func TestPaint(t *testing.T) {
	if got := Paint(true, Dim, "hint"); got != "\x1b[2mhint\x1b[0m" {
		t.Errorf("Paint(on) = %q", got)
	}
	if got := Paint(false, Dim, "hint"); got != "hint" {
		t.Errorf("Paint(off) = %q", got)
	}
	if got := Paint(true, Red, ""); got != "" {
		t.Errorf("Paint of nothing = %q", got)
	}
}

func TestList_namesAndRelativeTable(t *testing.T) {
	list := List[user]{Columns: []Column[user]{
		{Header: "NAME", Kind: Name, Value: func(u *user) string { return u.Name }},
		{Header: "STATE", Priority: 1, Value: func(u *user) string { return u.State }},
	}, Name: func(u *user) string { return u.Name }}
	doc := list.Document(nil, "", someUsers[:2], "users/")
	if got, want := doc.Names, []string{"users/alice@example.com", "users/bob@example.com"}; !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
	table := doc.Tables[0]
	if !slices.Equal(table.Fit, []Fit{{Kind: Name}, {Priority: 1}}) || table.Under != "users/" {
		t.Errorf("Table declares %+v under %q", table.Fit, table.Under)
	}
	printsExactly(t, Options{TTY: true, Width: 80}, tablesDoc(table), "NAME                STATE\nalice@example.com   ACTIVE\nbob@example.com     DELETED\n")
}

func TestTablePrinter_textInsteadOfTables(t *testing.T) {
	tests := []struct {
		name, text, want string
		tty              bool
	}{
		{"diff printed as is", "ALTER TABLE t ADD COLUMN c int;\n\tDROP INDEX i;\n", "ALTER TABLE t ADD COLUMN c int;\n\tDROP INDEX i;\n", false},
		{"final newline added", "ALTER TABLE t;", "ALTER TABLE t;\n", false},
		{"empty diff prints nothing", "", "", false},
		{"terminal controls escaped on a terminal", "a\x1b[2Jb\r\n", "a\\x1b[2Jb\\r\n", true},
		{"the service's text exactly when piped", "a\x1b[2Jb\r\n", "a\x1b[2Jb\r\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Document{Raw: []byte(`{"diff":"x"}`), Text: ptr(tt.text), Tables: []Table{{Headers: []string{"NOT PRINTED"}}}}
			printsExactly(t, Options{TTY: tt.tty}, doc, tt.want)
		})
	}
	// Other formats ignore Text.
	got, err := render(t, Options{Format: "json"}, Document{Raw: []byte(`{}`), Text: ptr("x")})
	if err != nil || got != "{}\n" {
		t.Errorf("json with Text = %q, %v; want the JSON document", got, err)
	}
}

func TestTablePrinter_withoutTablesPrintsJSON(t *testing.T) {
	printsExactly(t, Options{}, Document{Raw: []byte(`{"name":"reviewConfigs/a","clientSecret":"s"}`)}, "{\n  \"name\": \"reviewConfigs/a\",\n  \"clientSecret\": \"********\"\n}\n")
}

func TestTablePrinter_blankTablesPrintNothing(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		doc  Document
	}{
		{"no tables", Options{}, tablesDoc()},
		{"no rows and no headers wanted", Options{NoHeaders: true}, tablesDoc(Table{Headers: []string{"NAME"}})},
		{"rows without cells", Options{}, tablesDoc(Table{Rows: [][]string{{}, {}}})},
	} {
		got, err := render(t, tt.opts, tt.doc)
		if err != nil || got != "" {
			t.Errorf("%s: got %q, %v; want nothing", tt.name, got, err)
		}
	}
	// A blank table between two others adds no extra blank line.
	got, err := render(t, Options{NoHeaders: true}, tablesDoc(
		Table{Rows: [][]string{{"a"}}}, Table{Headers: []string{"X"}}, Table{Rows: [][]string{{"b"}}}))
	if err != nil {
		t.Fatal(err)
	}
	if got != "a\n\nb\n" {
		t.Errorf("got %q, want %q", got, "a\n\nb\n")
	}
}

// collect returns the rows of t as the printer sees them, each copied.
func collect(t Table) [][]string {
	var rows [][]string
	_ = t.EachRow(func(row []string) bool {
		rows = append(rows, append([]string(nil), row...))
		return true
	})
	return rows
}

func TestTableOf_declaresColumns(t *testing.T) {
	table := TableOf(someUsers[:2], userColumns)
	got := Table{Headers: table.Headers, Rows: collect(table)}
	want := Table{
		Headers: []string{"NAME", "STATE", "TITLE", "MFA"},
		Rows: [][]string{
			{"users/alice@example.com", "ACTIVE", "Alice Liddell", "yes"},
			{"users/bob@example.com", "DELETED", "", "no"},
		},
	}
	if strings.Join(got.Headers, "|") != strings.Join(want.Headers, "|") || len(got.Rows) != len(want.Rows) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want.Rows {
		if strings.Join(got.Rows[i], "|") != strings.Join(want.Rows[i], "|") {
			t.Errorf("row %d = %q, want %q", i, got.Rows[i], want.Rows[i])
		}
	}
	if empty := TableOf[user](nil, userColumns); len(collect(empty)) != 0 || len(empty.Headers) != 4 {
		t.Errorf("TableOf(nil) = %+v", empty)
	}
}

func TestTablePrinter_pipedLinesMatchTablewriterLayout(t *testing.T) {
	// Piped tables are streamed; on a terminal as wide as the table,
	// tablewriter lays them out. Both must give the same lines.
	cells := []string{"", "a", "ACTIVE", "users/alice@example.com", "two  spaces  ", " lead", "café", "漢字のタイトル",
		"\x1b[2J", "tab\there", "bad\xffbyte", "next\u0085line", "🙂 emoji", "e\u0301 combining", "    "}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 1000 {
		ncols := 1 + rng.IntN(5)
		table := Table{}
		if rng.IntN(4) > 0 {
			for range ncols {
				table.Headers = append(table.Headers, strings.ToUpper(cells[rng.IntN(len(cells))]))
			}
		}
		for range rng.IntN(6) {
			row := make([]string, rng.IntN(ncols+2))
			for i := range row {
				row[i] = cells[rng.IntN(len(cells))]
			}
			table.Rows = append(table.Rows, row)
		}
		noHeaders := rng.IntN(3) == 0
		piped, err := render(t, Options{NoHeaders: noHeaders}, tablesDoc(table))
		if err != nil {
			t.Fatal(err)
		}
		laidOut, err := render(t, Options{NoHeaders: noHeaders, TTY: true}, tablesDoc(table))
		if err != nil {
			t.Fatal(err)
		}
		if piped != laidOut {
			t.Fatalf("table %d %q %q (no headers %v):\npiped:\n%s\ntablewriter:\n%s", n, table.Headers, table.Rows, noHeaders, piped, laidOut)
		}
		each := Table{Headers: table.Headers, Each: func(yield func([]string) bool) error {
			buf := make([]string, 8)
			for _, row := range table.Rows {
				if !yield(append(buf[:0], row...)) {
					break
				}
			}
			return nil
		}}
		streamed, err := render(t, Options{NoHeaders: noHeaders}, tablesDoc(each))
		if err != nil {
			t.Fatal(err)
		}
		if streamed != piped {
			t.Fatalf("table %d given by Each:\n%s\nwant:\n%s", n, streamed, piped)
		}
	}
}

func TestEscapeControl(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"café 漢字 🙂", "café 漢字 🙂"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"\x00\x07\x08\x0b\x0c\x1f", `\x00\x07\x08\x0b\x0c\x1f`},
		{"del\x7f", `del\x7f`},
		{"c1\u0085\u009b\u0080", `c1\u0085\u009b\u0080`},
		{"bad\xff\xc3", `bad\xff\xc3`},
		{"\u00a0nbsp", "\u00a0nbsp"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := textsafe.Line(tt.in); got != tt.want {
			t.Errorf("textsafe.Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNamePrinter(t *testing.T) {
	printsExactly(t, Options{Format: "name"}, Document{Names: []string{"users/a@x.com", "", "users/b@x.com", "users/evil\n@x.com\x1b[2J"}}, "users/a@x.com\nusers/b@x.com\nusers/evil\\n@x.com\\x1b[2J\n")
	if got, err := render(t, Options{Format: "name"}, Document{Names: []string{}}); err != nil || got != "" {
		t.Errorf("no names: got %q, %v; want nothing", got, err)
	}
}

func TestNamePrinter_documentWithoutNamesIsAUsageError(t *testing.T) {
	tests := []struct {
		name string
		doc  Document
	}{
		{"a document", Document{Raw: []byte(`{"profiles": {}}`)}},
		{"a document with tables", Document{Raw: []byte(`{}`), Tables: []Table{}}},
		{"a document with text", Document{Raw: []byte(`{}`), Text: ptr("diff")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, Options{Format: "name"}, tt.doc)
			if !errors.Is(err, ErrInvalidOptions) {
				t.Errorf("error %v does not wrap ErrInvalidOptions", err)
			}
			if err == nil || !strings.Contains(err.Error(), "no resource names") {
				t.Errorf("error %v does not say there are no resource names", err)
			}
			if got != "" {
				t.Errorf("printed %q", got)
			}
		})
	}
}

func TestTablePrinter_rowsThatFailPrintNothing(t *testing.T) {
	failing := Table{Headers: []string{"NAME"}, Each: func(yield func([]string) bool) error {
		for _, name := range []string{"a", "b"} {
			if !yield([]string{name}) {
				return nil
			}
		}
		return errors.New("the answer does not decode")
	}}
	for _, opts := range []Options{{}, {TTY: true, Width: 80}, {NoHeaders: true}} {
		got, err := render(t, opts, tablesDoc(failing))
		if err == nil || err.Error() != "the answer does not decode" {
			t.Errorf("%+v: error %v, want the rows' error", opts, err)
		}
		if got != "" {
			t.Errorf("%+v: printed %q before the error", opts, got)
		}
	}
}
