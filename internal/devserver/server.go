package devserver

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// The permissions a token may hold, one per gated operation.
const (
	PermissionCatalogGet      = "svc.databaseCatalogs.get"    // GET .../catalog
	PermissionCatalogUpdate   = "svc.databaseCatalogs.update" // PATCH .../catalog
	PermissionRevisionsCreate = "svc.revisions.create"        // POST .../revisions:batchCreate
	PermissionReviewConfigGet = "svc.reviewConfigs.get"       // GET /v1/reviewConfigs/{id}
	PermissionUsersGet        = "svc.users.get"               // GET /v1/users:batchGet
	PermissionUsersUndelete   = "svc.users.undelete"          // POST /v1/users/{email}:undelete
	PermissionPoliciesList    = "svc.policies.list"           // GET .../policies
	PermissionDatabasesGet    = "svc.databases.get"           // POST .../changelogs/{c}:diffSchema
)

// Permissions lists every permission the server knows.
func Permissions() []string {
	return []string{PermissionCatalogGet, PermissionCatalogUpdate, PermissionRevisionsCreate, PermissionReviewConfigGet,
		PermissionUsersGet, PermissionUsersUndelete, PermissionPoliciesList, PermissionDatabasesGet}
}

// Limits of the HTTP server run by Serve.
const (
	// MaxHeaderBytes bounds the request line and headers: a users:batchGet of
	// 50,000 names puts about 2 MB in the query.
	MaxHeaderBytes = 16 << 20
	// MaxBodyBytes bounds a request body.
	MaxBodyBytes = 256 << 20
	// TokenLifetime is how long a token issued by POST /v1/auth/login is
	// valid when Options.TokenLifetime is 0.
	TokenLifetime = time.Hour
)

//go:embed demo_seed.json
var demoSeed []byte

// DemoSeed returns the seed of the demo data a server holds when
// Options.Seed is nil; it is a model for writing one's own seed.
func DemoSeed() []byte { return bytes.Clone(demoSeed) }

// Options configures a Server.
type Options struct {
	// Seed, when not nil, is a JSON seed (see the package doc) that replaces
	// the demo data.
	Seed io.Reader
	// Log receives one line per request: method, path, status and duration.
	// Nil keeps the server silent.
	Log io.Writer
	// Now is the clock for creation times and token expiry; nil is time.Now.
	Now func() time.Time
	// Latency delays every answer, as a distant service would.
	Latency time.Duration
	// TokenLifetime is how long a login's token is valid; 0 means an hour.
	TokenLifetime time.Duration
}

// Server is an in-memory reference implementation of the /v1 API.
type Server struct {
	now      func() time.Time
	lifetime time.Duration
	log      io.Writer
	logMu    sync.Mutex
	tokens   []TokenInfo
	accounts []ServiceAccountInfo
	handler  http.Handler
	routes   []route

	mu sync.Mutex
	st *state
}

// TokenInfo describes a token of the seed: what a user of the server may
// pass as `Authorization: Bearer <Token>`.
type TokenInfo struct {
	Token       string   // the bearer token
	User        string   // the user it stands for, users/{email}
	Permissions []string // what it may do
}

// ServiceAccountInfo describes a service account of the seed, which may log
// in with POST /v1/auth/login to get a token valid for Options.TokenLifetime.
type ServiceAccountInfo struct {
	Email       string   // the login email
	Key         string   // the service key, sent as password
	Permissions []string // what its tokens may do
}

// New builds a server holding the demo data, or the seed of opts when given.
// A seed that is not valid JSON, holds an unknown field or breaks a rule of
// the format is refused with an error naming the problem.
func New(opts Options) (*Server, error) {
	seed := opts.Seed
	if seed == nil {
		seed = bytes.NewReader(demoSeed)
	}
	doc, err := loadSeed(seed)
	if err != nil {
		return nil, err
	}
	st, err := newState(doc)
	if err != nil {
		return nil, fmt.Errorf("check seed: %w", err)
	}
	s := &Server{now: opts.Now, lifetime: cmp.Or(opts.TokenLifetime, TokenLifetime), log: opts.Log, st: st, routes: routes()}
	if s.now == nil {
		s.now = time.Now
	}
	for _, t := range doc.Tokens {
		s.tokens = append(s.tokens, TokenInfo{Token: t.Token, User: t.User, Permissions: slices.Clone(t.Permissions)})
	}
	for _, a := range doc.ServiceAccounts {
		s.accounts = append(s.accounts, ServiceAccountInfo{Email: a.Email, Key: a.Key, Permissions: slices.Clone(a.Permissions)})
	}
	s.handler = s.logRequests(s.recoverPanics(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(opts.Latency):
			s.serveAPI(w, r)
		case <-r.Context().Done():
		}
	})))
	return s, nil
}

// Handler returns the HTTP handler of the API, for httptest or any server.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve answers requests on l until ctx is done, then stops accepting new
// connections and waits up to five seconds for the requests in flight. It
// returns nil after such a stop, or the error that ended serving.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		MaxHeaderBytes:    MaxHeaderBytes,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(shutdownCtx)
		if err != nil {
			err = errors.Join(fmt.Errorf("shut down gracefully: %w", err), srv.Close())
		}
		stopped <- err
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve on %s: %w", l.Addr(), err)
	}
	return <-stopped
}

// AdminToken returns the first token of the seed that holds every
// permission ("dev-admin-token" in the demo data), or "" when none does.
func (s *Server) AdminToken() string {
	for _, t := range s.tokens {
		if !slices.ContainsFunc(Permissions(), func(p string) bool { return !slices.Contains(t.Permissions, p) }) {
			return t.Token
		}
	}
	return ""
}

// Tokens returns the tokens of the seed and what each may do.
func (s *Server) Tokens() []TokenInfo {
	out := make([]TokenInfo, len(s.tokens))
	for i, t := range s.tokens {
		out[i] = TokenInfo{Token: t.Token, User: t.User, Permissions: slices.Clone(t.Permissions)}
	}
	return out
}

// ServiceAccounts returns the service accounts of the seed, which may log in.
func (s *Server) ServiceAccounts() []ServiceAccountInfo {
	out := make([]ServiceAccountInfo, len(s.accounts))
	for i, a := range s.accounts {
		out[i] = ServiceAccountInfo{Email: a.Email, Key: a.Key, Permissions: slices.Clone(a.Permissions)}
	}
	return out
}
