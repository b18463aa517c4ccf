package devserver

import (
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
)

// listIdentityProviders answers GET /v1/idps and, from 3.17.1,
// /v1/workspaces/{id}/idps, secrets included: from 3.17.1 the providers
// belong to the workspace, and /v1/idps has none.
func (s *Server) listIdentityProviders(req *request) (any, *apiError) {
	if s.since(sinceWorkspaceIdps) && (len(req.ids) == 0 || req.ids[0] != WorkspaceID) {
		return listAnswer[json.RawMessage]("identityProviders", nil, ""), nil
	}
	return listAnswer("identityProviders", slices.Clone(s.st.idps), ""), nil
}

// getReviewConfig answers GET /v1/reviewConfigs/{id}.
func (s *Server) getReviewConfig(req *request) (any, *apiError) {
	if rc := s.st.reviewConfigs[req.ids[0]]; rc != nil {
		return *rc, nil
	}
	return nil, notFound("review config %q not found", "reviewConfigs/"+req.ids[0])
}

// getCatalog answers GET /v1/instances/{i}/databases/{d}/catalog.
func (s *Server) getCatalog(_ *request, db *database) (any, *apiError) {
	if db.catalog == nil { // every database has one, empty at first
		return client.DatabaseCatalog{Name: db.name + "/catalog"}, nil
	}
	return *db.catalog, nil
}

// updateCatalog answers PATCH .../catalog, replacing it; its query comes
// before its body. allowMissing=true needs a permission no release defines.
func (s *Server) updateCatalog(req *request) (any, *apiError) {
	if allowMissing, apiErr := boolParam(req.query, "allowMissing", "allow_missing"); apiErr != nil || allowMissing {
		return nil, cmp.Or(apiErr, newError(codePermissionDenied, "permission denied: allow_missing=true requires both bb.databaseCatalogs.update and bb.databaseCatalogs.create"))
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
		switch {
		case r.Parent != parent:
			return nil, invalidArgument("requests[%d].parent %q does not equal the batch parent %q", i, r.Parent, parent)
		case !validSheetName(r.Revision.Sheet):
			return nil, invalidArgument("failed to get sheet from %s: invalid request %q", r.Revision.Sheet, r.Revision.Sheet)
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
		case (in.File == "") != (in.Release == ""):
			return nil, invalidArgument("revision.release and revision.file must be set or unset")
		case slices.ContainsFunc(db.revisions, func(r client.Revision) bool { return r.Type == in.Type && r.Version == in.Version }):
			return nil, newError(codeAlreadyExists, "a %s revision of version %q already exists in %s", in.Type, in.Version, parent)
		}
		db.lastID++
		rev := client.Revision{RevisionInput: in, CreateTime: formatTime(s.now())}
		rev.Name = parent + "/revisions/" + s.st.id(parent+"/revisions", strconv.Itoa(db.lastID))
		rev.Statement = cmp.Or(s.st.sheets[rev.Sheet], "-- statement of "+rev.Sheet+" (a sheet the server does not hold)\n")
		fillStatementFields(&rev)
		db.revisions = append(db.revisions, rev)
		resp.Revisions = append(resp.Revisions, rev)
	}
	return resp, nil
}

// listPolicies answers GET /v1/{parent}/policies of a database, an
// environment, a project or the workspace, filtered, as the release has them:
// from 3.15 none of type DATA_SOURCE_QUERY, no DATA_QUERY of an environment
// and none of a database (400, as every release of the service answers);
// from 3.16 the workspace's are named workspaces/{id}/policies/{p}.
func (s *Server) listPolicies(req *request) (any, *apiError) {
	types := client.PolicyTypes()
	if s.since(sinceAccounts) {
		types = slices.DeleteFunc(types, func(t client.PolicyType) bool { return t == client.PolicyTypeDataSourceQuery })
	}
	policyType, _, apiErr := singleParam(req.query, "policyType", "policy_type")
	filter := client.PolicyType(policyType)
	all := filter == "" || filter == client.PolicyTypeUnspecified
	showDeleted, boolErr := boolParam(req.query, "showDeleted", "show_deleted")
	switch {
	case apiErr != nil:
		return nil, apiErr
	case !all && !slices.Contains(types, filter):
		return nil, invalidArgument("invalid policyType %q: want one of %s", policyType, strings.Join(client.Names(types), ", "))
	case boolErr != nil:
		return nil, boolErr
	case len(req.ids) == 2 && s.since(sinceAccounts):
		return nil, invalidArgument("unknown request name %s", databaseName(req.ids[0], req.ids[1]))
	}
	policies := s.st.policies
	if len(req.ids) == 2 {
		db, apiErr := s.database(req.ids[0], req.ids[1])
		if apiErr != nil {
			return nil, apiErr
		}
		policies = db.policies
	}
	var list []seedPolicy
	for _, p := range policies {
		if strings.HasPrefix(p.Name, "policies/") && s.since(sinceWorkspaces) {
			p.Name = "workspaces/" + WorkspaceID + "/" + p.Name
		}
		if q := p.QueryDataPolicy; q != nil && s.since(sinceAccounts) {
			p.QueryDataPolicy = &client.QueryDataPolicy{DisableExport: q.DisableExport, MaximumResultRows: q.MaximumResultRows, DisableCopyData: q.DisableCopyData}
		}
		ofParent := len(req.ids) == 2 || strings.HasPrefix(p.Name, req.path+"/")
		gone := !slices.Contains(types, p.Type) || p.Type == client.PolicyTypeDataQuery && strings.HasPrefix(p.Name, "environments/") && s.since(sinceAccounts)
		if ofParent && !gone && (all || p.Type == filter) && (showDeleted || !p.Deleted) {
			p.Deleted = false // a mark of the seed, not a field of the answer
			list = append(list, p)
		}
	}
	return listAnswer("policies", list, ""), nil
}

