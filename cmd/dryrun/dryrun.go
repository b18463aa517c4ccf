// Package dryrun prints the requests a command would send, for --dry-run.
package dryrun

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// request is how one request is described in the document.
type request struct {
	Method string          `json:"method"`
	URL    string          `json:"url"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// Document is the document of what reqs would send. In table mode each
// request is its method and URL on one line and its body below, requests
// separated by a blank line; in the other formats one request is a document
// with the fields method, url and body, and several are {"requests": [...]}.
func Document(c *client.Client, reqs ...*client.Request) (output.Document, error) {
	described := make([]request, len(reqs))
	for i, r := range reqs {
		described[i] = request{Method: r.Method, URL: c.DisplayURL(r), Body: r.Body}
	}
	var doc any = map[string][]request{"requests": described}
	list := "requests"
	if len(described) == 1 {
		doc, list = described[0], ""
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return output.Document{}, fmt.Errorf("describe the request: %w", err)
	}
	var b bytes.Buffer
	for i, r := range described {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s %s\n", r.Method, r.URL)
		if len(r.Body) > 0 {
			if err := json.Indent(&b, r.Body, "", "  "); err != nil {
				b.Write(r.Body)
			}
			b.WriteByte('\n')
		}
	}
	return output.Document{Raw: raw, ListField: list, Text: new(b.String())}, nil
}
