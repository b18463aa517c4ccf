package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func TestParseRelease_readsXYZOnly(t *testing.T) {
	tests := []struct {
		in   string
		want Release
		ok   bool
	}{
		{"3.21.1", Release{3, 21, 1}, true},
		{"v3.14.0", Release{3, 14, 0}, true},
		{"3.21", Release{}, false},
		{"3.21.1.0", Release{}, false},
		{"development", Release{}, false},
		{"cloud-20260801", Release{}, false},
		{"3.021.1", Release{}, false},
		{"3.-1.1", Release{}, false},
		{"", Release{}, false},
	}
	for _, tt := range tests {
		got, err := ParseRelease(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseRelease(%q) = %v, %v; want %v, ok %t", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestRelease_hasEachChangeFromItsRelease(t *testing.T) {
	tests := []struct {
		release Release
		change  Release
		want    bool
	}{
		{Release{3, 13, 0}, SheetsBySHA256, false},
		{Release{3, 14, 0}, SheetsBySHA256, true},
		{Release{3, 14, 0}, ReleasesByID, false},
		{Release{3, 14, 1}, ReleasesByID, true},
		{Release{3, 14, 1}, AccountsApart, false},
		{Release{3, 15, 0}, AccountsApart, true},
		{Release{3, 15, 9}, WorkspacePolicies, false},
		{Release{3, 16, 0}, WorkspacePolicies, true},
		{Release{3, 17, 0}, WorkspaceIdps, false},
		{Release{3, 17, 1}, WorkspaceIdps, true},
		{Release{3, 20, 9}, SDLDiffMySQL, false},
		{Release{4, 0, 0}, SDLDiffMySQL, true},
	}
	for _, tt := range tests {
		if got := tt.release.Has(tt.change); got != tt.want {
			t.Errorf("%v.Has(%v) = %t, want %t", tt.release, tt.change, got, tt.want)
		}
	}
}

// learn makes a test client learn the service's release by asking.
func learn(o *Options) { o.ServerVersion = "" }

// serverMemory is a ServerCache in memory.
type serverMemory struct{ info []byte }

func (m *serverMemory) Get() []byte     { return m.info }
func (m *serverMemory) Put(info []byte) { m.info = info }

func TestServer_learnsTheReleaseOnceFromTheUnauthenticatedDescription(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		info      string
		version   string // Options.ServerVersion
		cached    string
		want      Release
		workspace string
		warning   string
		requests  int
	}{
		{name: "a release", status: 200, info: `{"version":"3.21.1","workspace":"workspaces/ab12cd34ef56gh78"}`, want: Release{3, 21, 1}, workspace: "ab12cd34ef56gh78", requests: 1},
		{name: "a release before 3.17 with its raw workspace id", status: 200, info: `{"version":"3.16.1","workspaceId":"b7e1"}`, want: Release{3, 16, 1}, workspace: "b7e1", requests: 1},
		{name: "newer than the newest", status: 200, info: `{"version":"3.23.0"}`, want: NewestRelease, warning: "the service's release 3.23.0 is not one dbgov knows (3.13.0 to 3.21.1); dbgov treats it as 3.21.1", requests: 1},
		{name: "older than the oldest", status: 200, info: `{"version":"3.9.2"}`, want: OldestRelease, warning: "release 3.9.2 is not one dbgov knows (3.13.0 to 3.21.1); dbgov treats it as 3.13.0", requests: 1},
		{name: "a development build told by its fields", status: 200, info: `{"version":"development","workspace":"workspaces/x","restriction":{},"replicaCount":1,"activeVcsUserCount":2}`, want: NewestRelease, workspace: "x", requests: 1},
		{name: "a build before 3.17 told by its fields", status: 200, info: `{"version":"development","workspaceId":"x","replicaCount":1,"restriction":{},"activatedUserCount":3}`, want: Release{3, 16, 0}, workspace: "x", requests: 1},
		{name: "a 3.14 build told by its fields", status: 200, info: `{"version":"cloud-20250101","workspaceId":"x","replicaCount":1,"userStats":[{}]}`, want: Release{3, 14, 0}, workspace: "x", requests: 1},
		{name: "a 3.13 build told by its fields", status: 200, info: `{"version":"development","workspaceId":"x","needAdminSetup":true,"userStats":[{}]}`, want: Release{3, 13, 0}, workspace: "x", requests: 1},
		{name: "a service asking for credentials is newer", status: 401, info: `{"code":16,"message":"unauthenticated"}`, want: NewestRelease, warning: "(not told without credentials)", requests: 1},
		{name: "said by the user", version: "3.15.0", want: Release{3, 15, 0}},
		{name: "kept from an earlier run", cached: `{"version":"3.14.1"}`, want: Release{3, 14, 1}},
		{name: "a cache that holds no description", cached: `[1]`, status: 200, info: `{"version":"3.17.0"}`, want: Release{3, 17, 0}, requests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeService(t, answerWith(tt.status, tt.info))
			var warnings []string
			cache := &serverMemory{info: []byte(tt.cached)}
			c := newTestClient(t, srv.URL, func(o *Options) {
				o.ServerVersion, o.ServerCache = tt.version, cache
				o.Warn = func(msg string) { warnings = append(warnings, msg) }
			})
			var wg sync.WaitGroup
			for range 3 { // callers at once still ask once
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := c.Server(context.Background()); err != nil {
						t.Errorf("Server: %v", err)
					}
				}()
			}
			wg.Wait()
			s, _ := c.Server(context.Background())
			if s.Release != tt.want || s.Workspace != tt.workspace {
				t.Errorf("release %v, workspace %q; want %v, %q", s.Release, s.Workspace, tt.want, tt.workspace)
			}
			reqs := srv.Requests()
			if len(reqs) != tt.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tt.requests)
			}
			for _, r := range reqs {
				if r.EscapedPath != "/v1/actuator/info" || r.Header.Get("Authorization") != "" {
					t.Errorf("sent %s %s with Authorization %q", r.Method, r.EscapedPath, r.Header.Get("Authorization"))
				}
			}
			if tt.status == 200 && string(cache.info) != tt.info {
				t.Errorf("cache holds %s, want the answer", cache.info)
			}
			if len(warnings) > 1 || (tt.warning == "") != (len(warnings) == 0) || tt.warning != "" && !strings.Contains(warnings[0], tt.warning) {
				t.Errorf("warnings %q, want one holding %q", warnings, tt.warning)
			}
		})
	}
}

