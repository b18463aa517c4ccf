package devserver

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// listAll follows a list's pages from path, asking pageSize items a page,
// and returns the names of the items of field and the size of each page.
func listAll(t *testing.T, s *Server, path, field, pageSize string) (names []string, sizes []int) {
	t.Helper()
	token := ""
	for {
		q := url.Values{"pageToken": {token}}
		if pageSize != "" {
			q.Set("pageSize", pageSize)
		}
		sep := map[bool]string{false: "?", true: "&"}[strings.Contains(path, "?")]
		r := call(t, s, http.MethodGet, path+sep+q.Encode(), adminToken, "")
		wantStatus(t, r, http.StatusOK)
		var page struct{ NextPageToken string }
		r.decode(t, &page)
		items, _ := r.json(t)[field].([]any)
		for _, it := range items {
			names = append(names, it.(map[string]any)["name"].(string))
		}
		if sizes = append(sizes, len(items)); page.NextPageToken == "" || len(sizes) > 2000 {
			return names, sizes
		}
		token = page.NextPageToken
	}
}

func TestLists_pageAsTheServiceDoes(t *testing.T) {
	s := newGenerated(t, GenerateOptions{Databases: 1005})
	fleet := "/v1/instances/" + FleetInstance + "/databases"
	tests := []struct {
		name, pageSize string
		sizes          []int
	}{
		{"10 a page when not asked", "", slices.Repeat([]int{10}, 100)},
		{"as asked", "400", []int{400, 400, 205}},
		{"not positive is 10", "-3", slices.Repeat([]int{10}, 100)},
		{"at most 1000", "5000", []int{1000, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names, sizes := listAll(t, s, fleet, "databases", tt.pageSize)
			want := tt.sizes
			if len(want) == 100 {
				want = append(want, 5)
			}
			if !slices.Equal(sizes, want) {
				t.Errorf("page sizes %v, want %v", sizes, want)
			}
			if len(slices.Compact(slices.Clone(names))) != 1005 || !slices.IsSorted(names) || names[0] != fleetDatabase(1) {
				t.Errorf("%d names from %v to %v", len(names), names[0], names[len(names)-1])
			}
		})
	}
	for _, q := range []string{"pageToken=nope", "pageToken=" + base64.StdEncoding.EncodeToString([]byte("-1")), "pageSize=ten"} {
		wantError(t, call(t, s, http.MethodGet, fleet+"?"+q, adminToken, ""), 400, codeInvalidArgument, "invalid page")
	}
}

func fleetDatabase(i int) string {
	return fmt.Sprintf("instances/%s/databases/db%04d", FleetInstance, i)
}

func TestLists_answerWhatEachParentHolds(t *testing.T) {
	s := newDemo(t)
	tests := []struct {
		path, field string
		want        []string
	}{
		{"/v1/instances", "instances", []string{"instances/prod-pg", "instances/staging-mysql"}},
		{"/v1/instances/prod-pg/databases", "databases", []string{"instances/prod-pg/databases/inventory", ordersName}},
		{"/v1/projects/orders/databases", "databases", []string{ordersName, "instances/staging-mysql/databases/orders"}},
		{"/v1/workspaces/" + WorkspaceID + "/databases", "databases", []string{"instances/prod-pg/databases/inventory", ordersName, "instances/staging-mysql/databases/orders"}},
		{"/v1/projects/nope/databases", "databases", nil},
		{"/v1/instances/nope/databases", "databases", nil},
		{ordersPath + "/revisions", "revisions", []string{ordersName + "/revisions/2", ordersName + "/revisions/1"}},
		{ordersPath + "/revisions?showDeleted=true", "revisions", []string{ordersName + "/revisions/3", ordersName + "/revisions/2", ordersName + "/revisions/1"}},
		{ordersPath + "/changelogs", "changelogs", []string{ordersName + "/changelogs/102", ordersName + "/changelogs/101"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got, _ := listAll(t, s, tt.path, tt.field, ""); !slices.Equal(got, tt.want) {
				t.Errorf("names %q, want %q", got, tt.want)
			}
		})
	}
	r := call(t, s, http.MethodGet, "/v1/projects/orders/databases?filter="+url.QueryEscape(`name.matches("ord")`), adminToken, "")
	if wantStatus(t, r, http.StatusOK); !strings.Contains(r.body, `"instanceResource":{"engine":"MYSQL","environment":"environments/staging","name":"instances/staging-mysql","state":"ACTIVE","title":"Staging MySQL"}`) {
		t.Errorf("databases: %s", r.body)
	}
	wantError(t, call(t, newRelease(t, "3.17.0"), http.MethodGet, "/v1/workspaces/-/databases", adminToken, ""), 403, codePermissionDenied, "workspace mismatch")
}

func TestSchemaDump_readsBackWithoutDifferencesInTheFormTheReleaseDiffs(t *testing.T) {
	for _, release := range []string{"3.14.1", "3.21.1"} {
		t.Run(release, func(t *testing.T) {
			s := newRelease(t, release)
			r := call(t, s, http.MethodGet, ordersPath+"/schema", adminToken, "")
			wantStatus(t, r, http.StatusOK)
			dump, _ := r.json(t)["schema"].(string)
			r = call(t, s, http.MethodGet, ordersPath+"/sdlSchema", adminToken, "")
			wantStatus(t, r, http.StatusOK)
			sdl, err := base64.StdEncoding.DecodeString(r.json(t)["schema"].(string))
			if err != nil || !strings.HasPrefix(dump, "SET statement_timeout = 0;") || !strings.HasSuffix(dump, string(sdl)) || !strings.HasPrefix(string(sdl), "CREATE TABLE public.customers") {
				t.Fatalf("schema %q\nsdlSchema %q (%v)", dump, sdl, err)
			}
			if r = call(t, s, http.MethodPost, ordersPath+":diffSchema", adminToken, `{"schema":`+quote(string(sdl))+`}`); r.body != "{}\n" {
				t.Errorf("sdlSchema read back: %s", r.body)
			}
			r = call(t, s, http.MethodPost, ordersPath+":diffSchema", adminToken, `{"schema":`+quote(dump)+`}`)
			if release == "3.14.1" && r.body != "{}\n" {
				t.Errorf("schema read back on 3.14.1: %s", r.body)
			} else if release == "3.21.1" {
				wantError(t, r, 500, codeInternal, "SDL does not allow SELECT statements")
			}
		})
	}
	r := call(t, newDemo(t), http.MethodGet, "/v1/instances/staging-mysql/databases/orders/schema", adminToken, "")
	if wantStatus(t, r, http.StatusOK); strings.Contains(r.body, "SET ") {
		t.Errorf("a MySQL dump: %s", r.body)
	}
}
