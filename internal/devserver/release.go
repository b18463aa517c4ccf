package devserver

import (
	"fmt"
	"slices"
)

// release is a release of the service: major, minor and patch.
type release [3]int

// DefaultRelease is the release the server answers as when Options.Release is "".
const DefaultRelease = "3.14.1"

// WorkspaceID is the id of the server's one workspace, workspaces/{WorkspaceID}.
const WorkspaceID = "d3vw0rksp4c3a1b2"

// The releases from which the service answers differently on dbgov's routes,
// as service-versions reads them from the service's source at each tag;
// docs/reference-server.md lists what each changes.
var (
	sinceTokens        = release{3, 14, 0} // actuator info: replicaCount; a deactivated workload identity's exchange is 401, not 403
	sinceRestriction   = release{3, 14, 1} // actuator info: restriction
	sinceAccounts      = release{3, 15, 0} // /v1/serviceAccounts, /v1/workloadIdentities; batchGet leaves out the missing; no DATA_SOURCE_QUERY
	sinceWorkspaces    = release{3, 16, 0} // /v1/workspaces/{id}/policies; UUID changelog and revision ids; users without userType
	sinceWorkspaceName = release{3, 17, 0} // actuator workspace; users' workspace; another workspace is 403; PostgreSQL diffs through SDL
	sinceWorkspaceIdps = release{3, 17, 1} // /v1/workspaces/{id}/idps; /v1/idps answers only global providers: none
	sinceMySQLSDL      = release{3, 21, 0} // MySQL diffs through SDL
	newestRelease      = release{3, 21, 1} // the newest release the server knows; "development" answers as it
)

// parseRelease reads a release X.Y.Z from 3.13.0 on, or "development".
func parseRelease(s string) (release, error) {
	var r release
	if _, err := fmt.Sscanf(s+"\n", "%d.%d.%d\n", &r[0], &r[1], &r[2]); s == "development" {
		return newestRelease, nil
	} else if err != nil || slices.Compare(r[:], []int{3, 13, 0}) < 0 || fmt.Sprintf("%d.%d.%d", r[0], r[1], r[2]) != s {
		return release{}, fmt.Errorf("release %q is not a release of the service from 3.13.0 on, such as %s or 3.21.1", s, DefaultRelease)
	}
	return r, nil
}

// since reports whether the server's release is r or later.
func (s *Server) since(r release) bool { return slices.Compare(s.release[:], r[:]) >= 0 }

// actuatorInfo answers GET /v1/actuator/info, the fields the release has.
func (s *Server) actuatorInfo(*request) (any, *apiError) {
	info := map[string]any{"version": s.version, "gitCommit": "0000000000000000000000000000000000000000",
		"activatedInstanceCount": len(s.st.instances), "totalInstanceCount": len(s.st.instances)}
	if s.since(sinceWorkspaceName) {
		info["workspace"], info["defaultProject"] = "workspaces/"+WorkspaceID, "projects/default-"+WorkspaceID
	} else {
		info["workspaceId"] = WorkspaceID
	}
	if s.since(sinceTokens) {
		info["replicaCount"] = 1
	}
	if s.since(sinceRestriction) {
		info["restriction"] = map[string]any{"passwordRestriction": map[string]int{"minLength": 8}}
	}
	if s.since(sinceWorkspaces) {
		info["activatedUserCount"] = len(s.st.userList)
	} else {
		info["userStats"] = []map[string]any{{"userType": "USER", "state": "ACTIVE", "count": len(s.st.userList)}}
	}
	return info, nil
}
