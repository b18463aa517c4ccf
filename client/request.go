package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Request is one /v1 call as it would be sent. The builders below are pure,
// so that a dry run can print a request without sending it.
type Request struct {
	// Method is the HTTP method, in upper case.
	Method string
	// Path is already escaped and begins with /v1/.
	Path string
	// Query holds the query parameters, encoded in key order when sent.
	Query url.Values
	// RawQuery, when set, is the query already escaped, sent exactly as it
	// is (order and repeats kept) in place of Query.
	RawQuery string
	// Body is JSON, nil when there is none.
	Body []byte
	// NoAuth marks a call that needs no credentials; none are sent with it.
	NoAuth bool
	// OptionalAuth sends the credentials when there are some and, when there
	// are none, sends the call bare and lets the service decide (dbgov api).
	OptionalAuth bool
}

// NewRawRequest builds a request from a method and a target /v1/PATH?QUERY a
// user typed, for calls this package has no builder for. The path and the
// query must be escaped already, the path begin with /v1/; both are sent as
// given. body, when not nil, must be JSON.
func NewRawRequest(method, target string, body []byte) (*Request, error) {
	path, rawQuery, _ := strings.Cut(target, "?")
	r := &Request{Method: strings.ToUpper(method), Path: path, RawQuery: rawQuery, Body: body}
	if body != nil && !json.Valid(body) {
		return nil, fmt.Errorf("%w: the body of %s %s is not valid JSON", ErrInvalidRequest, r.Method, path)
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// validateRawQuery checks that a query typed by a user can be sent as it is:
// escaped, with no space, control character, fragment or invalid escape.
func validateRawQuery(rawQuery string) error {
	for _, c := range []byte(rawQuery) {
		if c <= ' ' || c == 0x7f || c == '#' || c >= 0x80 {
			return fmt.Errorf("byte %q must be escaped", c)
		}
	}
	_, err := url.ParseQuery(rawQuery)
	return err
}

// validate refuses a request this client must not send.
func (r *Request) validate() error {
	if r == nil {
		return fmt.Errorf("%w: no request", ErrInvalidRequest)
	}
	switch r.Method {
	case http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete, http.MethodHead:
	default:
		return fmt.Errorf("%w: method %q is not one of GET, POST, PATCH, PUT, DELETE, HEAD", ErrInvalidRequest, r.Method)
	}
	if !strings.HasPrefix(r.Path, "/v1/") {
		return fmt.Errorf("%w: path %q does not begin with /v1/", ErrInvalidRequest, r.Path)
	}
	for _, c := range []byte(r.Path) {
		if c <= ' ' || c == 0x7f || c == '?' || c == '#' || c >= 0x80 {
			return fmt.Errorf("%w: path %q must be escaped and hold no query or fragment", ErrInvalidRequest, r.Path)
		}
	}
	if _, err := url.PathUnescape(r.Path); err != nil {
		return fmt.Errorf("%w: path %q: %v", ErrInvalidRequest, r.Path, err)
	}
	if err := validateRawQuery(r.RawQuery); err != nil {
		return fmt.Errorf("%w: query %q: %v", ErrInvalidRequest, r.RawQuery, err)
	}
	for seg := range strings.SplitSeq(r.Path, "/") {
		if dots, _ := url.PathUnescape(seg); dots == "." || dots == ".." {
			return fmt.Errorf("%w: path %q may not hold . or .. segments", ErrInvalidRequest, r.Path)
		}
	}
	return nil
}

// UpdateCatalogJSONCall builds PATCH /v1/instances/I/databases/D/catalog
// with body, the catalog as JSON, sent as it is: a valid catalog object
// whose name is db's catalog, as the caller has checked. It never asks
// allowMissing=true, which no release of the service grants.
func UpdateCatalogJSONCall(db DatabaseName, body []byte) (*Request, error) {
	if err := db.Validate(); err != nil {
		return nil, err
	}
	if len(body) == 0 {
		return nil, fmt.Errorf("%w: no catalog to update", ErrInvalidRequest)
	}
	return &Request{Method: http.MethodPatch, Path: db.path() + "/catalog", Body: body}, nil
}

// GetCatalogCall builds GET /v1/instances/I/databases/D/catalog.
func GetCatalogCall(db DatabaseName) (*Request, error) {
	if err := db.Validate(); err != nil {
		return nil, err
	}
	return &Request{Method: http.MethodGet, Path: db.path() + "/catalog"}, nil
}

// BatchCreateRevisionsCall builds POST /v1/instances/I/databases/D/revisions:batchCreate
// creating the revisions in order, with the batch parent and every request's
// parent set to db.
func BatchCreateRevisionsCall(db DatabaseName, revisions []RevisionInput) (*Request, error) {
	if err := db.Validate(); err != nil {
		return nil, err
	}
	if len(revisions) == 0 {
		return nil, fmt.Errorf("%w: no revisions to create", ErrInvalidRequest)
	}
	parent := db.String()
	body := BatchCreateRevisionsRequest{Parent: parent, Requests: make([]CreateRevisionRequest, len(revisions))}
	for i, rev := range revisions {
		if rev.Type != "" && !rev.Type.Known() {
			return nil, fmt.Errorf("%w: requests[%d].revision.type: unknown revision type %q", ErrInvalidRequest, i, string(rev.Type))
		}
		body.Requests[i] = CreateRevisionRequest{Parent: parent, Revision: rev}
	}
	b, _ := json.Marshal(&body) // strings alone: it cannot fail
	return &Request{Method: http.MethodPost, Path: db.path() + "/revisions:batchCreate", Body: b}, nil
}

// GetReviewConfigCall builds GET /v1/reviewConfigs/ID.
func GetReviewConfigCall(id string) (*Request, error) {
	if err := ValidateID("review config", id); err != nil {
		return nil, err
	}
	return &Request{Method: http.MethodGet, Path: "/v1/reviewConfigs/" + escapeID(id)}, nil
}

// BatchGetUsersCall builds GET /v1/users:batchGet selecting the users by email,
// one repeated names=users/EMAIL parameter each.
func BatchGetUsersCall(emails []string) (*Request, error) {
	if len(emails) == 0 {
		return nil, fmt.Errorf("%w: no users to get", ErrInvalidRequest)
	}
	names := make([]string, len(emails))
	for i, email := range emails {
		if err := ValidateID("user", email); err != nil {
			return nil, err
		}
		names[i] = usersPrefix + email
	}
	return &Request{Method: http.MethodGet, Path: "/v1/users:batchGet", Query: url.Values{"names": names}}, nil
}

// UndeleteUserCall builds POST /v1/users/EMAIL:undelete with {"name": "users/EMAIL"}.
func UndeleteUserCall(email string) (*Request, error) { return undeleteCall("users", email) }

// undeleteCall builds POST /v1/COLL/EMAIL:undelete with {"name": "COLL/EMAIL"}:
// the undelete of email's account in the collection coll.
func undeleteCall(coll, email string) (*Request, error) {
	if err := ValidateID("user", email); err != nil {
		return nil, err
	}
	b, _ := json.Marshal(&UndeleteUserRequest{Name: coll + "/" + email}) // strings alone: it cannot fail
	return &Request{Method: http.MethodPost, Path: "/v1/" + coll + "/" + escapeID(email) + ":undelete", Body: b}, nil
}

// ListPoliciesOptions filter a policy list.
type ListPoliciesOptions struct {
	// PolicyType, when set, keeps the policies of that type only.
	PolicyType PolicyType
	// ShowDeleted includes deleted policies.
	ShowDeleted bool
}

// ListPoliciesCall builds GET /v1/{parent}/policies, with policyType and
// showDeleted each only when set; every parent answers it alike.
func ListPoliciesCall(parent PolicyParent, opts ListPoliciesOptions) (*Request, error) {
	path, err := parent.path()
	if err != nil {
		return nil, err
	}
	r := &Request{Method: http.MethodGet, Path: path, Query: url.Values{}}
	if opts.PolicyType != "" {
		if !opts.PolicyType.Known() {
			return nil, fmt.Errorf("%w: unknown policy type %q", ErrInvalidRequest, string(opts.PolicyType))
		}
		r.Query.Set("policyType", string(opts.PolicyType))
	}
	if opts.ShowDeleted {
		r.Query.Set("showDeleted", "true")
	}
	return r, nil
}

// DiffSchemaCall builds POST /v1/instances/I/databases/D/changelogs/C:diffSchema,
// or with changelogID "" POST /v1/instances/I/databases/D:diffSchema, which
// compares the database's current schema. The body holds exactly one of
// Schema (the target schema) or Changelog (another changelog, given as its
// id in db or its full name); for a changelog it names it (filled when
// req.Name is empty).
func DiffSchemaCall(db DatabaseName, changelogID string, req *DiffSchemaRequest) (*Request, error) {
	if err := db.Validate(); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, fmt.Errorf("%w: no diff request", ErrInvalidRequest)
	}
	path := db.path() + ":diffSchema"
	body := *req
	if changelogID != "" {
		if err := ValidateID("changelog", changelogID); err != nil {
			return nil, err
		}
		name := changelogName(db, changelogID)
		switch body.Name {
		case "":
			body.Name = name
		case name:
		default:
			return nil, fmt.Errorf("%w: diff request names %q, not the changelog %s", ErrInvalidName, req.Name, name)
		}
		path = db.path() + "/changelogs/" + escapeID(changelogID) + ":diffSchema"
	}
	switch {
	case body.Schema != "" && body.Changelog != "":
		return nil, fmt.Errorf("%w: give either a target schema or a target changelog, not both", ErrInvalidRequest)
	case body.Schema == "" && body.Changelog == "":
		return nil, fmt.Errorf("%w: give a target schema or a target changelog", ErrInvalidRequest)
	case body.Changelog != "":
		if !strings.Contains(body.Changelog, "/") {
			body.Changelog = changelogName(db, body.Changelog)
		}
		if _, _, err := parseFullChangelog(body.Changelog); err != nil {
			return nil, err
		}
	}
	b, _ := json.Marshal(&body) // strings alone: it cannot fail
	return &Request{Method: http.MethodPost, Path: path, Body: b}, nil
}
