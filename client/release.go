package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// Release is a release of the service, X.Y.Z as [X, Y, Z].
type Release [3]int

// String returns the release as X.Y.Z.
func (r Release) String() string { return fmt.Sprintf("%d.%d.%d", r[0], r[1], r[2]) }

// Before reports whether r is an earlier release than o.
func (r Release) Before(o Release) bool { return slices.Compare(r[:], o[:]) < 0 }

// Has reports whether the service at release r has made the change that
// holds from release since (one of the thresholds below).
func (r Release) Has(since Release) bool { return !r.Before(since) }

// ParseRelease reads a release written X.Y.Z (a leading v is allowed). Its
// error says what is wrong with s alone, for the setting or option to name.
func ParseRelease(s string) (Release, error) {
	var r Release
	xyz := strings.TrimPrefix(s, "v")
	if _, err := fmt.Sscanf(xyz, "%d.%d.%d", &r[0], &r[1], &r[2]); err != nil || r.String() != xyz || strings.Contains(xyz, "-") {
		return Release{}, fmt.Errorf("release %q is not of the form X.Y.Z, such as 3.21.1", s)
	}
	return r, nil
}

// The one table of release thresholds: the releases dbgov knows, and from
// which release each change on a route or answer dbgov uses holds.
var (
	OldestRelease     = Release{3, 13, 0}
	SheetsBySHA256    = Release{3, 14, 0} // revisions name sheets projects/P/sheets/{sha256}
	ReleasesByID      = Release{3, 14, 1} // revisions name releases by id, not number
	AccountsApart     = Release{3, 15, 0} // service accounts and workload identities have routes of their own; users:batchGet leaves out users it lacks
	NoDataSourceQuery = Release{3, 15, 0} // the DATA_SOURCE_QUERY policy type is gone
	WorkspacePolicies = Release{3, 16, 0} // workspace policies are under /v1/workspaces/{id}/policies
	UUIDNames         = Release{3, 16, 0} // revisions and changelogs are named by UUID, not number
	SDLDiffPostgres   = Release{3, 17, 0} // changelog and schema text compare on PostgreSQL and CockroachDB, through the declarative format
	WorkspaceIdps     = Release{3, 17, 1} // identity providers are under /v1/workspaces/{id}/idps
	SDLDiffMySQL      = Release{3, 21, 0} // ... and on MySQL
	NewestRelease     = Release{3, 21, 1}
)

// Server is what dbgov knows of the service it talks to.
type Server struct {
	// Version is the release as the service, or Options.ServerVersion, gives
	// it: "3.21.1", "development"; "" for one that would not say.
	Version string `json:"version"`
	// Release is the release dbgov treats the service as.
	Release Release `json:"-"`
	// GitCommit is the commit the service was built from, when it says.
	GitCommit string `json:"gitCommit,omitempty"`
	// Workspace is the id of the service's workspace, when it says.
	Workspace string `json:"workspace,omitempty"`
}

// fingerprints tell a release that is not X.Y.Z (a development build) by the
// fields of its description: one present (absent, written !name) means at
// least from, or at most upTo. Zero values are left out of the answer, so
// only fields that are seldom zero tell anything.
var fingerprints = []struct {
	field      string
	from, upTo Release
}{
	{field: "!replicaCount", upTo: Release{3, 13, 0}}, {field: "replicaCount", from: SheetsBySHA256},
	{field: "!restriction", upTo: SheetsBySHA256}, {field: "restriction", from: ReleasesByID},
	{field: "userStats", upTo: AccountsApart}, {field: "activatedUserCount", from: WorkspacePolicies},
	{field: "workspaceId", upTo: WorkspacePolicies}, {field: "workspace", from: SDLDiffPostgres},
	{field: "activeVcsUserCount", from: Release{3, 19, 0}},
}

// fingerprint returns the newest release the fields of a description allow.
func fingerprint(fields map[string]json.RawMessage) Release {
	least, most := OldestRelease, NewestRelease
	for _, f := range fingerprints {
		name, absent := strings.CutPrefix(f.field, "!")
		if _, ok := fields[name]; ok == absent {
			continue
		}
		if least.Before(f.from) {
			least = f.from
		}
		if f.upTo != (Release{}) && f.upTo.Before(most) {
			most = f.upTo
		}
	}
	if most.Before(least) {
		return least
	}
	return most
}

// ServerCache keeps the service's description (its answer to GET
// /v1/actuator/info) between runs; Get returns nil when none is fresh.
type ServerCache interface {
	Get() []byte
	Put(info []byte)
}

