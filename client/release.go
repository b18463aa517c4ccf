package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// Release is a release of the service, such as 3.21.1.
type Release struct {
	Major, Minor, Patch int // the numbers X, Y and Z of X.Y.Z
}

// String returns the release as X.Y.Z.
func (r Release) String() string { return fmt.Sprintf("%d.%d.%d", r.Major, r.Minor, r.Patch) }

// Before reports whether r is an earlier release than o.
func (r Release) Before(o Release) bool {
	if r.Major != o.Major {
		return r.Major < o.Major
	}
	if r.Minor != o.Minor {
		return r.Minor < o.Minor
	}
	return r.Patch < o.Patch
}

// ParseRelease reads a release written X.Y.Z (a leading v is allowed).
func ParseRelease(s string) (Release, error) {
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	var n [3]int
	ok := len(parts) == 3
	for i := 0; ok && i < 3; i++ {
		var err error
		n[i], err = strconv.Atoi(parts[i])
		ok = err == nil && parts[i] == strconv.Itoa(n[i]) && n[i] >= 0
	}
	if !ok {
		return Release{}, fmt.Errorf("%w: release %q is not of the form X.Y.Z, such as 3.21.1", ErrInvalidOptions, s)
	}
	return Release{n[0], n[1], n[2]}, nil
}

// The releases dbgov knows: it works against every release between them.
var (
	OldestRelease = Release{3, 13, 0}
	NewestRelease = Release{3, 21, 1}
)

// Change is a difference between releases of the service on a route or an
// answer dbgov uses.
type Change int

// The changes dbgov follows; since says from which release each holds.
const (
	SheetsBySHA256    Change = iota // revisions name sheets projects/P/sheets/{sha256}
	ReleasesByID                    // revisions name releases by id, not number
	AccountsApart                   // service accounts and workload identities have routes of their own; users:batchGet leaves out users it lacks
	NoDataSourceQuery               // the DATA_SOURCE_QUERY policy type is gone
	WorkspacePolicies               // workspace policies are under /v1/workspaces/{id}/policies
	UUIDNames                       // revisions and changelogs are named by UUID, not number
	NoUserType                      // users carry no userType
	SDLDiffPostgres                 // a changelog compares with schema text on PostgreSQL and CockroachDB
	WorkspaceIdps                   // identity providers are under /v1/workspaces/{id}/idps
	SDLDiffMySQL                    // ... and on MySQL
)

// since is the one table of release thresholds: the release from which
// each Change holds.
var since = [...]Release{
	SheetsBySHA256:    {3, 14, 0},
	ReleasesByID:      {3, 14, 1},
	AccountsApart:     {3, 15, 0},
	NoDataSourceQuery: {3, 15, 0},
	WorkspacePolicies: {3, 16, 0},
	UUIDNames:         {3, 16, 0},
	NoUserType:        {3, 16, 0},
	SDLDiffPostgres:   {3, 17, 0},
	WorkspaceIdps:     {3, 17, 1},
	SDLDiffMySQL:      {3, 21, 0},
}

// Has reports whether the service at release r has made change c.
func (r Release) Has(c Change) bool { return !r.Before(since[c]) }

// Since returns the release from which change c holds.
func Since(c Change) Release { return since[c] }

// Server is what dbgov knows of the service it talks to.
type Server struct {
	// Version is the release as the service (or Options.ServerVersion)
	// gives it: "3.21.1", "development", "cloud-20260801".
	Version string `json:"version"`
	// Release is the release dbgov treats the service as: Version, or the
	// release the answer's fields tell, within the releases dbgov knows.
	Release Release `json:"-"`
	// GitCommit is the commit the service was built from, when it says.
	GitCommit string `json:"gitCommit,omitempty"`
	// Workspace is the service's workspace id, when its answer says.
	Workspace string `json:"workspace,omitempty"`
}

