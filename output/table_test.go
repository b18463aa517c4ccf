package output

import (
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	{Header: "NAME", Value: func(u user) string { return u.Name }},
	{Header: "STATE", Value: func(u user) string { return u.State }},
	{Header: "TITLE", Value: func(u user) string { return u.Title }},
	{Header: "MFA", Value: func(u user) string {
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
	return Document{Tables: func() []Table { return tables }}
}

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
		{"policies_terminal_fitted.golden", Options{TTY: true, Width: 80}, tablesDoc(Table{
			Headers: []string{"NAME", "TYPE", "SUMMARY"},
			Rows: [][]string{
				{"instances/prod-pg/databases/orders/policies/masking", "MASKING_RULE", "3 rules: email, phone, card number"},
				{"instances/prod-pg/databases/orders/policies/sql-review", "SQL_REVIEW", "reviewConfigs/default"},
			},
		})},
		{"users_terminal_no_headers.golden", Options{TTY: true, Width: 50, NoHeaders: true}, tablesDoc(users)},
		{"users_terminal_colour.golden", Options{TTY: true, Color: true, Width: 200}, tablesDoc(users)},
		{"users_colour_when_piped.golden", Options{Color: true}, tablesDoc(users)}, // colour needs a terminal
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

func TestTablePrinter_neverCutsTheFirstColumn(t *testing.T) {
	policies := Table{
		Headers: []string{"NAME", "TYPE", "ENFORCE", "SUMMARY"},
		Rows: [][]string{
			{"instances/prod-pg/databases/orders/policies/masking", "MASKING_RULE", "true", "3 rules: email, phone, card number"},
			{"instances/prod-pg/databases/orders/policies/sql-review", "SQL_REVIEW", "false", "reviewConfigs/default"},
		},
	}
	tests := []struct {
		name      string
		width     int
		noHeaders bool
	}{
		{"other columns cut to fit", 90, false},
		{"other columns cut to fit, no headers", 90, true},
		{"too narrow to fit: overflows", 60, false},
		{"far too narrow: overflows", 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, Options{TTY: true, Width: tt.width, NoHeaders: tt.noHeaders}, tablesDoc(policies))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			if !tt.noHeaders {
				lines = lines[1:]
			}
			if len(lines) != len(policies.Rows) {
				t.Fatalf("got %d rows:\n%s", len(lines), got)
			}
			for i, line := range lines {
				if first := policies.Rows[i][0]; !strings.HasPrefix(line, first+columnGap) {
					t.Errorf("row %d does not begin with %q:\n%s", i+1, first, got)
				}
			}
			if !strings.Contains(got, "…") {
				t.Errorf("nothing was cut:\n%s", got)
			}
		})
	}
}

// laidOutWidths returns the width of each column of a table printed with
// no empty cell and no spaces in cells: the widest of its cells.
func laidOutWidths(out string) []int {
	var widths []int
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		for i, cell := range strings.Fields(line) {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], cellWidth(cell))
		}
	}
	return widths
}

func TestTablePrinter_fitsTheTerminalWidthWhenItCan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return string(b)
	}
	for n := range 2000 {
		ncols := 1 + rng.IntN(6)
		table := Table{}
		noHeaders := rng.IntN(3) == 0
		for range ncols {
			table.Headers = append(table.Headers, strings.ToUpper(word(1+rng.IntN(14))))
		}
		for range 1 + rng.IntN(5) {
			row := make([]string, ncols)
			for i := range row {
				row[i] = word(1 + rng.IntN(40))
			}
			table.Rows = append(table.Rows, row)
		}
		width := 10 + rng.IntN(150)
		full, err := render(t, Options{TTY: true, NoHeaders: noHeaders}, tablesDoc(table))
		if err != nil {
			t.Fatal(err)
		}
		got, err := render(t, Options{TTY: true, Width: width, NoHeaders: noHeaders}, tablesDoc(table))
		if err != nil {
			t.Fatal(err)
		}
		fullWidths, widths := laidOutWidths(full), laidOutWidths(got)
		// What the table needs at least: the first column whole, the others
		// no narrower than their header or minTruncatedWidth.
		need, total := len(columnGap)*(ncols-1)+fullWidths[0], 0
		for i, w := range fullWidths {
			floor := minTruncatedWidth
			if !noHeaders {
				floor = max(floor, cellWidth(table.Headers[i]))
			}
			if i > 0 {
				need += min(w, floor)
			}
			if widths[i] < min(w, floor) || (i == 0 && widths[i] != w) {
				t.Fatalf("table %d at width %d: column %d cut to %d (of %d):\n%s", n, width, i+1, widths[i], w, got)
			}
			total += widths[i]
		}
		total += len(columnGap) * (ncols - 1)
		switch {
		case need <= width && total > width:
			t.Fatalf("table %d at width %d: %d wide, although it fits in %d:\n%s", n, width, total, need, got)
		case need > width && total != need:
			t.Fatalf("table %d at width %d: %d wide, want every column as narrow as allowed (%d):\n%s", n, width, total, need, got)
		case total < width && got != full:
			t.Fatalf("table %d at width %d: cut to %d, narrower than needed:\n%s", n, width, total, got)
		}
	}
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
			doc := Document{Raw: []byte(`{"diff":"x"}`), Text: func() string { return tt.text },
				Tables: func() []Table { t.Error("Tables called although Text is set"); return nil }}
			got, err := render(t, Options{TTY: tt.tty}, doc)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// Other formats ignore Text.
	got, err := render(t, Options{Format: "json"}, Document{Raw: []byte(`{}`), Text: func() string { return "x" }})
	if err != nil || got != "{}\n" {
		t.Errorf("json with Text = %q, %v; want the JSON document", got, err)
	}
}

func TestTablePrinter_withoutTablesPrintsJSON(t *testing.T) {
	got, err := render(t, Options{}, Document{Raw: []byte(`{"name":"reviewConfigs/a","clientSecret":"s"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"name\": \"reviewConfigs/a\",\n  \"clientSecret\": \"********\"\n}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
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
	_ = t.each(func(row []string) bool {
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
		if got := EscapeControl(tt.in); got != tt.want {
			t.Errorf("EscapeControl(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNamePrinter(t *testing.T) {
	got, err := render(t, Options{Format: "name"}, Document{Names: func() []string {
		return []string{"users/a@x.com", "", "users/b@x.com", "users/evil\n@x.com\x1b[2J"}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "users/a@x.com\nusers/b@x.com\nusers/evil\\n@x.com\\x1b[2J\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, err := render(t, Options{Format: "name"}, Document{Names: func() []string { return nil }}); err != nil || got != "" {
		t.Errorf("no names: got %q, %v; want nothing", got, err)
	}
}

func TestNamePrinter_documentWithoutNamesIsAUsageError(t *testing.T) {
	tests := []struct {
		name string
		doc  Document
	}{
		{"a document", Document{Raw: []byte(`{"profiles": {}}`)}},
		{"a document with tables", Document{Raw: []byte(`{}`), Tables: func() []Table { return nil }}},
		{"a document with text", Document{Raw: []byte(`{}`), Text: func() string { return "diff" }}},
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
