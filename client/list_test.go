package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"encoding/json"

	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestList_followsPagesUntilTheEndOrTheLimit(t *testing.T) {
	pages := []struct{ query, body string }{
		{"filter=name.contains%28%22a%22%29&pageSize=1000", `{"databases":[{"name":"instances/i/databases/a"},{"name":"instances/i/databases/b"}],"nextPageToken":"t1"}`},
		{"filter=name.contains%28%22a%22%29&pageSize=1000&pageToken=t1", `{"nextPageToken":"t2","databases":[{"name":"instances/i/databases/c"}]}`},
		{"filter=name.contains%28%22a%22%29&pageSize=1000&pageToken=t2", `{"databases":[{"name":"instances/i/databases/d"}]}`},
	}
	tests := []struct {
		name     string
		limit    int
		requests int
		want     []string // the items of each page, joined by " "
		queries  []string
	}{
		{name: "no limit: every page", requests: 3, want: []string{"a b", "c", "d"}},
		{name: "limit inside a page: stops there and asks for no more", limit: 1, requests: 1, want: []string{"a"},
			queries: []string{"filter=name.contains%28%22a%22%29&pageSize=1"}},
		{name: "limit at a page's end: asks for what is left", limit: 3, requests: 2, want: []string{"a b", "c"},
			queries: []string{"filter=name.contains%28%22a%22%29&pageSize=3", "filter=name.contains%28%22a%22%29&pageSize=1&pageToken=t1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			for i := range tt.requests {
				q := pages[i].query
				if tt.queries != nil {
					q = tt.queries[i]
				}
				reg.Register(http.MethodGet, "/v1/instances/i/databases", http.StatusOK, pages[i].body).Query(q).Times(1)
			}
			r, err := ListCall("databases", `name.contains("a")`, "instances", "i")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			err = newTestClient(t, reg.URL()).List(context.Background(), r, "databases", tt.limit, func(field string, items []json.RawMessage) error {
				var names []string
				for _, it := range items {
					names = append(names, strings.TrimSuffix(strings.TrimPrefix(string(it), `{"name":"instances/i/databases/`), `"}`))
				}
				got = append(got, field+":"+strings.Join(names, " "))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.want {
				tt.want[i] = "databases:" + tt.want[i]
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("pages %q, want %q", got, tt.want)
			}
		})
	}
}

func TestList_refusesPagesThatCannotBeRead(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"not an object", `[1]`, "not a JSON object"},
		{"list not an array", `{"databases":"x"}`, "field databases holds no JSON array"},
		{"token not a string", `{"databases":[],"nextPageToken":1}`, "nextPageToken holds no JSON string"},
		{"token repeats itself", `{"databases":[{}],"nextPageToken":"same"}`, "would never end"},
		{"key given twice", `{"databases":[],"databases":[]}`, "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/instances", http.StatusOK, tt.body)
			r := &Request{Method: http.MethodGet, Path: "/v1/instances", RawQuery: "pageToken=same"}
			err := newTestClient(t, reg.URL()).List(context.Background(), r, "databases", 0, func(string, []json.RawMessage) error { return nil })
			var invalid *InvalidResponseError
			if !errors.As(err, &invalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want an invalid response saying %q", err, tt.want)
			}
		})
	}
}

func TestList_findsTheFirstListWhenNoFieldIsNamed(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/users", http.StatusOK, `{"total":2,"users":[{"name":"users/a"}],"nextPageToken":"n"}`).Query("pageSize=5").Times(1)
	reg.Register(http.MethodGet, "/v1/users", http.StatusOK, `{"users":[{"name":"users/b"}]}`).Query("pageSize=5&pageToken=n").Times(1)
	r, _ := NewRawRequest(http.MethodGet, "/v1/users?pageSize=5", nil)
	var got []string
	err := newTestClient(t, reg.URL()).List(context.Background(), r, "", 0, func(field string, items []json.RawMessage) error {
		got = append(got, field+":"+string(items[0]))
		return nil
	})
	if want := `users:{"name":"users/a"} users:{"name":"users/b"}`; err != nil || strings.Join(got, " ") != want {
		t.Errorf("pages %q, %v; want %s", got, err, want)
	}
}
