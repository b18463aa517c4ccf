package output

import (
	"errors"
	"strings"
	"testing"

	"encoding/json"
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
	items := Items(func(page func(string, []json.RawMessage) error) error {
		*asked++
		for _, p := range pages {
			var items []json.RawMessage
			for _, it := range p {
				items = append(items, json.RawMessage(it))
			}
			if err := page("users", items); err != nil {
				return err
			}
		}
		return fail
	})
	return listedItems.ItemsDocument("users", "users/", items)
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
		{Options{Format: "markdown"}, pages, "| NAME    |\n|:--------|\n| users/a |\n| users/b |\n| users/c |\n"},
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

func TestPrint_listTableIsLaidOutPageByPage(t *testing.T) {
	asked := 0
	got, err := render(t, Options{}, pagesDoc([][]string{{`{"name":"users/a"}`}, {`{"name":"users/bbbbbbbbbb"}`, `{"name":"users/c"}`}}, nil, &asked))
	if want := "NAME\nusers/a\nusers/bbbbbbbbbb\nusers/c\n"; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

func TestWhole_readsEveryPage(t *testing.T) {
	asked := 0
	// The items are kept as they came: not escaped for HTML, nor re-spaced.
	doc, err := Whole(listedItems.ItemsDocument("users", "users/", pagesDoc([][]string{{`{"name":"users/a"}`}, {`{"name":"users/b", "title": "<R&D> caf\u00e9"}`}}, nil, &asked).Items))
	if want := `{"users":[{"name":"users/a"},{"name":"users/b", "title": "<R&D> caf\u00e9"}]}`; err != nil || string(doc.Raw) != want || strings.Join(doc.Names, " ") != "users/a users/b" {
		t.Errorf("raw %s, names %q, %v; want %s", doc.Raw, doc.Names, err, want)
	}
}