// Server returns what the service is: the release Options.ServerVersion
// says, else its description, GET /v1/actuator/info (no credentials), kept
// in Options.ServerCache and asked at most once by a client. A release
// outside those dbgov knows works as the nearest, with a warning.
func (c *Client) Server(ctx context.Context) (*Server, error) {
	c.serverMu.Lock()
	defer c.serverMu.Unlock()
	if c.server != nil {
		return c.server, nil
	}
	s, err := &Server{Version: c.opts.ServerVersion}, error(nil)
	if s.Version == "" {
		s, err = c.describe(ctx)
	}
	if err != nil {
		hint := "say the service's release instead with --server-version X.Y.Z (or DBGOV_SERVER_VERSION)"
		if te := (*TransportError)(nil); errors.As(err, &te) && te.Hint != "" {
			hint = te.Hint + ", or " + hint
		}
		return nil, exitcode.WithHint(fmt.Errorf("cannot learn the service's release: %w", err), hint)
	}
	if s.Release == (Release{}) {
		s.Release, _ = ParseRelease(s.Version)
	}
	known := s.Release
	if known.Before(OldestRelease) {
		known = OldestRelease
	} else if NewestRelease.Before(known) {
		known = NewestRelease
	}
	if (s.Release != known || s.Version == "") && c.opts.Warn != nil {
		c.opts.Warn(fmt.Sprintf("the service's release %s is not one dbgov knows (%s to %s); dbgov treats it as %s", cmp.Or(s.Version, "(not told without credentials)"), OldestRelease, NewestRelease, known))
	}
	s.Release, c.server = known, s
	return s, nil
}

// describe reads the service's description from the cache, else asks for
// it; one that wants credentials (releases after those dbgov knows) is a
// Server of the newest release, its version unknown. The workspace is
// workspace from 3.17, workspaceId before; a version that is not X.Y.Z is
// told by the description's fields.
func (c *Client) describe(ctx context.Context) (*Server, error) {
	raw := []byte(nil)
	if c.opts.ServerCache != nil {
		raw = c.opts.ServerCache.Get()
	}
	var s Server
	if json.Unmarshal(raw, &s) != nil || s.Version == "" {
		var err error
		raw, err = c.Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/actuator/info", NoAuth: true}, nil)
		if api := (*APIError)(nil); errors.As(err, &api) && api.HTTPStatus == http.StatusUnauthorized {
			return &Server{Release: NewestRelease}, nil
		} else if err != nil {
			return nil, err
		}
		if json.Unmarshal(raw, &s) != nil || s.Version == "" {
			return nil, &InvalidResponseError{Method: http.MethodGet, Path: "/v1/actuator/info", HTTPStatus: http.StatusOK, Err: errors.New("the body does not describe the service: no version")}
		}
		if c.opts.ServerCache != nil {
			c.opts.ServerCache.Put(raw)
		}
	}
	var fields map[string]json.RawMessage
	var id string
	_ = json.Unmarshal(raw, &fields)
	_ = json.Unmarshal(fields["workspaceId"], &id)
	s.Workspace = strings.TrimPrefix(cmp.Or(s.Workspace, id), "workspaces/")
	if _, err := ParseRelease(s.Version); err != nil {
		s.Release = fingerprint(fields)
	}
	return &s, nil
}

// Workspace returns the id of the workspace the service serves, which the
// routes under workspaces/{id} need (workspaces/- is no wildcard): from the
// service's description, else, where that names none (before the first
// signup, or without credentials on a cloud service), from the caller's own
// user, GET /v1/users/me.
func (c *Client) Workspace(ctx context.Context) (string, error) {
	s, err := c.Server(ctx)
	if err != nil || s.Workspace != "" {
		return cmp.Or(s, &Server{}).Workspace, err
	}
	id := ""
	if c.opts.ServerVersion != "" { // the release was told, not the workspace
		if d, err := c.describe(ctx); err == nil {
			id = d.Workspace
		}
	}
	if id == "" {
		var me struct{ Workspace string }
		if _, err := c.Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/users/me"}, &me); err != nil {
			return "", fmt.Errorf("find the workspace: %w", err)
		}
		id = strings.TrimPrefix(me.Workspace, "workspaces/")
	}
	if id == "" {
		return "", &InvalidResponseError{Err: errors.New("neither actuator/info nor users/me names the workspace")}
	}
	c.serverMu.Lock()
	s.Workspace = id
	c.serverMu.Unlock()
	return id, ValidateID("workspace", id)
}

// accountCollection is where the service (from 3.15) keeps the account of
// email when it is not a person's: serviceAccounts for an email ending in
// service.bytebase.com, workloadIdentities for workload.bytebase.com.
func accountCollection(email string) string {
	switch e := strings.ToLower(email); {
	case strings.HasSuffix(e, "service.bytebase.com"):
		return "serviceAccounts"
	case strings.HasSuffix(e, "workload.bytebase.com"):
		return "workloadIdentities"
	}
	return ""
}

// AccountType is the type of email's account as the email tells it, for a
// service that no longer says (3.16 and later).
func AccountType(email string) UserType {
	return map[string]UserType{"serviceAccounts": UserTypeServiceAccount, "workloadIdentities": UserTypeWorkloadIdentity, "": UserTypeUser}[accountCollection(email)]
}

