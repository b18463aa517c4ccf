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
	"path"
	"slices"
	"strings"
	"time"

	"github.com/dbgov/dbgov/client"
)

// request is what an operation gets: the path (unescaped, without /v1/ and
// the custom method), its ids, the query and the raw body.
type request struct {
	path  string
	user  string   // users/{email} of the token; "" on an open route
	ids   []string // the values of the pattern's wildcards, in order
	query url.Values
	body  []byte
}

// route is one operation: its ServeMux pattern, in which a custom method is
// a segment of its own ("POST /v1/users/{email}/:undelete"), its permission and handler.
type route struct {
	pattern      string
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

// onDatabase runs an operation on the database of the path, holding s.mu;
// an unknown database fails it.
func onDatabase(op func(*Server, *request, *database) (any, *apiError)) handler {
	return locked(func(s *Server, req *request) (any, *apiError) {
		db, apiErr := s.database(req.ids[0], req.ids[1])
		if apiErr != nil {
			return nil, apiErr
		}
		return op(s, req, db)
	})
}

// routes are the server's operations; since and until bound the releases
// that serve one, when not zero.
func routes() []route {
	body := "request body"
	const db = "/v1/instances/{instance}/databases/{database}"
	return []route{
		{pattern: "POST /v1/auth/login", open: true, handle: withBody("login request", (*Server).login)},
		{pattern: "POST /v1/auth/:exchangeToken", open: true, handle: withBody(body, (*Server).exchangeToken)},
		{pattern: "GET /v1/actuator/info", open: true, handle: locked((*Server).actuatorInfo)},
		{pattern: "GET /v1/idps", open: true, handle: locked((*Server).listIdentityProviders)},
		{pattern: "GET /v1/workspaces/{workspace}/idps", open: true, since: sinceWorkspaceIdps, handle: locked((*Server).listIdentityProviders)},
		{pattern: "GET /v1/users/me", handle: locked((*Server).currentUser)},
		{pattern: "POST /v1/users", open: true, handle: withBody(body, (*Server).createUser)},
		{pattern: "GET /v1/users/:batchGet", permission: PermissionUsersGet, handle: locked((*Server).batchGetUsers)},
		{pattern: "POST /v1/users/{email}/:undelete", permission: PermissionUsersUndelete, handle: withBody(body, (*Server).undelete)},
		{pattern: "GET /v1/serviceAccounts/{email}", since: sinceAccounts, permission: PermissionUsersGet, handle: locked((*Server).getAccount)},
		{pattern: "POST /v1/serviceAccounts/{email}/:undelete", since: sinceAccounts, permission: PermissionUsersUndelete, handle: withBody(body, (*Server).undelete)},
		{pattern: "GET /v1/workloadIdentities/{email}", since: sinceAccounts, permission: PermissionUsersGet, handle: locked((*Server).getAccount)},
		{pattern: "POST /v1/workloadIdentities/{email}/:undelete", since: sinceAccounts, permission: PermissionUsersUndelete, handle: withBody(body, (*Server).undelete)},
		{pattern: "GET /v1/reviewConfigs/{id}", permission: PermissionReviewConfigGet, handle: locked((*Server).getReviewConfig)},
		{pattern: "GET " + db + "/catalog", permission: PermissionCatalogGet, handle: onDatabase((*Server).getCatalog)},
		{pattern: "PATCH " + db + "/catalog", permission: PermissionCatalogUpdate, handle: (*Server).updateCatalog},
		{pattern: "POST " + db + "/revisions/:batchCreate", permission: PermissionRevisionsCreate, handle: withBody(body, (*Server).batchCreateRevisions)},
		{pattern: "GET " + db + "/policies", permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{pattern: "GET /v1/environments/{environment}/policies", permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{pattern: "GET /v1/projects/{project}/policies", permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{pattern: "GET /v1/policies", until: sinceWorkspaces, permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{pattern: "GET /v1/workspaces/{workspace}/policies", since: sinceWorkspaces, permission: PermissionPoliciesList, handle: locked((*Server).listPolicies)},
		{pattern: "GET /v1/instances", permission: PermissionDatabasesGet, handle: locked((*Server).listInstances)},
		{pattern: "GET /v1/instances/{instance}", permission: PermissionDatabasesGet, handle: locked((*Server).getInstance)},
		{pattern: "GET /v1/instances/{instance}/databases", permission: PermissionDatabasesGet, handle: locked((*Server).listDatabases)},
		{pattern: "GET /v1/projects/{project}/databases", permission: PermissionDatabasesGet, handle: locked((*Server).listDatabases)},
		{pattern: "GET /v1/workspaces/{workspace}/databases", permission: PermissionDatabasesGet, handle: locked((*Server).listDatabases)},
		{pattern: "GET " + db + "/revisions", permission: PermissionDatabasesGet, handle: onDatabase((*Server).listRevisions)},
		{pattern: "GET " + db + "/changelogs", permission: PermissionDatabasesGet, handle: onDatabase((*Server).listChangelogs)},
		{pattern: "GET " + db + "/schema", permission: PermissionDatabasesGet, handle: onDatabase((*Server).schemaDump)},
		{pattern: "GET " + db + "/sdlSchema", permission: PermissionDatabasesGet, handle: onDatabase((*Server).schemaDump)},
		{pattern: "POST " + db + "/changelogs/{changelog}/:diffSchema", permission: PermissionDatabasesGet, handle: withBody(body, (*Server).diffSchema)},
		{pattern: "POST " + db + "/:diffSchema", permission: PermissionDatabasesGet, handle: withBody(body, (*Server).diffSchema)},
	}
}

// serveAPI answers a request with its route's operation, or 404, or 405
// with Allow when other routes have its path. The custom method, after the
// last literal colon of the last segment (%3A is part of an id), becomes
// a segment of its own for the patterns to match.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == OIDCTokenPath && r.Method == http.MethodGet {
		resp, apiErr := s.mintOIDC(r)
		respond(w, resp, apiErr)
		return
	}
	escaped := r.URL.EscapedPath()
	if i := strings.LastIndexByte(escaped, ':'); i > strings.LastIndexByte(escaped, '/') {
		escaped = strings.TrimSuffix(escaped[:i]+"/"+escaped[i:], "/:")
	}
	target := *r.URL
	target.Path, _ = url.PathUnescape(escaped)
	target.RawPath = escaped
	var allowed []string
	for _, method := range []string{r.Method, http.MethodGet, http.MethodPatch, http.MethodPost} {
		_, pattern := s.mux.Handler(&http.Request{Method: method, URL: &target})
		switch {
		case path.Clean(escaped) != escaped || !strings.HasPrefix(pattern, method+" "):
			// No route: none matched, a GET route matched HEAD, or the mux would redirect.
		case method == r.Method:
			routed := r.WithContext(r.Context())
			routed.URL = &target
			s.mux.ServeHTTP(w, routed)
			return
		default:
			allowed = append(allowed, method)
		}
	}
	status := http.StatusNotFound
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		status = http.StatusMethodNotAllowed
	}
	// Code UNKNOWN, as a gRPC gateway answers an unmatched route.
	writeJSON(w, status, &apiError{status: status, Code: codeUnknown, Message: http.StatusText(status)})
}

// respond writes an operation's answer, or its error.
func respond(w http.ResponseWriter, resp any, apiErr *apiError) {
	if apiErr != nil {
		writeJSON(w, apiErr.status, apiErr)
	} else {
		writeJSON(w, http.StatusOK, resp)
	}
}

// call checks a routed request's credentials (401) and permission (403),
// then its query and body (400), and runs its operation.
func (s *Server) call(w http.ResponseWriter, r *http.Request, rt route) (any, *apiError) {
	user, apiErr := s.authenticate(r.Header.Get("Authorization"), rt)
	workspace := r.PathValue("workspace")
	query, queryErr := parseQuery(r.URL.RawQuery)
	switch {
	case apiErr != nil:
		return nil, apiErr
	case workspace != "" && workspace != WorkspaceID && !rt.open && s.since(sinceWorkspaceName):
		return nil, newError(codePermissionDenied, "permission denied: workspace mismatch")
	case queryErr != nil:
		return nil, queryErr
	}
	req := &request{path: strings.TrimPrefix(r.URL.Path, "/v1/"), user: user, query: query}
	if strings.Contains(rt.pattern, "/:") {
		req.path = req.path[:strings.LastIndex(req.path, "/:")]
	}
	for _, segment := range strings.Split(rt.pattern, "/") {
		if wildcard, ok := strings.CutPrefix(segment, "{"); ok {
			req.ids = append(req.ids, r.PathValue(strings.TrimSuffix(wildcard, "}")))
		}
	}
	if r.Method != http.MethodGet {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
		if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
			return nil, invalidArgument("request body exceeds %d bytes", tooLarge.Limit)
		} else if err != nil {
			return nil, invalidArgument("read request body: %v", err)
		}
		req.body = body
	}
	return rt.handle(s, req)
}

// parseQuery reads a query as url.ParseQuery does, but without its cap of
// 10,000 parameters: a users:batchGet may name 50,000 users.
func parseQuery(raw string) (url.Values, *apiError) {
	q := url.Values{}
	for pair := range strings.SplitSeq(raw, "&") {
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
func (s *Server) authenticate(header string, rt route) (string, *apiError) {
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

// statusRecorder remembers the status a handler wrote; every answer goes
// through writeJSON, which writes its status first.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = cmp.Or(r.status, status)
	r.ResponseWriter.WriteHeader(status)
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
