package client

import (
	"context"
	"fmt"
	"net/http"
)

// The operations of the /v1 API. Each builds its request with the matching
// ...Call function, sends it and decodes the answer, returning the typed value
// and the body exactly as the service sent it.

// call builds, sends and decodes one operation.
func call[T any](ctx context.Context, c *Client, r *Request, err error) (*T, []byte, error) {
	if err != nil {
		return nil, nil, err
	}
	out := new(T)
	raw, err := c.Send(ctx, r, out)
	if err != nil {
		return nil, nil, err
	}
	return out, raw, nil
}

// GetCatalog reads the catalog of db and returns it as the service sent it.
func (c *Client) GetCatalog(ctx context.Context, db DatabaseName) ([]byte, error) {
	r, err := GetCatalogCall(db)
	if err != nil {
		return nil, err
	}
	return c.Send(ctx, r, nil)
}

// UpdateCatalog replaces the catalog of db with catalog, JSON (see
// UpdateCatalogJSONCall), and returns the catalog the service kept.
func (c *Client) UpdateCatalog(ctx context.Context, db DatabaseName, catalog []byte) ([]byte, error) {
	r, err := UpdateCatalogJSONCall(db, catalog)
	if err != nil {
		return nil, err
	}
	return c.Send(ctx, r, nil)
}

// GetReviewConfig reads the review configuration with the given id.
func (c *Client) GetReviewConfig(ctx context.Context, id string) (*ReviewConfig, []byte, error) {
	r, err := GetReviewConfigCall(id)
	return call[ReviewConfig](ctx, c, r, err)
}

// UndeleteUser restores a deleted account; an active one is refused with
// INVALID_ARGUMENT.
func (c *Client) UndeleteUser(ctx context.Context, email string) (*User, []byte, error) {
	r, err := c.UndeleteCall(ctx, email)
	return call[User](ctx, c, r, err)
}

// UndeleteCall builds the undelete of email's account where the service's
// release has it: a service account or a workload identity on a route of
// its own from 3.15, any other account as users/EMAIL:undelete.
func (c *Client) UndeleteCall(ctx context.Context, email string) (*Request, error) {
	r, err := UndeleteUserCall(email)
	if coll := accountCollection(email); err == nil && coll != "" {
		var s *Server
		if s, err = c.Server(ctx); err == nil && s.Release.Has(AccountsApart) {
			r, err = undeleteCall(coll, email)
		}
	}
	return r, err
}

// ListPolicies lists the policies of a database, an environment, a project
// or the workspace, where the service's release keeps them.
func (c *Client) ListPolicies(ctx context.Context, parent PolicyParent, opts ListPoliciesOptions) (*ListPoliciesResponse, []byte, error) {
	err := c.CheckPolicyType(ctx, opts.PolicyType)
	if s := (*Server)(nil); err == nil && parent == (PolicyParent{}) {
		if s, err = c.Server(ctx); err == nil && s.Release.Has(WorkspacePolicies) {
			parent.Workspace, err = c.Workspace(ctx)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	r, err := ListPoliciesCall(parent, opts)
	return call[ListPoliciesResponse](ctx, c, r, err)
}

// CheckPolicyType refuses a policy type that the service's release does
// not have, before anything but its description is sent.
func (c *Client) CheckPolicyType(ctx context.Context, t PolicyType) error {
	if t != PolicyTypeDataSourceQuery {
		return nil
	}
	s, err := c.Server(ctx)
	if err == nil && s.Release.Has(NoDataSourceQuery) {
		err = fmt.Errorf("%w: the service's release %s has no %s policies (none since %s)", ErrInvalidRequest, s.Version, t, NoDataSourceQuery)
	}
	return err
}

// ListIdentityProviders lists the identity providers, those of the
// workspace from 3.17.1 (where /v1/idps lists none); it needs no credentials.
func (c *Client) ListIdentityProviders(ctx context.Context) (*ListIdentityProvidersResponse, []byte, error) {
	r := &Request{Method: http.MethodGet, Path: "/v1/idps", NoAuth: true}
	s, err := c.Server(ctx)
	if err == nil && s.Release.Has(WorkspaceIdps) {
		var id string
		id, err = c.Workspace(ctx)
		r.Path = "/v1/workspaces/" + escapeID(id) + "/idps"
	}
	return call[ListIdentityProvidersResponse](ctx, c, r, err)
}