// AccountCall builds GET /v1/serviceAccounts/EMAIL or
// /v1/workloadIdentities/EMAIL, where the service keeps such an account from
// 3.15; nil for the email of a person.
func AccountCall(email string) *Request {
	if coll := accountCollection(email); coll != "" && ValidateID("user", email) == nil {
		return &Request{Method: http.MethodGet, Path: "/v1/" + coll + "/" + escapeID(email)}
	}
	return nil
}

// AccountEmail reads the email of an account's name: users/EMAIL, or the
// serviceAccounts/EMAIL or workloadIdentities/EMAIL of such an account.
func AccountEmail(name string) (string, bool) {
	coll, email, _ := strings.Cut(name, "/")
	return email, coll == "users" || coll != "" && coll == accountCollection(email)
}

// nameForms are the forms of the last part of a name that changed between
// releases: before since, and from since ("" for any id).
var nameForms = []struct {
	kind          string
	since         Release
	before, after string
}{
	{"sheet", SheetsBySHA256, "a number", "the SHA-256 of its statement (64 hex digits)"},
	{"release", ReleasesByID, "a number", ""},
	{"changelog", UUIDNames, "a number", "a UUID"},
	{"revision", UUIDNames, "a number", "a UUID"},
}

// NameProblem says why id, the last part of the name of a sheet, a release,
// a changelog or a revision (kind), cannot be one on release r; "" when it
// can.
func (r Release) NameProblem(kind, id string) string {
	for _, f := range nameForms {
		form, when := f.before, "before "+f.since.String()
		if r.Has(f.since) {
			form, when = f.after, "from "+f.since.String()
		}
		lower, ok := strings.ToLower(id), id != ""
		switch {
		case form == "a number":
			ok = ok && strings.Trim(id, "0123456789") == ""
		case form == "a UUID":
			ok = len(id) == 36 && strings.Trim(lower, "0123456789abcdef-") == ""
		case form != "": // a SHA-256 digest
			ok = len(id) == 64 && strings.Trim(lower, "0123456789abcdef") == ""
		}
		if f.kind == kind && !ok {
			return fmt.Sprintf("%s %q cannot be a %s of release %s: %s, a %s is named by %s", kind, id, kind, r, when, kind, form)
		}
	}
	return ""
}

// ThroughSDL reports whether the service's release compares the schema text
// of db through its declarative format (SDL): for PostgreSQL and
// CockroachDB from 3.17, MySQL from 3.21. There a changelog compares with
// schema text, and the schema to compare with is the SDL one. The
// instance's engine is read only when the release may.
func (c *Client) ThroughSDL(ctx context.Context, db DatabaseName) (bool, error) {
	s, err := c.Server(ctx)
	if err != nil || !s.Release.Has(SDLDiffPostgres) {
		return false, err
	}
	var inst Instance
	if _, err := c.Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/instances/" + escapeID(db.Instance)}, &inst); err != nil {
		return false, fmt.Errorf("read the engine of instance %s: %w", db.Instance, err)
	}
	return inst.Engine == EnginePostgres || inst.Engine == "COCKROACHDB" || inst.Engine == EngineMySQL && s.Release.Has(SDLDiffMySQL), nil
}

// SchemaCall builds GET /v1/instances/I/databases/D/schema, or .../sdlSchema
// (sdl) for the schema in the service's declarative format.
func SchemaCall(db DatabaseName, sdl bool) (*Request, error) {
	return &Request{Method: http.MethodGet, Path: db.path() + map[bool]string{true: "/sdlSchema", false: "/schema"}[sdl]}, db.Validate()
}

// explain gives a refusal the hint its answer and the releases tell: the
// permissions a 403 names as missing (3.14 and later), and for a 401 of a
// token given, that server upgrades across 3.14 and 3.17 invalidate older
// tokens.
func (c *Client) explain(err error) error {
	var api *APIError
	if !errors.As(err, &api) {
		return err
	}
	var perms []string
	for _, d := range api.Details {
		var detail struct{ RequiredPermissions []string }
		if json.Unmarshal(d, &detail) == nil {
			perms = append(perms, detail.RequiredPermissions...)
		}
	}
	switch {
	case api.HTTPStatus == http.StatusForbidden && len(perms) > 0:
		return exitcode.WithHint(err, "the credentials lack the permission "+strings.Join(perms, ", ")+": a role holding it is needed")
	case api.HTTPStatus == http.StatusUnauthorized && c.opts.Token != "" && !strings.Contains(strings.ToLower(api.Message), "expired"):
		return exitcode.WithHint(err, "the service refused the token: it may have expired (after an hour by default from 3.14), or predate a server upgrade (upgrades across 3.14 and 3.17 invalidate older tokens); give a new one, or log in again with `dbgov auth login`")
	}
	return err
}
