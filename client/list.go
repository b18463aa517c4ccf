package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/internal/jsondoc"
)

// MaxPageSize is the largest page the service serves: a list asks for it.
const MaxPageSize = 1000

// ListCall builds GET /v1/{parent}/{collection}, the parent given as pairs
// of a collection and a valid id (instances, I, databases, D), filter sent
// as written when not empty.
func ListCall(collection, filter string, parent ...string) (*Request, error) {
	path := "/v1/"
	for i := 0; i+1 < len(parent); i += 2 {
		if err := ValidateID(strings.TrimSuffix(parent[i], "s"), parent[i+1]); err != nil {
			return nil, err
		}
		path += parent[i] + "/" + escapeID(parent[i+1]) + "/"
	}
	r := &Request{Method: http.MethodGet, Path: path + collection, Query: url.Values{}}
	if filter != "" {
		r.Query.Set("filter", filter)
	}
	return r, nil
}

// List sends r, a GET of a list, page after page, following each answer's
// nextPageToken (with pageSize and pageToken) until the last page or until
// limit items (0: no limit). It gives page the items of each page's list
// field (field, or when "" the first list of the first page that has one):
// JSON values as sent, which share the page's memory and are not kept once
// page returns, so that only one page is ever held.
func (c *Client) List(ctx context.Context, r *Request, field string, limit int, page func(field string, items []jsontext.Value) error) error {
	q, err := url.ParseQuery(r.RawQuery)
	if r.RawQuery == "" {
		q, err = url.Values{}, nil
		for k, v := range r.Query {
			q[k] = v
		}
	}
	if err != nil {
		return fmt.Errorf("%w: query %q: %v", ErrInvalidRequest, r.RawQuery, err)
	}
	invalid := func(err error) error {
		return &InvalidResponseError{Method: r.Method, Path: r.Path, HTTPStatus: http.StatusOK, ContentType: "application/json", Err: err}
	}
	size := q.Get("pageSize") // the caller's, when given
	for token, n := "", 0; ; {
		if size == "" {
			q.Set("pageSize", strconv.Itoa(MaxPageSize))
			if limit > 0 {
				q.Set("pageSize", strconv.Itoa(min(limit-n, MaxPageSize)))
			}
		}
		if q.Del("pageToken"); token != "" {
			q.Set("pageToken", token)
		}
		pr := *r
		pr.Query, pr.RawQuery = q, ""
		body, err := c.Send(ctx, &pr, nil)
		if err != nil {
			return err
		}
		var items []jsontext.Value
		var next string
		if field, items, next, err = readPage(body, field); err != nil {
			return invalid(err)
		}
		if limit > 0 && n+len(items) > limit {
			items = items[:limit-n]
		}
		if n += len(items); len(items) > 0 {
			if err := page(field, items); err != nil {
				return err
			}
		}
		switch {
		case next == "" || (limit > 0 && n >= limit):
			return nil
		case next == token:
			return invalid(fmt.Errorf("nextPageToken %q is the token of the page it ends: the list would never end", next))
		}
		token = next
	}
}

// readPage reads one page of a list: the items of field (the first list
// met when field is ""), in body's memory, and nextPageToken.
func readPage(body []byte, field string) (string, []jsontext.Value, string, error) {
	if err := jsondoc.Check(body); err != nil {
		return "", nil, "", err
	}
	dec := jsondoc.NewDecoder(body)
	if dec.PeekKind() != '{' {
		return "", nil, "", errors.New("a page of a list is not a JSON object")
	}
	var items []jsontext.Value
	var next string
	dec.ReadToken()
	for dec.PeekKind() == '"' {
		key, _ := dec.ReadValue()
		name := jsondoc.Unquote(key)
		switch kind := dec.PeekKind(); {
		case name == "nextPageToken" && kind == '"':
			v, _ := dec.ReadValue()
			next = jsondoc.Unquote(v)
			continue
		case name == "nextPageToken" && kind != 'n':
			return "", nil, "", fmt.Errorf("nextPageToken holds a JSON %s, expected a string", kind)
		case (name == field || field == "" && kind == '[') && kind != 'n':
			if kind != '[' {
				return "", nil, "", fmt.Errorf("field %s holds a JSON %s, expected an array", name, kind)
			}
			field = name
			dec.ReadToken()
			for dec.PeekKind() != ']' {
				v, err := dec.ReadValue()
				if err != nil {
					return "", nil, "", err
				}
				end := int(dec.InputOffset())
				items = append(items, jsontext.Value(body[end-len(v):end]))
			}
			dec.ReadToken()
			continue
		}
		if err := dec.SkipValue(); err != nil {
			return "", nil, "", err
		}
	}
	return field, items, next, nil
}

// Instance is a database server the service manages.
type Instance struct {
	// Name is the instance's resource name, instances/I.
	Name string `json:"name"`
	// Title is the instance's display name.
	Title string `json:"title,omitempty"`
	// Engine is the instance's database engine.
	Engine Engine `json:"engine,omitempty"`
	// Environment names the instance's environment, environments/E.
	Environment string `json:"environment,omitempty"`
	// State is ACTIVE or DELETED.
	State string `json:"state,omitempty"`
}

// Database is a database of an instance, as lists give it.
type Database struct {
	// Name is the database's resource name, instances/I/databases/D.
	Name string `json:"name"`
	// Project names the database's project, projects/P.
	Project string `json:"project,omitempty"`
	// EffectiveEnvironment names the environment the database is in, its
	// own or its instance's.
	EffectiveEnvironment string `json:"effectiveEnvironment,omitempty"`
	// SuccessfulSyncTime is when the service last read the database's
	// schema (RFC 3339).
	SuccessfulSyncTime string `json:"successfulSyncTime,omitempty"`
	// InstanceResource is what the database tells of its instance.
	InstanceResource struct {
		// Engine is the instance's database engine.
		Engine Engine `json:"engine,omitempty"`
	} `json:"instanceResource"`
}

// Changelog is one recorded change of a database's schema.
type Changelog struct {
	// Name is the changelog's resource name, instances/I/databases/D/changelogs/C.
	Name string `json:"name"`
	// Status is PENDING, DONE or FAILED.
	Status string `json:"status,omitempty"`
	// PlanTitle is the title of the plan that made the change.
	PlanTitle string `json:"planTitle,omitempty"`
	// CreateTime is when the change was made (RFC 3339).
	CreateTime string `json:"createTime,omitempty"`
}
