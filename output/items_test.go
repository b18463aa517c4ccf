package output

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

type listed struct {
	Name string `json:"name"`
	Key  string `json:"serviceKey"`
}

var listedItems = List[listed]{
	Columns: []Column[listed]{{Header: "NAME", Kind: Name, Value: func(l *listed) string { return l.Name }}},
	Name:    func(l *listed) string { return l.Name },
}

// pagesDoc is a document of a list given as pages of items, failing with
// fail after them when it is not nil; asked counts the times it is read.
func pagesDoc(pages [][]string, fail error, asked *int) Document {
	items := Items(func(page func(string, []jsontext.Value) error) error {
		*asked++
		for _, p := range pages {
			var items []jsontext.Value
			for _, it := range p {
				items = append(items, jsontext.Value(it))
			}
			if err := page("users", items); err != nil {
				return err
			}
		}
		return fail
	})
	return Document{ListField: "users", Items: items, Tables: func() []Table { return []Table{listedItems.ItemsTable(items, "users/")} }}
}

func TestPrint_listGivenPageByPage(t *testing.T) {
	pages := [][]string{{`{"name":"users/a","serviceKey":"k1"}`, `{"name":"users/b"}`}, {`{"name":"users/c"}`}}
	tests := []struct {
		opts  Options
		pages [][]string
		want  string
	}{
		{Options{Format: "json"}, pages, "{\n  \"users\": [\n    {\n      \"name\": \"users/a\",\n      \"serviceKey\": \"********\"\n    },\n    {\n      \"name\": \"users/b\"\n    },\n    {\n      \"name\": \"users/c\"\n    }\n  ]\n}\n"},
		{Options{Format: "json"}, nil, "{\n  \"users\": []\n}\n"},
		{Options{Format: "jsonl"}, pages, `{"name":"users/a","serviceKey":"********"}` + "\n" + `{"name":"users/b"}` + "\n" + `{"name":"users/c"}` + "\n"},
		{Options{Format: "yaml"}, pages, "users:\n  - name: users/a\n    serviceKey: '********'\n  - name: users/b\n  - name: users/c\n"},
		{Options{Format: "name"}, pages, "users/a\nusers/b\nusers/c\n"},
		{Options{}, pages, "NAME\nusers/a\nusers/b\nusers/c\n"},
		{Options{}, nil, "NAME\n"},
		{Options{JQ: ".users | length"}, pages, "3\n"},
		{Options{Template: "{{range .users}}{{.name}} {{end}}"}, pages, "users/a users/b users/c "},
	}
	for _, tt := range tests {
		asked := 0
		got, err := render(t, tt.opts, pagesDoc(tt.pages, nil, &asked))
		if err != nil || got != tt.want || asked != 1 {
			t.Errorf("%+v: got %q, %v, the pages read %d times; want %q, once", tt.opts, got, err, asked, tt.want)
		}
	}
}

func TestPrint_listFailingMidwayFailsWithItsError(t *testing.T) {
	fail := errors.New("page 2: HTTP 503")
	for _, opts := range []Options{{Format: "json"}, {Format: "jsonl"}, {Format: "yaml"}, {Format: "name"}, {}, {JQ: "."}, {Template: "{{.}}"}} {
		asked := 0
		_, err := render(t, opts, pagesDoc([][]string{{`{"name":"users/a"}`}}, fail, &asked))
		if !errors.Is(err, fail) {
			t.Errorf("%+v: error %v, want %v", opts, err, fail)
		}
	}
}

func TestPrint_listTableIsLaidOutInChunks(t *testing.T) {
	var page []string
	for i := range chunkRows + 1 {
		page = append(page, `{"name":"users/`+strings.Repeat("x", i/chunkRows*5)+`u"}`)
	}
	asked := 0
	got, err := render(t, Options{}, pagesDoc([][]string{page}, nil, &asked))
	lines := strings.Split(got, "\n")
	if err != nil || len(lines) != chunkRows+3 || lines[0] != "NAME" || lines[chunkRows+1] != "users/xxxxxu" {
		t.Errorf("%d lines, first %q, last %q, %v", len(lines), lines[0], lines[len(lines)-2], err)
	}
}