// fingerprints tell a release that is not X.Y.Z (a development or cloud
// build) by the fields of its answer: a field present means at least from,
// or earlier than before; a field written !name, that name is absent (a
// field absent means little: zero values are left out).
var fingerprints = []struct {
	field        string
	from, before Release
}{
	{field: "!replicaCount", before: Release{3, 14, 0}},
	{field: "!restriction", before: Release{3, 14, 1}},
	{field: "replicaCount", from: Release{3, 14, 0}},
	{field: "restriction", from: Release{3, 14, 1}},
	{field: "activatedUserCount", from: Release{3, 16, 0}},
	{field: "workspace", from: Release{3, 17, 0}},
	{field: "restriction.allowEmailCodeSignin", from: Release{3, 18, 0}},
	{field: "restriction.passwordResetEnabled", from: Release{3, 18, 0}},
	{field: "activeVcsUserCount", from: Release{3, 19, 0}},
	{field: "userStats", before: Release{3, 16, 0}},
	{field: "workspaceId", before: Release{3, 17, 0}},
	{field: "needAdminSetup", before: Release{3, 17, 0}},
	{field: "demo", before: Release{3, 18, 1}},
}

// fingerprint returns the newest release dbgov tells apart that the fields
// of an answer allow; a field that says "earlier" is not believed against
// one that says "at least" a later release.
func fingerprint(fields map[string]json.RawMessage) Release {
	var restriction map[string]json.RawMessage
	_ = json.Unmarshal(fields["restriction"], &restriction)
	holds := func(field string) bool {
		name, absent := strings.CutPrefix(field, "!")
		outer, inner, nested := strings.Cut(name, ".")
		_, ok := fields[outer]
		if nested {
			_, ok = restriction[inner]
		}
		return ok != absent
	}
	least, below := OldestRelease, Release{}
	for _, f := range fingerprints {
		if holds(f.field) && least.Before(f.from) {
			least = f.from
		}
	}
	for _, f := range fingerprints {
		if holds(f.field) && least.Before(f.before) && (below == Release{} || f.before.Before(below)) {
			below = f.before
		}
	}
	if below == (Release{}) {
		return NewestRelease
	}
	best := least
	for _, r := range since {
		if best.Before(r) && r.Before(below) {
			best = r
		}
	}
	return best
}

// ErrServerRelease is wrapped by the error of a command that needed the
// service's release and could not learn it.
var ErrServerRelease = errors.New("cannot learn the service's release")

// actuatorPath answers what the service is, without credentials, in every
// release dbgov knows.
const actuatorPath = "/v1/actuator/info"

// ServerCache keeps the service's answer to GET /v1/actuator/info between
// runs; Get returns nil when it holds none still fresh.
type ServerCache interface {
	Get() []byte
	Put(info []byte)
}

// Server returns what the service is: the release Options.ServerVersion
// says, else the answer of GET /v1/actuator/info (no credentials), kept in
// Options.ServerCache, asked at most once by a client. A release outside
// those dbgov knows works as the nearest, with one warning.
func (c *Client) Server(ctx context.Context) (*Server, error) {
	c.serverMu.Lock()
	defer c.serverMu.Unlock()
	if c.server != nil {
		return c.server, nil
	}
	s := &Server{Version: c.serverVersion}
	var err error
	if s.Version != "" {
		s.Release, err = ParseRelease(s.Version)
	} else if s, err = c.askServer(ctx); err != nil {
		err = fmt.Errorf("%w: %w", ErrServerRelease, err)
		if !errors.As(err, new(*TransportError)) {
			err = exitcode.WithHint(err, "say the service's release instead with --server-version X.Y.Z (or DBGOV_SERVER_VERSION)")
		}
	}
	if err != nil {
		return nil, err
	}
	switch {
	case s.Version == "":
		c.warnf("the service asks for credentials to describe itself, as releases after %s do; dbgov treats it as %s", NewestRelease, NewestRelease)
		s.Release = NewestRelease
	case NewestRelease.Before(s.Release):
		c.warnf("service release %s is newer than %s, the newest dbgov knows; dbgov treats it as %s", s.Version, NewestRelease, NewestRelease)
		s.Release = NewestRelease
	case s.Release.Before(OldestRelease):
		c.warnf("service release %s is older than %s, the oldest dbgov knows; dbgov treats it as %s", s.Version, OldestRelease, OldestRelease)
		s.Release = OldestRelease
	}
	c.server = s
	return s, nil
}

