package devserver

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dbgov/dbgov/client"
)

// The server's test issuer of OIDC tokens, as GitHub Actions hands them out:
// GET OIDCTokenPath with `Authorization: Bearer ActionsRequestToken`
// answers {"value": <JWT>}, signed by the server, the only signature it
// accepts. The query's issuer, subject and audience replace the defaults.
const (
	OIDCTokenPath       = "/test/oidc/token"
	ActionsRequestToken = "dev-actions-request-token"
	OIDCIssuer          = "https://token.actions.githubusercontent.com"
	OIDCSubject         = "repo:example-org/orders:ref:refs/heads/main"
	OIDCAudience        = "https://github.com/example-org"
)

// accountKinds are the kinds of account by the collection of their routes:
// users, and from 3.15 service accounts and workload identities.
var accountKinds = map[string]struct{ suffix, word string }{
	"users":              {"", "user"},
	"serviceAccounts":    {"service.bytebase.com", "service account"},
	"workloadIdentities": {"workload.bytebase.com", "workload identity"},
}

// accountCollection is the collection an account is found in on the release.
func (s *Server) accountCollection(u *seedUser) string {
	c := map[client.UserType]string{client.UserTypeServiceAccount: "serviceAccounts", client.UserTypeWorkloadIdentity: "workloadIdentities"}[u.UserType]
	if c == "" || !s.since(sinceAccounts) {
		return "users"
	}
	return c
}

// endUserEmail refuses, from 3.15, a user's email that names another kind of account.
func (s *Server) endUserEmail(email string) *apiError {
	for _, k := range accountKinds {
		if k.suffix != "" && strings.HasSuffix(email, k.suffix) && s.since(sinceAccounts) {
			return invalidArgument("email for end users cannot end with %s", k.suffix)
		}
	}
	return nil
}

// account finds the account of the path: users/{email},
// serviceAccounts/{email} or workloadIdentities/{email}.
func (s *Server) account(req *request) (*seedUser, string, *apiError) {
	collection, email := strings.Split(req.path, "/")[0], req.ids[0]
	k, u := accountKinds[collection], s.st.users[email]
	switch endUserErr := s.endUserEmail(email); {
	case collection == "users" && endUserErr != nil:
		return nil, "", endUserErr
	case k.suffix != "" && !strings.HasSuffix(email, k.suffix):
		return nil, "", invalidArgument("invalid %s email %q: email must end with %s", k.word, email, k.suffix)
	case u == nil || s.accountCollection(u) != collection:
		return nil, "", notFound("%s %q not found", k.word, email)
	}
	return u, collection, nil
}

// accountView is an account as its collection shows it on the release.
func (s *Server) accountView(u *seedUser, collection string) any {
	if collection != "users" {
		return client.User{Name: collection + "/" + u.Email, State: u.State, Email: u.Email, Title: u.Title, WorkloadIdentityConfig: u.WorkloadIdentityConfig}
	}
	v := u.User
	if s.since(sinceWorkspaces) {
		v.UserType, v.WorkloadIdentityConfig = "", nil
	}
	if !s.since(sinceWorkspaceName) {
		return v
	}
	return struct {
		client.User
		Workspace string `json:"workspace"`
	}{v, "workspaces/" + WorkspaceID}
}

// getAccount answers GET /v1/serviceAccounts/{email} and /v1/workloadIdentities/{email}.
func (s *Server) getAccount(req *request) (any, *apiError) {
	u, collection, apiErr := s.account(req)
	if apiErr != nil {
		return nil, apiErr
	}
	return s.accountView(u, collection), nil
}

// batchGetUsers answers GET /v1/users:batchGet?names=users/a&names=users/b:
// until 3.15 the users in the order asked, one unknown failing the call;
// from 3.15 those found in the order created, and 400 for another kind's email.
func (s *Server) batchGetUsers(req *request) (any, *apiError) {
	names := req.query["names"]
	if len(names) == 0 {
		return nil, invalidArgument("names is required: give one names=users/{email} query parameter per user")
	}
	var users []any
	asked := map[string]bool{}
	for _, name := range names {
		id, ok := strings.CutPrefix(name, "users/")
		switch u, endUserErr := s.st.users[id], s.endUserEmail(id); {
		case !ok || id == "":
			return nil, invalidArgument("invalid user name %q: want users/{email}", name)
		case endUserErr != nil:
			return nil, endUserErr
		case s.since(sinceAccounts):
			asked[strings.ToLower(id)] = true
		case u == nil:
			return nil, notFound("user %q not found", name)
		default:
			users = append(users, s.accountView(u, "users"))
		}
	}
	for _, u := range s.st.userList {
		if asked[strings.ToLower(u.Email)] && s.accountCollection(u) == "users" {
			users = append(users, s.accountView(u, "users"))
		}
	}
	return listAnswer("users", users, ""), nil
}

// undelete answers POST /v1/{users,serviceAccounts,workloadIdentities}/{email}:undelete.
func (s *Server) undelete(req *request, body *client.UndeleteUserRequest) (any, *apiError) {
	switch {
	case body.Name == "":
		return nil, invalidArgument("name is required: the deleted account, %s", req.path)
	case body.Name != req.path:
		return nil, invalidArgument("name %q does not match the account of the path, %q", body.Name, req.path)
	}
	u, collection, apiErr := s.account(req)
	switch {
	case apiErr != nil:
		return nil, apiErr
	case u.State != client.UserStateDeleted:
		return nil, invalidArgument("%s %q is already active", accountKinds[collection].word, u.Email)
	}
	u.State = client.UserStateActive
	return s.accountView(u, collection), nil
}

