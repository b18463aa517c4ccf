package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"text/template"

	"github.com/itchyny/gojq"

	"github.com/dbgov/dbgov/internal/jsondoc"
)

// everyFormat are the output options of each format, with a document whose
// tables and names come from a field of the answer, as commands give them.
var everyFormat = []Options{
	{}, {Format: "json"}, {Format: "yaml"}, {Format: "name"}, {JQ: ".users[]"}, {JQ: "."}, {Template: "{{.}}"},
}

func usersDoc(raw string) Document {
	return Document{
		Raw:       []byte(raw),
		ListField: "users",
		Tables:    []Table{{Headers: []string{"STATE"}, Rows: [][]string{{"ACTIVE"}}}},
		Names:     []string{"users/a"},
	}
}

func TestPrint_refusesKeysGivenTwiceOrDifferingInCase(t *testing.T) {
	for _, raw := range []string{
		`{"diff": "ALTER", "diff": ""}`,
		`{"users": [{"name": "users/a", "state": "ACTIVE", "State": "DELETED"}]}`,
		`{"users": [{"name": "users/a"}], "Users": []}`,
		`{"users": [{"name": "users/a", "profile": {"source": "a", "sourc\u0065": "b"}}]}`,
		`{"users": [], "users": [{"name": "users/a"}]}`,
	} {
		for _, opts := range everyFormat {
			out, err := render(t, opts, usersDoc(raw))
			if !errors.Is(err, jsondoc.ErrInvalid) || !strings.HasPrefix(err.Error(), "invalid response: ") {
				t.Errorf("%s, %+v: error %v, want an invalid response", raw, opts, err)
			}
			if out != "" {
				t.Errorf("%s, %+v: printed %q", raw, opts, out)
			}
		}
	}
}

func TestPrint_keysDifferingOtherwiseAreKept(t *testing.T) {
	const raw = `{"users": [{"name": "a", "names": ["n"], "NAME_": 1, "profile": {"name": "b"}}], "name": "top"}`
	printsExactly(t, Options{Format: "yaml"}, usersDoc(raw), "users:\n  - name: a\n    names:\n      - \"n\"\n    NAME_: 1\n    profile:\n      name: b\nname: top\n")
}

// hostile holds one character of each class that must not reach a
// terminal raw.
const hostile = "\x1b]52;c;ZXZpbA==\a \x1b[2J \x00 \u0085 \u009b \u202e \u2066 \u2069 \u2028 \u200b \ufeff \u2060"

// escaped is hostile as a terminal shows it: in text, and in JSON.
const (
	escapedText = `\x1b]52;c;ZXZpbA==\x07 \x1b[2J \x00 \u0085 \u009b \u202e \u2066 \u2069 \u2028 \u200b \ufeff \u2060`
	escapedJSON = `\u001b]52;c;ZXZpbA==\u0007 \u001b[2J \u0000 \u0085 \u009b \u202e \u2066 \u2069 \u2028 \u200b \ufeff \u2060`
)

func TestPrint_escapesOnATerminalOnly(t *testing.T) {
	const raw = `{"users": [{"name": "users/a", "title": "` + "\\u001b]52;c;ZXZpbA==\\u0007 \\u001b[2J \\u0000 \u0085 \u009b \u202e \u2066 \u2069 \\u2028 \u200b \ufeff \u2060" + `"}]}`
	tests := []struct {
		opts           Options
		terminal, pipe string // what the output holds
	}{
		{Options{Format: "json"}, escapedJSON, "\\u001b]52;c;ZXZpbA==\\u0007 \\u001b[2J \\u0000 \u0085 \u009b \u202e \u2066 \u2069 \\u2028 \u200b \ufeff \u2060"},
		{Options{Format: "yaml"}, `\N \x9B \u202e \u2066 \u2069 \L \u200b`, "\\N \\x9B \u202e \u2066 \u2069 \\L \u200b"},
		{Options{JQ: ".users[].title"}, escapedText, hostile},
		{Options{Template: "{{range .users}}{{.title}}{{end}}"}, escapedText, hostile},
		{Options{Format: "name"}, escapedText, escapedText},
		{Options{}, escapedText, escapedText},
	}
	for _, tt := range tests {
		doc := Document{
			Raw:       []byte(raw),
			ListField: "users",
			Tables:    []Table{{Headers: []string{"TITLE"}, Rows: [][]string{{hostile}}}},
			Names:     []string{hostile},
		}
		for _, tty := range []bool{true, false} {
			opts := tt.opts
			opts.TTY = tty
			got, err := render(t, opts, doc)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.pipe
			if tty {
				want = tt.terminal
				for _, r := range got {
					if r == 0x1b || r == 0x7 || r == 0 || (r >= 0x80 && r <= 0x9f) || (r >= 0x2000 && r <= 0x206f) || r == 0xfeff {
						t.Errorf("%+v: %U reached the terminal: %q", tt.opts, r, got)
						break
					}
				}
			}
			if !strings.Contains(got, want) {
				t.Errorf("%+v, terminal %t: got %q, want it to hold %q", tt.opts, tty, got, want)
			}
		}
	}
}

func TestPrint_textOnATerminalKeepsLinesAndTabs(t *testing.T) {
	printsExactly(t, Options{JQ: ".s", TTY: true}, Document{Raw: []byte(`{"s": "a\tb\nc\r\u001b[0m"}`)}, "a\tb\nc\\r\\x1b[0m\n")
}

// cancelFunc is a jq function, or a template one, that cancels the run.
func cancelCode(t *testing.T, expr string, cancel context.CancelFunc) *gojq.Code {
	t.Helper()
	q, err := gojq.Parse(expr)
	if err != nil {
		t.Fatal(err)
	}
	code, err := gojq.Compile(q, gojq.WithFunction("cancel", 0, 0, func(v any, _ []any) any { cancel(); return v }))
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func TestPrint_jqStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("interrupted")
	p := checked{jqPrinter{code: cancelCode(t, "cancel | last(range(1e12))", func() { cancel(stop) })}}
	err := p.Print(ctx, io.Discard, Document{Raw: []byte(`{}`)})
	if !errors.Is(err, stop) {
		t.Errorf("error %v, want the context's cause", err)
	}
}

func TestPrint_templateStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("interrupted")
	// A loop of ten million writes nothing and takes seconds: Print must not
	// wait for it.
	tmpl, err := template.New("t").Funcs(template.FuncMap{"cancel": func() string { cancel(stop); return "" }}).
		Parse("{{cancel}}{{range 10000000}}{{end}}")
	if err != nil {
		t.Fatal(err)
	}
	p := checked{templatePrinter{tmpl: tmpl}}
	if err := p.Print(ctx, io.Discard, Document{Raw: []byte(`{}`)}); !errors.Is(err, stop) {
		t.Errorf("error %v, want the context's cause", err)
	}
}

func TestPrint_writesNothingOnceCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, opts := range everyFormat {
		p, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := p.Print(ctx, &out, usersDoc(`{"users": [{"name": "users/a"}]}`)); !errors.Is(err, context.Canceled) || out.Len() > 0 {
			t.Errorf("%+v: error %v, printed %q", opts, err, out.String())
		}
	}
}
