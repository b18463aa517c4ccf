package output

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// printsExactly fails the test unless doc printed with opts is want.
func printsExactly(t *testing.T, opts Options, doc Document, want string) {
	t.Helper()
	got, err := render(t, opts, doc)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// render prints doc with the printer New makes for opts.
func render(t *testing.T, opts Options, doc Document) (string, error) {
	t.Helper()
	p, err := New(opts)
	if err != nil {
		t.Fatalf("New(%+v): %v", opts, err)
	}
	var buf bytes.Buffer
	err = p.Print(context.Background(), &buf, doc)
	return buf.String(), err
}

func TestNew_rejectsInvalidOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantMsg string
	}{
		{"unknown format lists the valid ones", Options{Format: "xml"}, "table, json, yaml, name"},
		{"format is case sensitive", Options{Format: "JSON"}, `"JSON"`},
		{"unknown format with jq", Options{Format: "csv", JQ: "."}, `"csv"`},
		{"jq with template", Options{JQ: ".", Template: "{{.}}"}, "--jq and --template"},
		{"jq that does not parse", Options{JQ: ".users[ | "}, "parse --jq"},
		{"jq with an unknown function", Options{JQ: "nosuchfunction(1)"}, "compile --jq"},
		{"jq with an undefined variable", Options{JQ: "$nope"}, "compile --jq"},
		{"template that does not parse", Options{Template: "{{.name"}, "parse --template"},
		{"template with an unknown function", Options{Template: "{{nosuch .}}"}, "parse --template"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.opts)
			if err == nil {
				t.Fatalf("New(%+v) = %T, want an error", tt.opts, p)
			}
			if !errors.Is(err, ErrInvalidOptions) {
				t.Errorf("error %q does not wrap ErrInvalidOptions", err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tt.wantMsg)
			}
		})
	}
}

func TestNew_choosesPrinter(t *testing.T) {
	doc := Document{
		Raw:    []byte(`{"users":[{"name":"users/a@x.com"}]}`),
		Tables: []Table{{Headers: []string{"NAME"}, Rows: [][]string{{"users/a@x.com"}}}},
		Names:  []string{"users/a@x.com"},
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"empty format is table", Options{}, "NAME\nusers/a@x.com\n"},
		{"table", Options{Format: "table"}, "NAME\nusers/a@x.com\n"},
		{"json", Options{Format: "json"}, "{\n  \"users\": [\n    {\n      \"name\": \"users/a@x.com\"\n    }\n  ]\n}\n"},
		{"yaml", Options{Format: "yaml"}, "users:\n  - name: users/a@x.com\n"},
		{"name", Options{Format: "name"}, "users/a@x.com\n"},
		{"jq overrides format", Options{Format: "yaml", JQ: ".users[0].name"}, "users/a@x.com\n"},
		{"template overrides format", Options{Format: "json", Template: "{{range .users}}{{.name}}{{end}}"}, "users/a@x.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, tt.opts, doc, tt.want)
		})
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestPrint_reportsWriteErrors(t *testing.T) {
	doc := Document{
		Raw:    []byte(`{"users":[{"name":"a"}]}`),
		Tables: []Table{{Headers: []string{"NAME"}, Rows: [][]string{{"a"}}}},
		Names:  []string{"a"},
	}
	for _, opts := range []Options{
		{}, {Format: "json"}, {Format: "yaml"}, {Format: "name"}, {JQ: ".users"}, {Template: "{{.users}}"},
	} {
		p, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Print(context.Background(), failingWriter{}, doc); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%+v: Print to a failing writer = %v, want the write error", opts, err)
		}
	}
}

func TestPrint_invalidDocumentFailsTheFormatsThatReadItsTables(t *testing.T) {
	invalid := errors.New("the answer is not a list of users")
	doc := Document{Raw: []byte(`{"users":"x"}`), Tables: []Table{{Headers: []string{"NAME"}}}, Names: []string{}, Invalid: invalid}
	for _, opts := range []Options{{}, {Format: "wide", TTY: true}, {Format: "markdown"}, {Format: "name"}, {Format: "name", FormatIsDefault: true}} {
		got, err := render(t, opts, doc)
		if !errors.Is(err, invalid) || got != "" {
			t.Errorf("%+v: printed %q, error %v; want nothing and the document's error", opts, got, err)
		}
		if !opts.ReadsTables() {
			t.Errorf("%+v: ReadsTables is false", opts)
		}
	}
	for _, opts := range []Options{{Format: "json"}, {Format: "jsonl"}, {Format: "yaml"}, {JQ: ".users"}, {Template: "{{.users}}"}} {
		got, err := render(t, opts, doc)
		if err != nil || !strings.Contains(got, "x") {
			t.Errorf("%+v: printed %q, error %v; want the document", opts, got, err)
		}
		if opts.ReadsTables() {
			t.Errorf("%+v: ReadsTables is true", opts)
		}
	}
}