// askServer reads the answer of GET /v1/actuator/info from the cache, else
// from the service; a service that wants credentials for it (releases after
// those dbgov knows) is a Server without a Version.
func (c *Client) askServer(ctx context.Context) (*Server, error) {
	if c.serverCache != nil {
		if s, ok := parseServer(c.serverCache.Get()); ok {
			return s, nil
		}
	}
	raw, err := c.Send(ctx, &Request{Method: http.MethodGet, Path: actuatorPath, NoAuth: true}, nil)
	var api *APIError
	if errors.As(err, &api) && api.HTTPStatus == http.StatusUnauthorized {
		return &Server{}, nil
	}
	if err != nil {
		return nil, err
	}
	s, ok := parseServer(raw)
	if !ok {
		return nil, &InvalidResponseError{Method: http.MethodGet, Path: actuatorPath, HTTPStatus: http.StatusOK, Err: errors.New("the body does not describe the service: no version")}
	}
	if c.serverCache != nil {
		c.serverCache.Put(raw)
	}
	return s, nil
}

// parseServer reads an answer of GET /v1/actuator/info: the release from its
// version, or from its fields when the version is not X.Y.Z.
func parseServer(raw []byte) (*Server, bool) {
	var s Server
	var fields map[string]json.RawMessage
	var old struct {
		WorkspaceID string `json:"workspaceId"`
	}
	if json.Unmarshal(raw, &fields) != nil || json.Unmarshal(raw, &s) != nil || json.Unmarshal(raw, &old) != nil || s.Version == "" {
		return nil, false
	}
	s.Workspace = strings.TrimPrefix(cmp.Or(s.Workspace, old.WorkspaceID), "workspaces/")
	var err error
	if s.Release, err = ParseRelease(s.Version); err != nil {
		s.Release = fingerprint(fields)
	}
	return &s, true
}

// Workspace returns the id of the workspace the service serves, which the
// routes under workspaces/{id} need (workspaces/- is no wildcard): from the
// service's description (workspace from 3.17, workspaceId before), else,
// where that names none (before the first signup, or a cloud service without
// credentials), from the caller's own user, GET /v1/users/me.
func (c *Client) Workspace(ctx context.Context) (string, error) {
	s, err := c.Server(ctx)
	if err != nil || s.Workspace != "" {
		return s.Workspace, err
	}
	var me struct {
		Workspace string `json:"workspace"`
	}
	if _, err := c.Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/users/me"}, &me); err != nil {
		return "", fmt.Errorf("ask the service for its workspace: %w", err)
	}
	id := strings.TrimPrefix(me.Workspace, "workspaces/")
	if err := ValidateID("workspace", id); err != nil {
		return "", &InvalidResponseError{Err: errors.New("neither actuator/info nor users/me names the workspace")}
	}
	c.serverMu.Lock()
	s.Workspace = id
	c.serverMu.Unlock()
	return id, nil
}

// warnf gives a warning to Options.Warn, when set.
func (c *Client) warnf(format string, args ...any) {
	if c.warn != nil {
		c.warn(fmt.Sprintf(format, args...))
	}
}

// accountCollection is where the service (from 3.15) keeps the account of
// email when it is not a person's: "serviceAccounts" for an email ending in
// service.bytebase.com, "workloadIdentities" for workload.bytebase.com, ""
// for a person.
func accountCollection(email string) string {
	switch e := strings.ToLower(email); {
	case strings.HasSuffix(e, "service.bytebase.com"):
		return "serviceAccounts"
	case strings.HasSuffix(e, "workload.bytebase.com"):
		return "workloadIdentities"
	}
	return ""
}

// AccountType is the type of the account of email as its email tells it,
// for a service that no longer says (3.16 and later): a service account, a
// workload identity, else a user.
func AccountType(email string) UserType {
	switch accountCollection(email) {
	case "serviceAccounts":
		return UserTypeServiceAccount
	case "workloadIdentities":
		return UserTypeWorkloadIdentity
	}
	return UserTypeUser
}
