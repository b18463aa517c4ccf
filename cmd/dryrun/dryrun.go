// Package dryrun prints the request a command would send, for --dry-run.
package dryrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// Print writes what r would send: in table mode the method and URL on one
// line and the body below; in the other formats a document with the fields
// method, url and body.
func Print(w io.Writer, p output.Printer, c *client.Client, r *client.Request) error {
	url := c.URL(r)
	doc := struct {
		Method string          `json:"method"`
		URL    string          `json:"url"`
		Body   json.RawMessage `json:"body,omitempty"`
	}{Method: r.Method, URL: url, Body: r.Body}
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("describe the request: %w", err)
	}
	return p.Print(w, output.Document{
		Raw: raw,
		Text: func() string {
			var b bytes.Buffer
			fmt.Fprintf(&b, "%s %s\n", r.Method, url)
			if len(r.Body) > 0 {
				if err := json.Indent(&b, r.Body, "", "  "); err != nil {
					b.Write(r.Body)
				}
				b.WriteByte('\n')
			}
			return b.String()
		},
	})
}
