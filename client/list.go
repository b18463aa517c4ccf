package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"

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
// field (field, or when "" a list the first page holds), JSON as sent, and
// keeps none of them: only one page is ever held.
func (c *Client) List(ctx context.Context, r *Request, field string, limit int, page func(field string, items []json.RawMessage) error) error {
	q, err := url.ParseQuery(r.RawQuery)
	if err != nil {
		return fmt.Errorf("%w: query %q: %v", ErrInvalidRequest, r.RawQuery, err)
	}
	maps.Copy(q, r.Query)
	for n := 0; ; {
		if limit > 0 {
			q.Set("pageSize", strconv.Itoa(min(MaxPageSize, limit-n)))
		} else if !q.Has("pageSize") { // the caller's, when given
			q.Set("pageSize", strconv.Itoa(MaxPageSize))
		}
		pr := *r
		pr.Query, pr.RawQuery = q, ""
		body, err := c.Send(ctx, &pr, nil)
		if err != nil {
			return err
		}
		var items []json.RawMessage
		var next string
		if field, next, err = readPage(body, field, &items); err == nil && next != "" && next == q.Get("pageToken") {
			err = fmt.Errorf("nextPageToken %q is that of the page it ends: the list would never end", next)
		}
		if err != nil {
			return &InvalidResponseError{Method: r.Method, Path: r.Path, HTTPStatus: http.StatusOK, ContentType: "application/json", Err: err}
		}
		if limit > 0 && n+len(items) > limit {
			items = items[:limit-n]
		}
		if n += len(items); len(items) > 0 {
			if err := page(field, items); err != nil {
				return err
			}
		}
		if next == "" || limit > 0 && n >= limit {
			return nil
		}
		q.Set("pageToken", next)
	}
}

// readPage reads a page of a list in place: the items of field (when "",
// the first list met) and nextPageToken.
func readPage(body []byte, field string, items *[]json.RawMessage) (string, string, error) {
	if err := jsondoc.Check(body); err != nil {
		return "", "", err
	}
	dec, next := jsondoc.NewDecoder(body), ""
	if dec.PeekKind() != '{' {
		return "", "", errors.New("the page is not a JSON object")
	}
	dec.ReadToken()
	for dec.PeekKind() == '"' {
		tok, _ := dec.ReadToken()
		switch name, kind := tok.String(), dec.PeekKind(); {
		case name == "nextPageToken" && kind == '"':
			tok, _ = dec.ReadToken()
			next = tok.String()
			continue
		case name == "nextPageToken" && kind != 'n':
			return "", "", errors.New("field nextPageToken holds no JSON string")
		case name == field && kind != '[' && kind != 'n':
			return "", "", fmt.Errorf("field %s holds no JSON array", name)
		case kind == '[' && (field == "" || name == field):
			field = name
			dec.ReadToken()
			for dec.PeekKind() != ']' {
				v, _ := dec.ReadValue()
				end := int(dec.InputOffset())
				*items = append(*items, json.RawMessage(body[end-len(v):end]))
			}
			dec.ReadToken()
			continue
		}
		dec.SkipValue()
	}
	return field, next, nil
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