// createUser answers POST /v1/users: the user created, with the one-time
// key of a service account, which may log in with it.
func (s *Server) createUser(_ *request, body *client.User) (any, *apiError) {
	u := &seedUser{User: *body}
	switch endUserErr := s.endUserEmail(u.Email); {
	case u.Email == "":
		return nil, invalidArgument("email must be set")
	case u.Title == "":
		return nil, invalidArgument("user title must be set")
	case s.st.users[u.Email] != nil:
		return nil, newError(codeAlreadyExists, "email %s exists", u.Email)
	case endUserErr != nil:
		return nil, endUserErr
	}
	u.Name, u.State = "users/"+u.Email, client.UserStateActive
	s.st.users[u.Email], s.st.userList = u, append(s.st.userList, u)
	if u.UserType != client.UserTypeServiceAccount {
		return s.accountView(u, "users"), nil
	}
	key := "bbs_" + rand.Text()[:20]
	s.st.serviceAccounts[u.Email] = ServiceAccountInfo{Email: u.Email, Key: key}
	return struct {
		client.User
		ServiceKey string `json:"serviceKey"`
	}{u.User, key}, nil
}

// exchangeToken answers POST /v1/auth:exchangeToken: an access token for a
// workload identity whose issuer, audiences and subject pattern the OIDC token meets.
func (s *Server) exchangeToken(_ *request, body *client.ExchangeTokenRequest) (any, *apiError) {
	u := s.st.users[body.Email]
	switch {
	case body.Token == "":
		return nil, invalidArgument("token is required")
	case body.Email == "":
		return nil, invalidArgument("email is required")
	case !strings.HasSuffix(body.Email, "workload.bytebase.com"):
		return nil, invalidArgument("invalid workload identity email %q: email must end with workload.bytebase.com", body.Email)
	case u == nil || u.UserType != client.UserTypeWorkloadIdentity:
		return nil, notFound("workload identity %q not found", body.Email)
	case u.State == client.UserStateDeleted && !s.since(sinceTokens):
		return nil, newError(codePermissionDenied, "workload identity has been deactivated")
	case u.State == client.UserStateDeleted:
		return nil, newError(codeUnauthenticated, "workload identity has been deactivated")
	case u.WorkloadIdentityConfig == nil:
		return nil, newError(codeInternal, "workload identity config not found")
	}
	if err := s.checkOIDC(body.Token, u.WorkloadIdentityConfig); err != nil {
		return nil, newError(codeUnauthenticated, "token validation failed: %v", err)
	}
	return map[string]string{"accessToken": s.issue(u.Email, u.Permissions)}, nil
}

// sign signs a JWT's header and payload with the server's key (HS256).
func (s *Server) sign(headAndPayload string) string {
	mac := hmac.New(sha256.New, s.key)
	mac.Write([]byte(headAndPayload))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// checkOIDC checks an OIDC token as the service does: signature, issuer,
// audience (any one allowed), subject (equal, or a prefix before a final *), expiry.
func (s *Server) checkOIDC(token string, c *client.WorkloadIdentityConfig) error {
	var claims struct {
		Iss, Sub string
		Aud      []string
		Exp      int64
	}
	parts := strings.Split(token, ".")
	data, err := base64.RawURLEncoding.DecodeString(parts[min(1, len(parts)-1)])
	if len(parts) != 3 || !hmac.Equal([]byte(parts[2]), []byte(s.sign(parts[0]+"."+parts[1]))) || err != nil || json.Unmarshal(data, &claims) != nil {
		return errors.New("failed to verify token signature")
	}
	prefix, wildcard := strings.CutSuffix(c.SubjectPattern, "*")
	switch {
	case claims.Iss != c.IssuerURL:
		return fmt.Errorf("issuer mismatch: expected %q, got %q", c.IssuerURL, claims.Iss)
	case len(c.AllowedAudiences) > 0 && !slices.ContainsFunc(claims.Aud, func(a string) bool { return slices.Contains(c.AllowedAudiences, a) }):
		return fmt.Errorf("audience mismatch: token has %v, allowed %v", claims.Aud, c.AllowedAudiences)
	case c.SubjectPattern != "" && claims.Sub != c.SubjectPattern && !(wildcard && strings.HasPrefix(claims.Sub, prefix)):
		return fmt.Errorf("subject mismatch: expected pattern %q, got %q", c.SubjectPattern, claims.Sub)
	case s.now().Unix() > claims.Exp:
		return errors.New("token has expired")
	}
	return nil
}

// mintOIDC answers GET OIDCTokenPath: an OIDC token of the test issuer, valid ten minutes.
func (s *Server) mintOIDC(r *http.Request) (any, *apiError) {
	if r.Header.Get("Authorization") != "Bearer "+ActionsRequestToken {
		return nil, newError(codeUnauthenticated, "send the header Authorization: Bearer %s", ActionsRequestToken)
	}
	q, now := r.URL.Query(), s.now()
	claims, _ := json.Marshal(map[string]any{"iss": cmp.Or(q.Get("issuer"), OIDCIssuer), "sub": cmp.Or(q.Get("subject"), OIDCSubject),
		"aud": []string{cmp.Or(q.Get("audience"), OIDCAudience)}, "iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix()})
	head := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + base64.RawURLEncoding.EncodeToString(claims)
	return map[string]string{"value": head + "." + s.sign(head)}, nil
}