// diffSchema answers POST .../changelogs/{c}:diffSchema and .../databases/{d}:diffSchema:
// migrating the changelog's, or the database's, schema to another.
func (s *Server) diffSchema(req *request, body *client.DiffSchemaRequest) (any, *apiError) {
	self, target := req.path, strings.Split(body.Changelog, "/")
	switch {
	case body.Name == "" && len(req.ids) == 3:
		return nil, invalidArgument("name is required: the changelog of the path, %s", self)
	case body.Name != "" && body.Name != self:
		return nil, invalidArgument("name %q does not match the path's %q", body.Name, self)
	case (body.Schema == "") == (body.Changelog == ""):
		return nil, invalidArgument("give exactly one of schema (a target schema) and changelog (another changelog's name)")
	case body.Changelog != "" && (len(target) != 6 || target[0] != "instances" || target[2] != "databases" || target[4] != "changelogs" ||
		!validID(target[1]) || !validID(target[3]) || !validID(target[5])):
		return nil, invalidArgument("changelog %q is not of the form instances/{instance}/databases/{database}/changelogs/{changelog}", body.Changelog)
	}
	db, apiErr := s.database(req.ids[0], req.ids[1])
	if apiErr != nil {
		return nil, apiErr
	}
	from, to := db.current(), body.Schema
	if len(req.ids) == 3 {
		from, apiErr = s.changelog(req.ids[0], req.ids[1], req.ids[2])
	}
	if apiErr == nil && body.Changelog != "" {
		to, apiErr = s.changelog(target[1], target[3], target[5])
	}
	switch sdl := s.sdl(db); {
	case apiErr != nil:
		return nil, apiErr
	case body.Schema != "" && len(req.ids) == 3 && !sdl:
		return nil, newError(codeInternal, "failed to get target schema, error: invalid request %q", self)
	case sdl && slices.ContainsFunc(strings.Split(body.Schema, ";"), func(st string) bool { return strings.HasPrefix(strings.ToUpper(strings.TrimSpace(st)), "SELECT") }):
		return nil, newError(codeInternal, "SDL does not allow SELECT statements")
	}
	return client.DiffSchemaResponse{Diff: sqlDiff(from, to)}, nil
}

// current is the database's schema: its newest changelog's.
func (db *database) current() string {
	if len(db.changelogs) == 0 {
		return ""
	}
	return db.changelogs[len(db.changelogs)-1].Schema
}

// sdl reports whether the release diffs a database's schema text through the
// service's declarative format (SDL): PostgreSQL and CockroachDB from 3.17, MySQL from 3.21.
func (s *Server) sdl(db *database) bool {
	e := db.instance.Engine
	return (e == client.EnginePostgres || e == "COCKROACHDB") && s.since(sinceWorkspaceName) ||
		e == client.EngineMySQL && s.since(sinceMySQLSDL)
}

// database finds a database; the caller holds s.mu. An unknown instance is
// 500, as the service's access check answers it.
func (s *Server) database(instance, name string) (*database, *apiError) {
	in := s.st.instances[instance]
	if in == nil {
		return nil, newError(codeInternal, "failed to populate raw resources database %q not found", databaseName(instance, name))
	}
	db := in.databases[name]
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
	i := slices.IndexFunc(d.changelogs, func(c seedChangelog) bool { return c.ID == id })
	if i < 0 {
		return "", notFound("changelog %q not found", databaseName(instance, db)+"/changelogs/"+id)
	}
	return d.changelogs[i].Schema, nil
}

// listAnswer is a list as protobuf JSON writes it: an empty list and an empty
// next page token left out.
func listAnswer[T any](field string, items []T, next string) map[string]any {
	out := map[string]any{}
	if len(items) > 0 {
		out[field] = items
	}
	if next != "" {
		out["nextPageToken"] = next
	}
	return out
}

// singleParam returns the one value of a query parameter of any of names.
func singleParam(q url.Values, names ...string) (string, bool, *apiError) {
	values := slices.Concat(q[names[0]], q[names[len(names)-1]])
	if len(values) > 1 {
		return "", false, invalidArgument("query parameter %s is given %d times; it takes one value", names[0], len(values))
	}
	return strings.Join(values, ""), len(values) == 1, nil
}

// boolParam reads a boolean query parameter; absent is false.
func boolParam(q url.Values, names ...string) (bool, *apiError) {
	v, given, apiErr := singleParam(q, names...)
	b, err := strconv.ParseBool(v)
	if given && err != nil {
		return false, invalidArgument("query parameter %s: %q is not a boolean (true or false)", names[0], v)
	}
	return b, apiErr
}