func TestServer_failsWithTheReasonAndSaysItCannotLearnTheRelease(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"a proxy that does not forward it", 404, `<html>not here</html>`, "404"},
		{"not a description", 200, `{"name":"x"}`, "does not describe the service"},
		{"not JSON", 200, `nope`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeService(t, answerWith(tt.status, tt.body))
			_, err := newTestClient(t, srv.URL, learn).Server(context.Background())
			if err == nil || !strings.Contains(err.Error(), "cannot learn the service's release: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one saying the release cannot be learnt, holding %q", err, tt.want)
			}
		})
	}
}

func TestWorkspace_asksWhoAmIWhenTheDescriptionNamesNone(t *testing.T) {
	srv := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch r.URL.Path {
		case "/v1/actuator/info":
			answer(w, 200, `{"version":"3.21.1"}`)
		case "/v1/users/me":
			answer(w, 200, `{"name":"users/a@x.com","workspace":"workspaces/w1"}`)
		}
	})
	c := newTestClient(t, srv.URL, learn)
	for range 2 {
		if id, err := c.Workspace(context.Background()); id != "w1" || err != nil {
			t.Fatalf("Workspace = %q, %v", id, err)
		}
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want the description and users/me once", n)
	}
}

var ctx = context.Background()

func TestReleases_routeEachCallWhereTheReleaseServesIt(t *testing.T) {
	ws := "ab12cd34ef56gh78"
	tests := []struct {
		release string
		call    func(c *Client) error
		want    string // the path of the last request; "" when refused before sending
	}{
		{"3.14.1", func(c *Client) error {
			_, _, err := c.ListPolicies(ctx, PolicyParent{}, ListPoliciesOptions{})
			return err
		}, "/v1/policies"},
		{"3.16.0", func(c *Client) error {
			_, _, err := c.ListPolicies(ctx, PolicyParent{}, ListPoliciesOptions{})
			return err
		}, "/v1/workspaces/" + ws + "/policies"},
		{"3.21.1", func(c *Client) error {
			_, _, err := c.ListPolicies(ctx, PolicyParent{}, ListPoliciesOptions{})
			return err
		}, "/v1/workspaces/" + ws + "/policies"},
		{"3.21.1", func(c *Client) error {
			_, _, err := c.ListPolicies(ctx, PolicyParent{Project: "p"}, ListPoliciesOptions{})
			return err
		}, "/v1/projects/p/policies"},
		{"3.14.1", func(c *Client) error {
			_, _, err := c.ListPolicies(ctx, PolicyParent{Project: "p"}, ListPoliciesOptions{PolicyType: PolicyTypeDataSourceQuery})
			return err
		}, "/v1/projects/p/policies"},
		{"3.15.0", func(c *Client) error {
			_, _, err := c.ListPolicies(ctx, PolicyParent{Project: "p"}, ListPoliciesOptions{PolicyType: PolicyTypeDataSourceQuery})
			return err
		}, ""},
		{"3.17.0", func(c *Client) error { _, _, err := c.ListIdentityProviders(ctx); return err }, "/v1/idps"},
		{"3.17.1", func(c *Client) error { _, _, err := c.ListIdentityProviders(ctx); return err }, "/v1/workspaces/" + ws + "/idps"},
	}
	for _, tt := range tests {
		t.Run(tt.release+" "+tt.want, func(t *testing.T) {
			srv := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				answer(w, 200, `{"version":"`+tt.release+`","workspace":"workspaces/`+ws+`"}`)
			})
			err := tt.call(newTestClient(t, srv.URL, learn))
			reqs := srv.Requests()
			if tt.want == "" {
				if !errors.Is(err, ErrInvalidRequest) || len(reqs) != 1 {
					t.Errorf("err %v after %d requests, want ErrInvalidRequest after the description", err, len(reqs))
				}
				return
			}
			if got := reqs[len(reqs)-1].EscapedPath; err != nil || got != tt.want {
				t.Errorf("sent %s (%v), want %s", got, err, tt.want)
			}
		})
	}
}

