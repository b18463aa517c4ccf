package devserver

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
)

// listIdentityProviders answers GET /v1/idps, secrets included.
func (s *Server) listIdentityProviders(*request) (any, *apiError) {
	return client.ListIdentityProvidersResponse{IdentityProviders: slices.Clone(s.st.idps)}, nil
}

// batchGetUsers answers GET /v1/users:batchGet?names=users/a&names=users/b
// with the users in the order asked; one unknown user fails the call.
func (s *Server) batchGetUsers(req *request) (any, *apiError) {
	names := req.query["names"]
	if len(names) == 0 {
		return nil, invalidArgument("names is required: give one names=users/{email} query parameter per user")
	}
	users := make([]client.User, 0, len(names))
	for _, name := range names {
		id, ok := strings.CutPrefix(name, "users/")
		switch u := s.st.users[id]; {
		case !ok || id == "":
			return nil, invalidArgument("invalid user name %q: want users/{email}", name)
		case u == nil:
			return nil, notFound("user %q not found", name)
		default:
			users = append(users, *u)
		}
	}
	return client.BatchGetUsersResponse{Users: users}, nil
}

// undeleteUser answers POST /v1/users/{email}:undelete.
func (s *Server) undeleteUser(req *request, body *client.UndeleteUserRequest) (any, *apiError) {
	want := "users/" + req.ids[0]
	switch {
	case body.Name == "":
		return nil, invalidArgument("name is required: the deleted user, %s", want)
	case body.Name != want:
		return nil, invalidArgument("name %q does not match the user of the path, %q", body.Name, want)
	}
	u := s.st.users[req.ids[0]]
	switch {
	case u == nil:
		return nil, notFound("user %q not found", want)
	case u.State != client.UserStateDeleted:
		return nil, invalidArgument("user %q is not deleted: it is already active", want)
	}
	u.State = client.UserStateActive
	return *u, nil
}

// getReviewConfig answers GET /v1/reviewConfigs/{id}.
func (s *Server) getReviewConfig(req *request) (any, *apiError) {
	rc := s.st.reviewConfigs[req.ids[0]]
	if rc == nil {
		return nil, notFound("review config %q not found", "reviewConfigs/"+req.ids[0])
	}
	return *rc, nil
}

// getCatalog answers GET /v1/instances/{i}/databases/{d}/catalog.
func (s *Server) getCatalog(req *request) (any, *apiError) {
	db, apiErr := s.database(req.ids[0], req.ids[1])
	if apiErr != nil {
		return nil, apiErr
	}
	if db.catalog == nil {
		return nil, notFound("catalog %q not found", databaseName(req.ids[0], req.ids[1])+"/catalog")
	}
	return *db.catalog, nil
}

// updateCatalog answers PATCH .../catalog, replacing it; its query comes before its body.
func (s *Server) updateCatalog(req *request) (any, *apiError) {
	allowMissing, apiErr := boolParam(req.query, "allowMissing", "allow_missing")
	if apiErr != nil {
		return nil, apiErr
	}
	return withBody("catalog", func(s *Server, req *request, catalog *client.DatabaseCatalog) (any, *apiError) {
		want := databaseName(req.ids[0], req.ids[1]) + "/catalog"
		if catalog.Name != "" && catalog.Name != want {
			return nil, invalidArgument("catalog name %q does not match the path's catalog %q", catalog.Name, want)
		}
		catalog.Name = want
		db, apiErr := s.database(req.ids[0], req.ids[1])
		if apiErr != nil {
			return nil, apiErr
		}
		if db.catalog == nil && !allowMissing {
			return nil, notFound("catalog %q not found (allowMissing=true creates it)", want)
		}
		db.catalog = catalog
		return *catalog, nil
	})(s, req)
}

// batchCreateRevisions answers POST .../revisions:batchCreate: parents are
// checked first, then each revision in turn, as the real service does.
func (s *Server) batchCreateRevisions(req *request, body *client.BatchCreateRevisionsRequest) (any, *apiError) {
	parent := databaseName(req.ids[0], req.ids[1])
	if body.Parent != "" && body.Parent != parent {
		return nil, invalidArgument("parent %q does not match the database of the path, %q", body.Parent, parent)
	}
	for i, r := range body.Requests {
		if r.Parent != parent {
			return nil, invalidArgument("requests[%d].parent %q does not equal the batch parent %q", i, r.Parent, parent)
		}
	}
	db, apiErr := s.database(req.ids[0], req.ids[1])
	if apiErr != nil {
		return nil, apiErr
	}
	var resp client.BatchCreateRevisionsResponse
	for i, r := range body.Requests {
		in := r.Revision
		switch {
		case in.Type == "" || in.Type == client.RevisionTypeUnspecified:
			return nil, invalidArgument("requests[%d].revision.type is required: VERSIONED or DECLARATIVE", i)
		case in.Version == "":
			return nil, invalidArgument("requests[%d].revision.version is required", i)
		case in.Sheet != "" && !validSheetName(in.Sheet):
			return nil, invalidArgument("requests[%d].revision.sheet %q is not of the form projects/{project}/sheets/{sheet}", i, in.Sheet)
		case in.File != "" && in.Sheet == "" && in.Release == "":
			return nil, invalidArgument("requests[%d].revision: a revision with a file needs a sheet or a release", i)
		case db.hasRevision(in.Type, in.Version):
			return nil, newError(codeAlreadyExists, "a %s revision of version %q already exists in %s", in.Type, in.Version, parent)
		}
		db.lastID++
		rev := client.Revision{Name: parent + "/revisions/" + strconv.Itoa(db.lastID), Release: in.Release, File: in.File,
			Version: in.Version, Sheet: in.Sheet, TaskRun: in.TaskRun, Type: in.Type, CreateTime: formatTime(s.now())}
		if statement, known := s.st.sheets[rev.Sheet]; known {
			rev.Statement = statement
		} else if rev.Sheet != "" {
			rev.Statement = "-- statement of " + rev.Sheet + " (a sheet the server does not hold)\n"
		}
		fillStatementFields(&rev)
		db.revisions = append(db.revisions, rev)
		resp.Revisions = append(resp.Revisions, rev)
	}
	return resp, nil
}

