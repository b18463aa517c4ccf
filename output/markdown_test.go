package output

import "testing"

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
