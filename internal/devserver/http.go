package devserver

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/dbgov/dbgov/client"
)

// request is what an operation gets: the path (unescaped, without /v1/ and
// the custom method), its ids, the query and the raw body.
type request struct {
	path  string
	user  string // users/{email} of the token; "" on an open route
	ids   []string
	query url.Values
	body  []byte
}

// route is one operation: its method, path pattern ("{}" matches one
// segment, an id), custom method suffix, permission and handler.
type route struct {
	method, verb string
	pattern      []string
	since, until release
	open         bool   // needs no credentials
	permission   string // needed unless open
	handle       handler
}

type handler func(*Server, *request) (any, *apiError)

// withBody decodes the body strictly into a B (what names it in an error),
// then runs op with it holding s.mu.
func withBody[B any](what string, op func(*Server, *request, *B) (any, *apiError)) handler {
	return func(s *Server, req *request) (any, *apiError) {
		var body B
		if err := decodeStrict(req.body, &body); err != nil {
			return nil, invalidArgument("invalid %s: %v", what, err)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return op(s, req, &body)
	}
}

// locked runs an operation without a body holding s.mu.
func locked(op handler) handler {
	return withBody("", func(s *Server, req *request, _ *struct{}) (any, *apiError) { return op(s, req) })
}

// routes are the server's operations; since and until bound the releases
// that serve one, when not zero.
func routes() []route {
	body := "request body"
	db := func(more ...string) []string { return append([]string{"instances", "{}", "databases", "{}"}, more...) }
	return []route{
		{method: http.MethodPost, pattern: []string{"auth", "login"}, open: true, handle: withBody("login request", (*Server).login)},
		{method: http.MethodPost, pattern: []string{"auth"}, verb: "exchangeToken", open: true, handle: withBody(body, (*Server).exchangeToken)},
		{method: http.MethodGet, pattern: []string{"actuator", "info"}, open: true, handle: locked((*Server).actuatorInfo)},
		{method: http.MethodGet, pattern: []string{"idps"}, open: true, handle: locked((*Server).listIdentityProviders)},
		{method: http.MethodGet, pattern: []string{"workspaces", "{}", "idps"}, open: true, since: sinceWorkspaceIdps, handle: locked((*Server).listIdentityProviders)},
		{method: http.MethodGet, pattern: []string{"users", "me"}, handle: locked((*Server).currentUser)},
		{method: http.MethodPost, pattern: []string{"users"}, open: true, handle: withBody(body, (*Server).createUser)},
		{method: http.MethodGet, pattern: []string{"users"}, verb: "batchGet", permission: PermissionUsersGet, handle: locked((*Server).batchGetUsers)},
		{method: http.MethodPost, pattern: []string{"users", "{}"}, verb: "undelete", permission: PermissionUsersUndelete, handle: withBody(body, (*Server).undelete)},
		{method: http.MethodGet, pattern: []string{"serviceAccounts", "{}"}, since: sinceAccounts, permission: PermissionUsersGet, handle: locked((*Server).getAccount)},
		{method: http.MethodPost, pattern: []string{"serviceAccounts", "{}"}, verb: "undelete", since: sinceAccounts, permission: PermissionUsersUndelete, handle: withBody(body, (*Server).undelete)},
		{method: http.MethodGet, pattern: []string{"workloadIdentities", "{}"}, since: sinceAccounts, permission: PermissionUsersGet, handle: locked((*Server).getAccount)},
		{method: http.MethodPost, pattern: []string{"workloadIdentities", "{}"}, verb: "undelete", since: sinceAccounts, permission: PermissionUsersUndelete, handle: withBody(body, (*Server).undelete)},
		{method: http.MethodGet, pattern: []string{"reviewConfigs", "{}"}, permission: PermissionReviewConfigGet, handle: locked((*Server).getReviewConfig)},
		{method: http.MethodGet, pattern: db("catalog"), permission: PermissionCatalogGet, handle: locked((*Server).getCatalog)},
		{method: http.MethodPatch, pattern: db("catalog"), permission: PermissionCatalogUpdate, handle: (*Server).updateCatalog},
		{method: http.MethodPost, pattern: db("revisions"), verb: "batchCreate", permission: PermissionRevisionsCreate, handle: withBody(body, (*Server).batchCreateRevisions)},
		{method: http.MethodGet, pattern: db("policies"), permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{method: http.MethodGet, pattern: []string{"environments", "{}", "policies"}, permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{method: http.MethodGet, pattern: []string{"projects", "{}", "policies"}, permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{method: http.MethodGet, pattern: []string{"policies"}, until: sinceWorkspaces, permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{method: http.MethodGet, pattern: []string{"workspaces", "{}", "policies"}, since: sinceWorkspaces, permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{method: http.MethodGet, pattern: []string{"instances"}, permission: PermissionDatabasesGet, handle: locked((*Server).listInstances)},
		{method: http.MethodGet, pattern: []string{"instances", "{}"}, permission: PermissionDatabasesGet, handle: locked((*Server).getInstance)},
		{method: http.MethodGet, pattern: []string{"instances", "{}", "databases"}, permission: PermissionDatabasesGet, handle: locked((*Server).listDatabases)},
		{method: http.MethodGet, pattern: []string{"projects", "{}", "databases"}, permission: PermissionDatabasesGet, handle: locked((*Server).listDatabases)},
		{method: http.MethodGet, pattern: []string{"workspaces", "{}", "databases"}, permission: PermissionDatabasesGet, handle: locked((*Server).listDatabases)},
		{method: http.MethodGet, pattern: db("revisions"), permission: PermissionDatabasesGet, handle: locked((*Server).listRevisions)},
		{method: http.MethodGet, pattern: db("changelogs"), permission: PermissionDatabasesGet, handle: locked((*Server).listChangelogs)},
		{method: http.MethodGet, pattern: db("schema"), permission: PermissionDatabasesGet, handle: locked((*Server).schemaDump)},
		{method: http.MethodGet, pattern: db("sdlSchema"), permission: PermissionDatabasesGet, handle: locked((*Server).schemaDump)},
		{method: http.MethodPost, pattern: db("changelogs", "{}"), verb: "diffSchema", permission: PermissionDatabasesGet, handle: withBody(body, (*Server).diffSchema)},
		{method: http.MethodPost, pattern: db(), verb: "diffSchema", permission: PermissionDatabasesGet, handle: withBody(body, (*Server).diffSchema)},
	}
}

// match returns the ids of the unescaped segments, if the route matches.
func (rt route) match(segments []string, verb string) ([]string, bool) {
	if len(segments) != len(rt.pattern) || verb != rt.verb {
		return nil, false
	}
	var ids []string
	for i, p := range rt.pattern {
		switch {
		case p == "{}" && segments[i] != "":
			ids = append(ids, segments[i])
		case p != segments[i]:
			return nil, false
		}
	}
	return ids, true
}

// splitPath cuts an escaped /v1 path into unescaped segments and the custom
// method after the last literal colon (%3A is part of an id), or nothing.
func splitPath(escaped string) (segments []string, verb string) {
	rest, ok := strings.CutPrefix(escaped, "/v1/")
	if !ok {
		return nil, ""
	}
	raw := strings.Split(rest, "/")
	last := raw[len(raw)-1]
	if i := strings.LastIndexByte(last, ':'); i >= 0 {
		raw[len(raw)-1], verb = last[:i], last[i+1:]
	}
	for _, r := range raw {
		seg, err := url.PathUnescape(r)
		if err != nil {
			return nil, ""
		}
		segments = append(segments, seg)
	}
	return segments, verb
}

// serveAPI checks a request's route (404, 405), credentials (401),
// permission (403), then query and body (400), and runs its operation.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	if resp, apiErr := s.call(w, r); apiErr != nil {
		writeJSON(w, apiErr.status, apiErr)
	} else {
		writeJSON(w, http.StatusOK, resp)
	}
}

// call finds a request's route and runs its operation.
func (s *Server) call(w http.ResponseWriter, r *http.Request) (any, *apiError) {
	if r.URL.Path == OIDCTokenPath && r.Method == http.MethodGet {
		return s.mintOIDC(r)
	}
	segments, verb := splitPath(r.URL.EscapedPath())
	var found *route
	var ids, allowed []string
	for i := 0; i < len(s.routes) && found == nil; i++ {
		if m, matched := s.routes[i].match(segments, verb); matched && s.routes[i].method == r.Method {
			found, ids = &s.routes[i], m
		} else if matched {
			allowed = append(allowed, s.routes[i].method)
		}
	}
	switch {
	case found == nil && len(allowed) > 0:
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		return nil, routeError(http.StatusMethodNotAllowed)
	case found == nil:
		return nil, routeError(http.StatusNotFound)
	}
	user, apiErr := s.authenticate(r.Header.Get("Authorization"), found)
	switch {
	case apiErr != nil:
		return nil, apiErr
	case found.pattern[0] == "workspaces" && ids[0] != WorkspaceID && !found.open && s.since(sinceWorkspaceName):
		return nil, newError(codePermissionDenied, "permission denied: workspace mismatch")
	}
	query, apiErr := parseQuery(r.URL.RawQuery)
	if apiErr != nil {
		return nil, apiErr
	}
	req := &request{path: strings.Join(segments, "/"), user: user, ids: ids, query: query}
	if r.Method != http.MethodGet {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
		if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
			return nil, invalidArgument("request body exceeds %d bytes", tooLarge.Limit)
		} else if err != nil {
			return nil, invalidArgument("read request body: %v", err)
		}
		req.body = body
	}
	return found.handle(s, req)
}

// parseQuery reads a query as url.ParseQuery does, but without its cap of
// 10,000 parameters: a users:batchGet may name 50,000 users.
func parseQuery(raw string) (url.Values, *apiError) {
	q := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		rawKey, rawValue, _ := strings.Cut(pair, "=")
		key, keyErr := url.QueryUnescape(rawKey)
		value, valueErr := url.QueryUnescape(rawValue)
		if err := cmp.Or(keyErr, valueErr); err != nil {
			return nil, invalidArgument("malformed query parameter %q: %v", pair, err)
		}
		q[key] = append(q[key], value)
	}
	return q, nil
}

// authenticate checks that a bearer token is valid and holds the route's
// permission, and returns the user it stands for; an open route needs none.
func (s *Server) authenticate(header string, rt *route) (string, *apiError) {
	if rt.open {
		return "", nil
	}
	scheme, token, _ := strings.Cut(header, " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", newError(codeUnauthenticated, "missing credentials: send the header Authorization: Bearer <token>")
	}
	s.mu.Lock()
	g := s.st.tokens[token]
	s.mu.Unlock()
	switch {
	case g == nil:
		return "", newError(codeUnauthenticated, "invalid token")
	case g.expired(s.now()):
		return "", newError(codeUnauthenticated, "token expired at %s", formatTime(g.expires))
	case rt.permission != "" && !slices.Contains(g.Permissions, rt.permission):
		return "", newError(codePermissionDenied, "permission denied: %s does not have permission %q", g.User, rt.permission)
	}
	return g.User, nil
}

// login exchanges a service account's email and key for a token.
func (s *Server) login(_ *request, body *client.LoginRequest) (any, *apiError) {
	acct, known := s.st.serviceAccounts[body.Email]
	switch {
	case body.Email == "":
		return nil, invalidArgument("email is required")
	case body.Password == "":
		return nil, invalidArgument("password is required")
	case !known || subtle.ConstantTimeCompare([]byte(acct.Key), []byte(body.Password)) != 1:
		return nil, newError(codeUnauthenticated, "invalid email or password")
	}
	return client.LoginResponse{Token: s.issue(acct.Email, acct.Permissions)}, nil
}

// issue makes a token for an account that expires after the server's token lifetime.
func (s *Server) issue(email string, permissions []string) string {
	now := s.now()
	maps.DeleteFunc(s.st.tokens, func(_ string, g *grant) bool { return g.expired(now) })
	expires := now.Add(s.lifetime)
	// Shaped as a JWT, as the service's are: its payload says when it expires.
	claims, _ := json.Marshal(map[string]any{"sub": "users/" + email, "exp": expires.Unix()})
	token := "eyJhbGciOiJub25lIn0." + base64.RawURLEncoding.EncodeToString(claims) + "." + rand.Text()
	s.st.tokens[token] = &grant{TokenInfo{Token: token, User: "users/" + email, Permissions: permissions}, expires}
	return token
}

// currentUser answers GET /v1/users/me: the user the token stands for.
func (s *Server) currentUser(req *request) (any, *apiError) {
	if u := s.st.users[strings.TrimPrefix(req.user, "users/")]; u != nil {
		return s.accountView(u, "users"), nil // a copy: it is encoded after the lock is let go
	}
	return client.User{Name: req.user, Email: strings.TrimPrefix(req.user, "users/")}, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, `{"code":%d,"message":"encode response"}`+"\n", codeInternal)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = cmp.Or(r.status, status)
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(p []byte) (int, error) {
	r.status = cmp.Or(r.status, http.StatusOK)
	return r.ResponseWriter.Write(p)
}

// recoverPanics answers 500 INTERNAL instead of dropping the connection
// should an operation panic, and logs each request when the server logs.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start, rec := time.Now(), &statusRecorder{ResponseWriter: w}
		defer func() {
			if v := recover(); v == http.ErrAbortHandler {
				panic(v)
			} else if v != nil && rec.status == 0 {
				e := newError(codeInternal, "internal error: %v", v)
				writeJSON(rec, e.status, e)
			}
			if s.log != nil {
				s.logMu.Lock()
				defer s.logMu.Unlock()
				fmt.Fprintf(s.log, "%s %s %d %s\n", r.Method, r.URL.EscapedPath(), rec.status, time.Since(start).Round(time.Microsecond))
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// formatTime formats t as protobuf JSON does: RFC 3339 UTC, 0, 3, 6 or 9 digits of fraction.
func formatTime(t time.Time) string {
	s := t.UTC().Format("2006-01-02T15:04:05.000000000")
	for strings.HasSuffix(s, "000") {
		s = s[:len(s)-3]
	}
	return strings.TrimSuffix(s, ".") + "Z"
}
