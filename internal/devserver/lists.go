package devserver

import (
	"cmp"
	"encoding/base64"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
)

// pgDumpHeader is how the service's dump of a PostgreSQL schema begins, as pg_dump's does.
const pgDumpHeader = "SET statement_timeout = 0;\nSET client_encoding = 'UTF8';\nSELECT pg_catalog.set_config('search_path', '', false);\n\n"

// page cuts from items the page a list request asks for, as the service
// pages: pageSize items (10 when not positive, at most 1000) from the offset
// its pageToken holds, and the token of the next page, "" after the last.
func page[T any](req *request, items []T) ([]T, string, *apiError) {
	size, sizeErr := strconv.Atoi(cmp.Or(req.query.Get("pageSize"), "0"))
	data, tokenErr := base64.StdEncoding.DecodeString(req.query.Get("pageToken"))
	offset, offsetErr := strconv.Atoi(cmp.Or(string(data), "0"))
	switch {
	case sizeErr != nil:
		return nil, "", invalidArgument("invalid pageSize %q: not a number", req.query.Get("pageSize"))
	case tokenErr != nil || offsetErr != nil || offset < 0:
		return nil, "", invalidArgument("invalid page token %q", req.query.Get("pageToken"))
	}
	from, to, next := min(offset, len(items)), min(offset+min(cmp.Or(max(size, 0), 10), 1000), len(items)), ""
	if to < len(items) {
		next = base64.StdEncoding.EncodeToString([]byte(strconv.Itoa(to)))
	}
	return items[from:to], next, nil
}

// listInstances answers GET /v1/instances, by id.
func (s *Server) listInstances(req *request) (any, *apiError) {
	ids, next, apiErr := page(req, slices.Sorted(maps.Keys(s.st.instances)))
	var out []map[string]any
	for _, id := range ids {
		out = append(out, s.st.instances[id].view())
	}
	return listAnswer("instances", out, next), apiErr
}

// getInstance answers GET /v1/instances/I: dbgov reads its engine there.
func (s *Server) getInstance(req *request) (any, *apiError) {
	if in := s.st.instances[req.ids[0]]; in != nil {
		return in.view(), nil
	}
	return nil, notFound("instance %q not found", req.ids[0])
}

// view is an instance as the service answers it.
func (in *instance) view() map[string]any {
	v := map[string]any{"name": "instances/" + in.ID, "title": cmp.Or(in.Title, in.ID), "engine": in.Engine, "state": "ACTIVE"}
	if in.Environment != "" {
		v["environment"] = in.Environment
	}
	return v
}

// listDatabases answers GET /v1/{instances/I,projects/P,workspaces/W}/databases,
// by project, then name (an unknown parent has none); filter is not applied.
func (s *Server) listDatabases(req *request) (any, *apiError) {
	parent := strings.TrimSuffix(req.path, "/databases")
	dbs, next, apiErr := page(req, slices.DeleteFunc(slices.Clone(s.st.databases), func(db *database) bool {
		return !strings.HasPrefix(parent, "workspaces/") && parent != db.project && !strings.HasPrefix(db.name, parent+"/")
	}))
	var out []map[string]any
	for _, db := range dbs {
		out = append(out, map[string]any{"name": db.name, "state": "ACTIVE", "project": db.project, "instanceResource": db.instance.view()})
		if env := db.instance.Environment; env != "" {
			out[len(out)-1]["effectiveEnvironment"] = env
		}
	}
	return listAnswer("databases", out, next), apiErr
}

// listRevisions answers GET .../revisions, by version from the highest;
// deleted ones only with showDeleted.
func (s *Server) listRevisions(req *request, db *database) (any, *apiError) {
	showDeleted, apiErr := boolParam(req.query, "showDeleted", "show_deleted")
	if apiErr != nil {
		return nil, apiErr
	}
	revs := slices.DeleteFunc(slices.Clone(db.revisions), func(r client.Revision) bool { return r.DeleteTime != "" && !showDeleted })
	slices.SortStableFunc(revs, func(a, b client.Revision) int { return cmp.Compare(b.Version, a.Version) })
	revs, next, apiErr := page(req, revs)
	return listAnswer("revisions", revs, next), apiErr
}

// listChangelogs answers GET .../changelogs, the newest first.
func (s *Server) listChangelogs(req *request, db *database) (any, *apiError) {
	var all []map[string]string
	for _, c := range slices.Backward(db.changelogs) {
		all = append(all, map[string]string{"name": db.name + "/changelogs/" + c.ID, "status": "DONE"})
	}
	all, next, apiErr := page(req, all)
	return listAnswer("changelogs", all, next), apiErr
}

// schemaDump answers GET .../schema, the database's schema as the service
// dumps it, and .../sdlSchema, the schema in the declarative form the
// service's diff reads back, as base64 bytes.
func (s *Server) schemaDump(req *request, db *database) (any, *apiError) {
	switch {
	case strings.HasSuffix(req.path, "/sdlSchema"):
		return map[string]any{"schema": []byte(db.current()), "contentType": "text/plain; charset=utf-8"}, nil
	case db.instance.Engine == client.EnginePostgres:
		return map[string]string{"schema": pgDumpHeader + db.current()}, nil
	}
	return map[string]string{"schema": db.current()}, nil
}