func TestNameProblem_namesTakeTheFormOfTheRelease(t *testing.T) {
	sha := strings.Repeat("ab12", 16)
	uuid := "0b9c3a52-5d7e-4b6f-9a51-1f0e2d3c4b5a"
	tests := []struct {
		release    Release
		kind, id   string
		wantReason string // "" when the id fits
	}{
		{Release{3, 13, 0}, "sheet", "101", ""},
		{Release{3, 13, 0}, "sheet", sha, "before 3.14.0, a sheet is named by a number"},
		{Release{3, 14, 0}, "sheet", sha, ""},
		{Release{3, 14, 1}, "sheet", "101", "from 3.14.0, a sheet is named by the SHA-256"},
		{Release{3, 14, 0}, "release", "v1.2", "before 3.14.1, a release is named by a number"},
		{Release{3, 14, 1}, "release", "v1.2", ""},
		{Release{3, 15, 0}, "changelog", "101", ""},
		{Release{3, 15, 0}, "changelog", uuid, "before 3.16.0, a changelog is named by a number"},
		{Release{3, 16, 0}, "changelog", "101", "from 3.16.0, a changelog is named by a UUID"},
		{Release{3, 21, 1}, "revision", uuid, ""},
		{Release{3, 21, 1}, "file", "x", ""},
	}
	for _, tt := range tests {
		got := tt.release.NameProblem(tt.kind, tt.id)
		if (tt.wantReason == "") != (got == "") || !strings.Contains(got, tt.wantReason) {
			t.Errorf("%v.NameProblem(%s, %s) = %q, want %q", tt.release, tt.kind, tt.id, got, tt.wantReason)
		}
	}
}

func TestExplain_permissionsAndTokensTheReleasesTell(t *testing.T) {
	detail := `[{"@type":"type.googleapis.com/bytebase.v1.PermissionDeniedDetail","method":"/bytebase.v1.DatabaseCatalogService/UpdateDatabaseCatalog","requiredPermissions":["bb.databaseCatalogs.update","bb.databaseCatalogs.create"]}]`
	tests := []struct {
		name   string
		status int
		body   string
		token  string
		hint   string // "" for none of the client's own
	}{
		{"403 naming permissions", 403, `{"code":7,"message":"permission denied","details":` + detail + `}`, testToken, "the credentials lack the permission bb.databaseCatalogs.update, bb.databaseCatalogs.create"},
		{"403 without details", 403, `{"code":7,"message":"permission denied"}`, testToken, ""},
		{"401 of a token given", 401, `{"code":16,"message":"invalid token"}`, testToken, "upgrades across 3.14 and 3.17 invalidate older tokens"},
		{"401 of an expired token", 401, `{"code":16,"message":"token expired"}`, testToken, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeService(t, answerWith(tt.status, tt.body))
			_, err := newTestClient(t, srv.URL).Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/users/me"}, nil)
			var hinted interface{ ErrorHint() string }
			if got := errors.As(err, &hinted); got != (tt.hint != "") || got && !strings.Contains(hinted.ErrorHint(), tt.hint) {
				t.Errorf("err %v: hinted %t, want hint %q", err, got, tt.hint)
			}
		})
	}
}

func TestServer_aServiceThatCannotBeAskedHintsAtServerVersion(t *testing.T) {
	srv := newFakeService(t, answerWith(200, `{}`))
	srv.Close()
	_, err := newTestClient(t, srv.URL, learn, func(o *Options) { o.MaxRetries = -1 }).Server(ctx)
	var hinted interface{ ErrorHint() string }
	if !errors.As(err, &hinted) || !strings.Contains(hinted.ErrorHint(), "check the service URL") || !strings.Contains(hinted.ErrorHint(), "--server-version X.Y.Z") {
		t.Errorf("err %v, want the connection's hint and --server-version's", err)
	}
}
