package devserver

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestActuatorInfo_answersTheReleaseInItsShapeWithoutCredentials(t *testing.T) {
	tests := []struct {
		release     string
		has, lacks  []string
		workspaceID any
	}{
		{"3.13.0", []string{"workspaceId", "userStats"}, []string{"workspace", "replicaCount", "restriction", "activatedUserCount"}, WorkspaceID},
		{"3.14.1", []string{"workspaceId", "userStats", "replicaCount", "restriction"}, []string{"workspace", "activatedUserCount"}, WorkspaceID},
		{"3.16.0", []string{"workspaceId", "activatedUserCount"}, []string{"workspace", "userStats"}, WorkspaceID},
		{"3.17.1", []string{"workspace", "defaultProject", "activatedUserCount"}, []string{"workspaceId", "userStats"}, nil},
		{"3.21.1", []string{"workspace", "defaultProject", "restriction"}, []string{"workspaceId"}, nil},
		{"development", []string{"workspace"}, []string{"workspaceId"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.release, func(t *testing.T) {
			r := call(t, newRelease(t, tt.release), http.MethodGet, "/v1/actuator/info", "", "")
			wantStatus(t, r, http.StatusOK)
			doc := r.json(t)
			if doc["version"] != tt.release || doc["workspaceId"] != tt.workspaceID {
				t.Errorf("version %v, workspaceId %v", doc["version"], doc["workspaceId"])
			}
			for _, k := range tt.has {
				if doc[k] == nil {
					t.Errorf("%s lacks %s: %s", tt.release, k, r.body)
				}
			}
			for _, k := range tt.lacks {
				if doc[k] != nil {
					t.Errorf("%s has %s: %s", tt.release, k, r.body)
				}
			}
		})
	}
	if _, err := New(Options{Release: "3.12.9"}); err == nil || !strings.Contains(err.Error(), "3.13.0") {
		t.Errorf("New with release 3.12.9: %v", err)
	}
}

func TestRelease_eachRouteAnswersAsTheReleaseDoes(t *testing.T) {
	ws := "/v1/workspaces/" + WorkspaceID
	tests := []struct {
		name, release, method, path, body string
		status                            int
		has, lacks                        []string
	}{
		{"workspace policies before 3.16", "3.14.1", "GET", "/v1/policies", "", 200, []string{`"name":"policies/data_query"`}, nil},
		{"workspace policies moved in 3.16", "3.16.0", "GET", "/v1/policies", "", 404, nil, nil},
		{"workspace policies from 3.16", "3.21.1", "GET", ws + "/policies", "", 200, []string{`"name":"workspaces/` + WorkspaceID + `/policies/data_query"`}, []string{"timeout", "maximumResultSize"}},
		{"another workspace matches nothing on 3.16", "3.16.1", "GET", "/v1/workspaces/-/policies", "", 200, []string{"{}"}, nil},
		{"another workspace is refused from 3.17", "3.17.0", "GET", "/v1/workspaces/-/policies", "", 403, []string{"workspace mismatch"}, nil},
		{"DATA_SOURCE_QUERY before 3.15", "3.14.1", "GET", "/v1/environments/prod/policies?policyType=DATA_SOURCE_QUERY", "", 200, []string{"data_source_query"}, nil},
		{"DATA_SOURCE_QUERY gone in 3.15", "3.15.0", "GET", "/v1/environments/prod/policies?policyType=DATA_SOURCE_QUERY", "", 400, []string{`invalid policyType \"DATA_SOURCE_QUERY\"`}, nil},
		{"no DATA_SOURCE_QUERY listed from 3.15", "3.15.0", "GET", "/v1/environments/prod/policies", "", 200, []string{"rollout"}, []string{"data_source_query"}},
		{"database policies before 3.15", "3.14.1", "GET", ordersPath + "/policies", "", 200, []string{"masking_rule"}, nil},
		{"database policies refused from 3.15", "3.21.1", "GET", ordersPath + "/policies", "", 400, []string{"unknown request name " + ordersName}, nil},
		{"idps of /v1/idps until 3.17.1", "3.17.0", "GET", "/v1/idps", "", 200, []string{"idps/google"}, nil},
		{"no workspace idps route before 3.17.1", "3.17.0", "GET", ws + "/idps", "", 404, nil, nil},
		{"/v1/idps empty from 3.17.1", "3.17.1", "GET", "/v1/idps", "", 200, []string{"{}"}, []string{"idps/google"}},
		{"workspace idps from 3.17.1", "3.21.1", "GET", ws + "/idps", "", 200, []string{"idps/google"}, nil},
		{"batchGet fails on a missing user before 3.15", "3.14.1", "GET", "/v1/users:batchGet?names=users/alice@example.com&names=users/ghost@example.com", "", 404, []string{"ghost@example.com"}, nil},
		{"batchGet leaves out the missing from 3.15", "3.15.0", "GET", "/v1/users:batchGet?names=users/ghost@example.com&names=users/Bob@example.com&names=users/alice@example.com", "", 200,
			[]string{`"users":[{"name":"users/alice@example.com"`, `"users/bob@example.com"`}, []string{"ghost"}},
		{"batchGet refuses a service account's email from 3.15", "3.15.0", "GET", "/v1/users:batchGet?names=users/alice@example.com&names=users/release-bot@service.bytebase.com", "", 400,
			[]string{"email for end users cannot end with service.bytebase.com"}, nil},
		{"batchGet leaves out service accounts from 3.15", "3.15.0", "GET", "/v1/users:batchGet?names=users/ci-bot@example.com", "", 200, []string{"{}"}, nil},
		{"batchGet of a service account before 3.15", "3.14.1", "GET", "/v1/users:batchGet?names=users/release-bot@service.bytebase.com", "", 200, []string{`"userType":"SERVICE_ACCOUNT"`}, nil},
		{"userType until 3.16", "3.15.0", "GET", "/v1/users/me", "", 200, []string{`"userType":"USER"`}, []string{"workspace"}},
		{"no userType from 3.16", "3.16.0", "GET", "/v1/users/me", "", 200, []string{`"email":"admin@example.com"`}, []string{"userType", "workspace"}},
		{"users' workspace from 3.17", "3.17.0", "GET", "/v1/users/me", "", 200, []string{`"workspace":"workspaces/` + WorkspaceID + `"`}, []string{"userType"}},
		{"no service account route before 3.15", "3.14.1", "GET", "/v1/serviceAccounts/release-bot@service.bytebase.com", "", 404, nil, nil},
		{"a service account from 3.15", "3.15.0", "GET", "/v1/serviceAccounts/release-bot@service.bytebase.com", "", 200,
			[]string{`"name":"serviceAccounts/release-bot@service.bytebase.com"`, `"state":"DELETED"`}, []string{"userType"}},
		{"a workload identity from 3.15", "3.21.1", "GET", "/v1/workloadIdentities/deploy@workload.bytebase.com", "", 200,
			[]string{`"name":"workloadIdentities/deploy@workload.bytebase.com"`, `"subjectPattern":"repo:example-org/orders:*"`}, nil},
		{"a service account's email ends with service.bytebase.com", "3.21.1", "GET", "/v1/serviceAccounts/ci-bot@example.com", "", 400,
			[]string{`invalid service account email \"ci-bot@example.com\": email must end with service.bytebase.com`}, nil},
		{"an unknown service account", "3.21.1", "GET", "/v1/serviceAccounts/ghost@service.bytebase.com", "", 404, []string{`service account \"ghost@service.bytebase.com\" not found`}, nil},
		{"a service account is a user before 3.15", "3.14.1", "POST", "/v1/users/release-bot@service.bytebase.com:undelete", `{"name":"users/release-bot@service.bytebase.com"}`, 200, []string{`"state":"ACTIVE"`}, nil},
		{"a service account is no user from 3.15", "3.15.0", "POST", "/v1/users/release-bot@service.bytebase.com:undelete", `{"name":"users/release-bot@service.bytebase.com"}`, 400,
			[]string{"email for end users cannot end with service.bytebase.com"}, nil},
		{"a service account's own undelete", "3.15.0", "POST", "/v1/serviceAccounts/release-bot@service.bytebase.com:undelete", `{"name":"serviceAccounts/release-bot@service.bytebase.com"}`, 200,
			[]string{`"name":"serviceAccounts/release-bot@service.bytebase.com"`, `"state":"ACTIVE"`}, nil},
		{"a workload identity's own undelete", "3.21.1", "POST", "/v1/workloadIdentities/retired@workload.bytebase.com:undelete", `{"name":"workloadIdentities/retired@workload.bytebase.com"}`, 200, []string{`"state":"ACTIVE"`}, nil},
		{"an active workload identity", "3.21.1", "POST", "/v1/workloadIdentities/deploy@workload.bytebase.com:undelete", `{"name":"workloadIdentities/deploy@workload.bytebase.com"}`, 400,
			[]string{`workload identity \"deploy@workload.bytebase.com\" is already active`}, nil},
		{"numeric changelog ids before 3.16", "3.15.0", "POST", diffPath, `{"name":"` + ordersName + `/changelogs/101","changelog":"` + ordersName + `/changelogs/102"}`, 200, []string{"phone"}, nil},
		{"numeric changelog ids stop resolving in 3.16", "3.16.0", "POST", diffPath, `{"name":"` + ordersName + `/changelogs/101","changelog":"` + ordersName + `/changelogs/102"}`, 404, nil, nil},
		{"numeric revision ids before 3.16", "3.14.1", "POST", batchPath, `{"requests":[` + revisionRequest(ordersName, "VERSIONED", "9.0.0", "") + `]}`, 200, []string{`/revisions/4"`}, nil},
		{"UUID revision ids from 3.16", "3.16.0", "POST", batchPath, `{"requests":[` + revisionRequest(ordersName, "VERSIONED", "9.0.0", "") + `]}`, 200, []string{`/revisions/`}, []string{`/revisions/4"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, newRelease(t, tt.release), tt.method, tt.path, adminToken, tt.body)
			if r.status != tt.status {
				t.Errorf("%s %s on %s: status %d, want %d; body %s", tt.method, tt.path, tt.release, r.status, tt.status, r.body)
			}
			for _, s := range tt.has {
				if !strings.Contains(r.body, s) {
					t.Errorf("body lacks %s: %s", s, r.body)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(r.body, s) {
					t.Errorf("body holds %s: %s", s, r.body)
				}
			}
		})
	}
}

func TestRelease_changelogAndRevisionIDsAreUUIDsFrom316(t *testing.T) {
	s := newRelease(t, "3.16.0")
	name := oldestChangelog(s, ordersName)
	id := name[strings.LastIndexByte(name, '/')+1:]
	if len(id) != 36 || strings.Count(id, "-") != 4 || id[14] != '4' {
		t.Fatalf("changelog id %q is not a UUID", id)
	}
	if name != oldestChangelog(newRelease(t, "3.21.1"), ordersName) {
		t.Errorf("the demo changelogs' UUIDs differ between servers")
	}
	r := call(t, s, http.MethodPost, "/v1/"+name+":diffSchema", adminToken, `{"name":"`+name+`","changelog":"`+name+`"}`)
	wantStatus(t, r, http.StatusOK)
	s.mu.Lock()
	revisions := slices.Clone(s.st.instances["prod-pg"].databases["orders"].revisions)
	s.mu.Unlock()
	if rev := revisions[0].Name; strings.HasSuffix(rev, "/revisions/1") || len(rev) != len(ordersName+"/revisions/")+36 {
		t.Errorf("seeded revision name %q", rev)
	}
}
