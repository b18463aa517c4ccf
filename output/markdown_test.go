package output

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMarkdownPrinter(t *testing.T) {
	users := Table{
		Headers: []string{"NAME", "TITLE"},
		Fit:     []Fit{{Kind: Name}, {Priority: 1}},
		Under:   "users/",
		Rows: [][]string{
			{"users/a@x.com", "one | two"},
			{"users/b@x.com", "line\nbreak\r\nand \\ backslash \\|"},
			{"users/c@x.com", "\x1b[2Jclear"},
		},
	}
	diff := "+ added\n- removed\n"
	fenced := "``` inside"
	tests := []struct {
		name string
		opts Options
		doc  Document
		want string
	}{
		{"a table, values as sent, cells escaped", Options{Format: "markdown", TTY: true, Width: 20, NoHeaders: true}, tablesDoc(users),
			"| NAME          | TITLE                                  |\n" +
				"|:--------------|:---------------------------------------|\n" +
				"| users/a@x.com | one \\| two                             |\n" +
				"| users/b@x.com | line<br>break<br>and \\\\ backslash \\\\\\| |\n" +
				"| users/c@x.com | \\\\x1b[2Jclear                          |\n"},
		{"two tables", Options{Format: "markdown"}, tablesDoc(Table{Headers: []string{"A"}, Rows: [][]string{{"1"}}}, Table{Headers: []string{"B"}}),
			"| A |\n|:--|\n| 1 |\n\n| B |\n|:--|\n"},
		{"a diff", Options{Format: "markdown"}, Document{Diff: true, Text: ptr(diff)}, "```diff\n+ added\n- removed\n```\n"},
		{"a text holding a fence", Options{Format: "markdown"}, Document{Text: ptr(fenced)}, "````\n``` inside\n````\n"},
		{"an empty text", Options{Format: "markdown"}, Document{Text: ptr("")}, ""},
		{"a document without tables", Options{Format: "markdown"}, Document{Raw: []byte(`{"a":1}`)}, "```json\n{\n  \"a\": 1\n}\n```\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, tt.opts, tt.doc, tt.want)
		})
	}
}

// run is the report of a run over four databases: one differs, one failed,
// one was not sent.
var run = &Report{Title: "dbgov schema diff", Cases: []Case{
	{Name: "prod/orders", Result: "succeeded"},
	{Name: "prod/<users>", Result: "differs", Detail: "ALTER TABLE t ADD c int; (2 lines)", Changes: "ALTER TABLE t ADD c int;\nDROP TABLE u;", Failure: true},
	{Name: "prod/<x>", Result: "failed", Detail: "database \"prod/<x>\" not found | (HTTP 404 NOT_FOUND)", Failure: true},
	{Name: "prod/late", Result: "not sent"},
}}

func TestMarkdownPrinter_report(t *testing.T) {
	tests := []struct {
		name   string
		report *Report
		want   string
	}{
		{"a summary line, a row a database, the changes collapsed", run,
			"1 of 4 databases succeeded, 1 differs, 1 failed, 1 not sent\n\n" +
				"| DATABASE     | RESULT    | DETAIL                                                |\n" +
				"|:-------------|:----------|:------------------------------------------------------|\n" +
				"| prod/orders  | succeeded |                                                       |\n" +
				"| prod/<users> | differs   | ALTER TABLE t ADD c int; (2 lines)                    |\n" +
				"| prod/<x>     | failed    | database \"prod/<x>\" not found \\| (HTTP 404 NOT_FOUND) |\n" +
				"| prod/late    | not sent  |                                                       |\n" +
				"\n<details><summary>prod/&lt;users&gt;</summary>\n\n```\nALTER TABLE t ADD c int;\nDROP TABLE u;\n```\n\n</details>\n"},
		{"every database succeeded", &Report{Cases: []Case{{Name: "prod/a", Result: "succeeded"}, {Name: "prod/b", Result: "succeeded"}}},
			"2 of 2 databases succeeded\n\n| DATABASE | RESULT    | DETAIL |\n|:---------|:----------|:-------|\n| prod/a   | succeeded |        |\n| prod/b   | succeeded |        |\n"},
		{"two differ", &Report{Cases: []Case{{Name: "p/a", Result: "differs", Detail: "x", Changes: "x"}, {Name: "p/b", Result: "differs", Detail: "y", Changes: "y"}}},
			"0 of 2 databases succeeded, 2 differ\n\n| DATABASE | RESULT  | DETAIL |\n|:---------|:--------|:-------|\n| p/a      | differs | x      |\n| p/b      | differs | y      |\n" +
				"\n<details><summary>p/a</summary>\n\n```\nx\n```\n\n</details>\n\n<details><summary>p/b</summary>\n\n```\ny\n```\n\n</details>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The report wins over the tables of the run.
			printsExactly(t, Options{Format: "markdown"}, Document{Report: tt.report, Tables: []Table{{Headers: []string{"DATABASE", "DIFF"}}}}, tt.want)
		})
	}
}

func TestSummaryFile_appendsTheMarkdownWhateverTheFormat(t *testing.T) {
	pages := [][]string{{`{"name":"users/a"}`, `{"name":"users/b"}`}, {`{"name":"users/c"}`}}
	table := "| NAME    |\n|:--------|\n| users/a |\n| users/b |\n| users/c |\n\n"
	tests := []struct {
		opts   Options
		stdout string
	}{
		{Options{Format: "json"}, "{\n  \"users\": [\n    {\n      \"name\": \"users/a\"\n    },\n    {\n      \"name\": \"users/b\"\n    },\n    {\n      \"name\": \"users/c\"\n    }\n  ]\n}\n"},
		{Options{Format: "jsonl"}, `{"name":"users/a"}` + "\n" + `{"name":"users/b"}` + "\n" + `{"name":"users/c"}` + "\n"},
		{Options{Format: "name"}, "users/a\nusers/b\nusers/c\n"},
		{Options{JQ: ".users | length"}, "3\n"},
		{Options{Format: "markdown"}, table[:len(table)-1]},
	}
	for _, tt := range tests {
		t.Run(tt.opts.Format+tt.opts.JQ, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "summary.md")
			tt.opts.SummaryFile = path
			for run := 1; run <= 2; run++ {
				asked := 0
				if got, err := render(t, tt.opts, pagesDoc(pages, nil, &asked)); err != nil || got != tt.stdout {
					t.Fatalf("stdout %q (%v), want %q", got, err, tt.stdout)
				}
				if asked != 1 {
					t.Errorf("the list was asked for %d times, want once", asked)
				}
				// The Markdown, a blank line ending it, a run after another.
				if got, _ := os.ReadFile(path); string(got) != strings.Repeat(table, run) {
					t.Errorf("after run %d the summary file holds\n%s", run, got)
				}
			}
		})
	}
}

func TestSummaryFile_aFailureSaysSoAfterStdout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "summary.md")
	var out strings.Builder
	p, err := New(Options{Format: "json", SummaryFile: path})
	if err == nil {
		err = p.Print(context.Background(), &out, Document{Raw: []byte(`{"a":1}`)})
	}
	if want := "write the summary to " + path + ": "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want one starting %q", err, want)
	}
	if out.String() != "{\n  \"a\": 1\n}\n" {
		t.Errorf("stdout %q, want the JSON whole", out.String())
	}
}
