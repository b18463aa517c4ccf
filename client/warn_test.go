package client

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// plainRemoteClient dials every address to the test server, so that a client of
// http://gov.example.com reaches it while believing the host is remote.
func plainRemoteClient(t *testing.T, srv *httptest.Server, opts Options, warnings *[]string) *Client {
	t.Helper()
	opts.Warn = func(msg string) { *warnings = append(*warnings, msg) }
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	c.rc.GetClient().Transport.(*answerReader).next = &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}}
	return c
}

func TestWarn_credentialsOverPlainHTTPToAnotherHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	tests := []struct {
		name  string
		base  string
		token string
		req   *Request
		want  int
	}{
		{"token to a remote host", "http://gov.example.com", "tok", &Request{Method: "GET", Path: "/v1/users:batchGet"}, 1},
		{"open route sends nothing", "http://gov.example.com", "tok", &Request{Method: "GET", Path: "/v1/idps", NoAuth: true}, 0},
		{"loopback", srv.URL, "tok", &Request{Method: "GET", Path: "/v1/users:batchGet"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warnings []string
			c := plainRemoteClient(t, srv, Options{BaseURL: tt.base, Token: tt.token}, &warnings)
			for range 2 {
				if _, err := c.Send(context.Background(), tt.req, nil); err != nil {
					t.Fatal(err)
				}
			}
			if len(warnings) != tt.want {
				t.Fatalf("warnings %q, want %d", warnings, tt.want)
			}
			if tt.want > 0 && !strings.Contains(warnings[0], "plain http:// to gov.example.com") {
				t.Errorf("warning %q", warnings[0])
			}
			for _, w := range warnings {
				if strings.Contains(w, tt.token) {
					t.Errorf("the warning holds the token: %q", w)
				}
			}
		})
	}
}

func TestDisplayURL_hidesThePassword(t *testing.T) {
	c, err := New(Options{BaseURL: "http://user:pw-secret@127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	got := c.DisplayURL(&Request{Method: "GET", Path: "/v1/idps"})
	if strings.Contains(got, "pw-secret") || !strings.Contains(got, "/v1/idps") {
		t.Errorf("DisplayURL = %q", got)
	}
	_, err = New(Options{BaseURL: "http://user:pw-secret@127.0.0.1:1/?q"})
	if err == nil || strings.Contains(err.Error(), "pw-secret") {
		t.Errorf("New error %v shows the password", err)
	}
}
