package output

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/template"
)

// templatePrinter executes a Go text/template over the document.
type templatePrinter struct {
	style
	tmpl *template.Template
}

func newTemplatePrinter(text string, s style) (Printer, error) {
	tmpl, err := template.New("--template").Funcs(templateFuncs()).Parse(text)
	if err != nil {
		return nil, FilterError{fmt.Errorf("%w: parse --template: %w", ErrInvalidOptions, err)}
	}
	return templatePrinter{style: s, tmpl: tmpl}, nil
}

// Print executes the template over doc. A template cannot watch the
// context, so it runs on its own: once ctx is done, Print returns at once
// and the template stops at its next write, which fails.
func (p templatePrinter) Print(ctx context.Context, w io.Writer, doc Document) error {
	data, err := decodeDocument(doc, p.mask)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		done <- p.output(w, false, "--template output", func(bw *bufio.Writer) error {
			if err := p.tmpl.Execute(bw, data); err != nil {
				return FilterError{fmt.Errorf("execute --template: %w", err)}
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// templateFuncs are the functions templates may call, named as gh names
// them where gh has them.
func templateFuncs() template.FuncMap {
	return template.FuncMap{
		// join SEP LIST joins the elements of LIST with SEP.
		"join": func(sep string, list any) (string, error) {
			items, err := asList("join", list)
			if err != nil {
				return "", err
			}
			parts := make([]string, len(items))
			for i, item := range items {
				parts[i] = fmt.Sprint(item)
			}
			return strings.Join(parts, sep), nil
		},
		// json VALUE renders VALUE as compact JSON.
		"json": func(v any) (string, error) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				return "", fmt.Errorf("json: %w", err)
			}
			return strings.TrimSuffix(buf.String(), "\n"), nil
		},
		// pluck FIELD LIST takes FIELD from every object of LIST.
		"pluck": func(field string, list any) ([]any, error) {
			items, err := asList("pluck", list)
			if err != nil {
				return nil, err
			}
			var out []any
			for _, item := range items {
				if m, ok := item.(map[string]any); ok {
					if v, ok := m[field]; ok {
						out = append(out, v)
					}
				}
			}
			return out, nil
		},
		// truncate N TEXT shortens TEXT to N characters, ending in "…".
		"truncate": func(n int, s string) string {
			r := []rune(s)
			switch {
			case n < 1:
				return ""
			case len(r) <= n:
				return s
			}
			return string(r[:n-1]) + "…"
		},
		"upper": strings.ToUpper,
		"lower": strings.ToLower,
	}
}

// asList is v, a list of the document or nothing, as the elements fn works on.
func asList(fn string, v any) ([]any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return v, nil
	}
	return nil, fmt.Errorf("%s: want a list, got %T", fn, v)
}
