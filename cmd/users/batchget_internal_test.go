package users

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/httpmock"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

// The output options only guide how much of the answer is decoded up front;
// a printer that shows fields the guess did not foresee still gets them.
func TestRunBatchGet_decodesLateWhenTheGuessWasWrong(t *testing.T) {
	tests := []struct {
		name    string
		guess   func() (output.Options, error)
		body    string
		printer output.Options
		want    string
		wantErr string
	}{
		{"options unknown, table", func() (output.Options, error) { return output.Options{}, errors.New("no options") },
			`{"users": [{"name": "users/a@example.com", "email": "a@example.com", "mfaEnabled": true}]}`, output.Options{NoHeaders: true},
			"users/a@example.com   a@example.com               true\n", ""},
		{"json guessed, names printed", func() (output.Options, error) { return output.Options{Format: "json"}, nil },
			`{"users": [{"name": "users/a@example.com"}, {"name": "users/b@example.com"}]}`, output.Options{Format: "name"},
			"users/a@example.com\nusers/b@example.com\n", ""},
		{"json guessed, table of a bad field", func() (output.Options, error) { return output.Options{Format: "json"}, nil },
			`{"users": [{"name": "users/a@example.com", "groups": "dba"}]}`, output.Options{},
			"", "get user a@example.com: invalid response to GET /v1/users:batchGet: field users.groups holds a JSON string"},
		{"json guessed, names of a bad second user", func() (output.Options, error) { return output.Options{Format: "json"}, nil },
			`{"users": [{"name": "users/a@example.com"}, {"name": 7}]}`, output.Options{Format: "name"},
			"", "field users.name holds a JSON number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodGet, "/v1/users:batchGet", 200, tt.body)
			c, err := client.New(client.Options{BaseURL: reg.URL(), Token: "t"})
			if err != nil {
				t.Fatal(err)
			}
			out := &bytes.Buffer{}
			ios := &iostreams.IOStreams{In: &bytes.Buffer{}, Out: out, ErrOut: &bytes.Buffer{}}
			opts := &batchGetOptions{
				Deps: factory.Deps{
					IO:      ios,
					Client:  func() (*client.Client, error) { return c, nil },
					Printer: func() (output.Printer, error) { return output.New(tt.printer) },
				},
				Output: tt.guess,
				Emails: emailsIn(tt.body),
			}
			err = runBatchGet(context.Background(), opts)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
			if out.String() != tt.want {
				t.Errorf("stdout %q, want %q", out.String(), tt.want)
			}
		})
	}
}

// emailsIn returns the emails of the users named in body, the users asked for.
func emailsIn(body string) []string {
	var emails []string
	for _, part := range strings.Split(body, `"users/`)[1:] {
		emails = append(emails, part[:strings.IndexByte(part, '"')])
	}
	return emails
}