// listPolicies answers GET /v1/{parent}/policies of a database, an
// environment, a project or the workspace, filtered.
func (s *Server) listPolicies(req *request) (any, *apiError) {
	policyType, _, apiErr := singleParam(req.query, "policyType", "policy_type")
	if apiErr != nil {
		return nil, apiErr
	}
	filter := client.PolicyType(policyType)
	all := filter == "" || filter == client.PolicyTypeUnspecified
	if !all && !filter.Known() {
		return nil, invalidArgument("invalid policyType %q: want one of %s", policyType, strings.Join(enumNames(client.PolicyTypes()), ", "))
	}
	showDeleted, apiErr := boolParam(req.query, "showDeleted", "show_deleted")
	if apiErr != nil {
		return nil, apiErr
	}
	policies := s.st.policies
	if len(req.ids) == 2 {
		db, apiErr := s.database(req.ids[0], req.ids[1])
		if apiErr != nil {
			return nil, apiErr
		}
		policies = db.policies
	}
	var resp client.ListPoliciesResponse
	for _, p := range policies {
		ofParent := len(req.ids) == 2 || strings.HasPrefix(p.Name, req.path+"/")
		if ofParent && (all || p.Type == filter) && (showDeleted || !p.Deleted) {
			resp.Policies = append(resp.Policies, p.Policy)
		}
	}
	return resp, nil
}

// diffSchema answers POST .../changelogs/{c}:diffSchema and .../databases/{d}:diffSchema:
// migrating the changelog's, or the database's, schema to another.
func (s *Server) diffSchema(req *request, body *client.DiffSchemaRequest) (any, *apiError) {
	self := req.path
	switch {
	case body.Name == "" && len(req.ids) == 3:
		return nil, invalidArgument("name is required: the changelog of the path, %s", self)
	case body.Name != "" && body.Name != self:
		return nil, invalidArgument("name %q does not match the path's %q", body.Name, self)
	case (body.Schema == "") == (body.Changelog == ""):
		return nil, invalidArgument("give exactly one of schema (a target schema) and changelog (another changelog's name)")
	}
	var target []string
	if body.Changelog != "" {
		target = strings.Split(body.Changelog, "/")
		if len(target) != 6 || target[0] != "instances" || target[2] != "databases" || target[4] != "changelogs" ||
			!validID(target[1]) || !validID(target[3]) || !validID(target[5]) {
			return nil, invalidArgument("changelog %q is not of the form instances/{instance}/databases/{database}/changelogs/{changelog}", body.Changelog)
		}
	}
	db, apiErr := s.database(req.ids[0], req.ids[1])
	if apiErr != nil {
		return nil, apiErr
	}
	from, to := db.currentSchema(), body.Schema
	if len(req.ids) == 3 {
		from, apiErr = s.changelog(req.ids[0], req.ids[1], req.ids[2])
	}
	if apiErr == nil && target != nil {
		to, apiErr = s.changelog(target[1], target[3], target[5])
	}
	if apiErr != nil {
		return nil, apiErr
	}
	return client.DiffSchemaResponse{Diff: sqlDiff(from, to)}, nil
}

// currentSchema is the schema of the database's highest numbered changelog.
func (db *database) currentSchema() string {
	schema, latest := "", -1
	for id, s := range db.changelogs {
		if n, err := strconv.Atoi(id); err == nil && n > latest {
			schema, latest = s, n
		}
	}
	return schema
}

// database finds a database; the caller holds s.mu.
func (s *Server) database(instance, name string) (*database, *apiError) {
	dbs := s.st.instances[instance]
	if dbs == nil {
		return nil, notFound("instance %q not found", "instances/"+instance)
	}
	db := dbs[name]
	if db == nil {
		return nil, notFound("database %q not found", databaseName(instance, name))
	}
	return db, nil
}

// changelog finds a changelog's schema; the caller holds s.mu.
func (s *Server) changelog(instance, db, id string) (string, *apiError) {
	d, apiErr := s.database(instance, db)
	if apiErr != nil {
		return "", apiErr
	}
	schema, ok := d.changelogs[id]
	if !ok {
		return "", notFound("changelog %q not found", databaseName(instance, db)+"/changelogs/"+id)
	}
	return schema, nil
}

// singleParam returns the one value of a query parameter of any of names.
func singleParam(q url.Values, names ...string) (string, bool, *apiError) {
	var values []string
	for _, n := range names {
		values = append(values, q[n]...)
	}
	switch len(values) {
	case 0:
		return "", false, nil
	case 1:
		return values[0], true, nil
	default:
		return "", false, invalidArgument("query parameter %s is given %d times; it takes one value", names[0], len(values))
	}
}

// boolParam reads a boolean query parameter; absent is false.
func boolParam(q url.Values, names ...string) (bool, *apiError) {
	v, given, apiErr := singleParam(q, names...)
	if apiErr != nil || !given {
		return false, apiErr
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, invalidArgument("query parameter %s: %q is not a boolean (true or false)", names[0], v)
	}
	return b, nil
}
