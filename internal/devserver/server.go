package devserver

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
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

// Limits of the server.
const (
	MaxHeaderBytes = 16 << 20  // request line and headers, under Serve: a batchGet of 50,000 users is 2 MB
	MaxBodyBytes   = 256 << 20 // a request body
	TokenLifetime  = time.Hour // of a login's token when Options.TokenLifetime is 0
)

// DemoSeed returns the demo data, a seed document to start one's own from.
func DemoSeed() []byte { return slices.Clone(demoSeed) }

// demoSeed is the demo data, held when Options.Seed is nil: a model for one's own.
//
//go:embed demo_seed.json
var demoSeed []byte

// Options configures a Server.
type Options struct {
	Seed          io.Reader        // a JSON seed replacing the demo data, when not nil
	Log           io.Writer        // one line per request (method, path, status, duration), when not nil
	Now           func() time.Time // the clock of creation times and token expiry; nil is time.Now
	Latency       time.Duration    // delays every answer, as a distant service would
	TokenLifetime time.Duration    // of a login's token; 0 is TokenLifetime
	Release       string           // the service's release to answer as, from 3.13.0; "" is DefaultRelease
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
	mux      *http.ServeMux // routes the operations of the release
	release  release
	version  string // the release as actuator info says it
	key      []byte // signs the test issuer's OIDC tokens

	mu sync.Mutex
	st *state
}

// TokenInfo is a token of the seed, to send as `Authorization: Bearer <Token>`.
type TokenInfo struct {
	Token       string   `json:"token"`
	User        string   `json:"user"` // users/{email}
	Permissions []string `json:"permissions,omitempty"`
}

// ServiceAccountInfo is a service account of the seed, which may log in with
// POST /v1/auth/login (Key as password) for a token of Options.TokenLifetime.
type ServiceAccountInfo struct {
	Email       string   `json:"email"`
	Key         string   `json:"key"`
	Permissions []string `json:"permissions,omitempty"` // of its tokens
}

// New builds a server holding opts' seed or the demo data; a bad seed's error names its problem.
func New(opts Options) (*Server, error) {
	rel, err := parseRelease(cmp.Or(opts.Release, DefaultRelease))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(cmp.Or[io.Reader](opts.Seed, bytes.NewReader(demoSeed)))
	if err != nil {
		return nil, fmt.Errorf("read seed: %w", err)
	}
	var doc seedDoc
	if err := decodeStrict(data, &doc); err != nil {
		return nil, fmt.Errorf("decode seed: %w", err)
	}
	s := &Server{now: opts.Now, lifetime: cmp.Or(opts.TokenLifetime, TokenLifetime), log: opts.Log, release: rel,
		version: cmp.Or(opts.Release, DefaultRelease), key: []byte(rand.Text()), tokens: doc.Tokens, accounts: doc.ServiceAccounts}
	if s.st, err = newState(&doc, s.since(sinceWorkspaces)); err != nil {
		return nil, fmt.Errorf("check seed: %w", err)
	}
	s.mux = http.NewServeMux()
	for _, rt := range routes() {
		if s.since(rt.since) && (rt.until == release{} || !s.since(rt.until)) {
			s.mux.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) {
				resp, apiErr := s.call(w, r, rt)
				respond(w, resp, apiErr)
			})
		}
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.handler = s.recoverPanics(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(opts.Latency):
			s.serveAPI(w, r)
		case <-r.Context().Done():
		}
	}))
	return s, nil
}

// ServeHTTP answers one request of the API: a Server is the handler for
// httptest or any server.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Serve answers requests on l until ctx is done, then stops accepting
// connections and waits up to five seconds for the requests in flight.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{Handler: s, MaxHeaderBytes: MaxHeaderBytes, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	defer srv.Close()
	stopped := make(chan error, 1)
	defer context.AfterFunc(ctx, func() {
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil {
			stopped <- fmt.Errorf("shut down gracefully: %w", err)
		}
		close(stopped)
	})()
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
	out := slices.Clone(s.tokens)
	for i := range out {
		out[i].Permissions = slices.Clone(out[i].Permissions)
	}
	return out
}

// ServiceAccounts returns the service accounts of the seed, which may log in.
func (s *Server) ServiceAccounts() []ServiceAccountInfo {
	out := slices.Clone(s.accounts)
	for i := range out {
		out[i].Permissions = slices.Clone(out[i].Permissions)
	}
	return out
}
