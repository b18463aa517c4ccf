package root_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// TestRun_credentialsInAnyMessageAreMasked plants a credential of the run
// in messages of every origin: none may print it, on a pipe, a terminal or
// as JSON lines.
func TestRun_credentialsInAnyMessageAreMasked(t *testing.T) {
	const cred = "cred-PLANTED-5f6e7d8c"
	write := func(name, text string) string { return cmdtest.WriteFile(t, name, text) }
	badTimeout := write("bad-timeout.yaml", "profiles:\n  default:\n    timeout: "+cred+"\n")
	noSuchProfile := write("config.yaml", "profiles:\n  default: {}\n")
	catalog := write("catalog.json", `{"schemas": [], "`+cred+`": 1}`)
	answer := func(title string) func(*httpmock.Registry) {
		return func(reg *httpmock.Registry) {
			reg.Register("GET", "/v1/reviewConfigs/x", 200, `{"name": "reviewConfigs/x", "title": "`+title+`"}`)
		}
	}
	tests := []struct {
		name  string
		env   map[string]string
		args  []string
		serve func(*httpmock.Registry)
		code  int
	}{
		{"config error", map[string]string{"DBGOV_TOKEN": cred, "DBGOV_CONFIG": badTimeout}, []string{"review-configs", "get", "x"}, nil, 2},
		{"bad --header value", nil, []string{"review-configs", "get", "x", "--header", "Authorization Bearer " + cred + ": x"}, nil, 2},
		{"input file quoting its content", map[string]string{"DBGOV_SERVICE_ACCOUNT": "ci@x.com", "DBGOV_SERVICE_KEY": cred},
			[]string{"catalog", "update", "--instance", "i", "--database", "d", "-f", catalog}, nil, 2},
		{"jq error quoting the answer", map[string]string{"DBGOV_TOKEN": cred}, []string{"review-configs", "get", "x", "--jq", ".title | keys"}, answer(cred), 1},
		{"warning", map[string]string{"DBGOV_TOKEN": cred, "DBGOV_CONFIG": noSuchProfile}, []string{"review-configs", "get", "x", "--profile", cred}, answer("Default"), 0},
		{"usage error before the client is made", nil, []string{"review-configs", "get", "bad name " + cred, "--token", cred}, nil, 2},
		{"password of the URL", map[string]string{"DBGOV_URL": "http://admin:" + cred + "@127.0.0.1:1"}, []string{"review-configs", "get", "bad name " + cred}, nil, 2},
	}
	variants := []struct {
		name string
		tty  bool
		args []string
	}{{"piped", false, nil}, {"terminal", true, nil}, {"json", false, []string{"-o", "json"}}}
	for _, tt := range tests {
		for _, v := range variants {
			t.Run(tt.name+" "+v.name, func(t *testing.T) {
				reg := httpmock.New(t)
				if tt.serve != nil {
					tt.serve(reg)
				}
				res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Token: "-", Env: tt.env, TTY: v.tty},
					append(slices.Clone(tt.args), v.args...)...).Expect(t, tt.code)
				if strings.Contains(res.Stdout+res.Stderr, cred) || !strings.Contains(res.Stderr, "********") {
					t.Errorf("the credential is not masked:\nstdout: %s\nstderr: %s", res.Stdout, res.Stderr)
				}
				for _, line := range strings.Split(strings.TrimSuffix(res.Stderr, "\n"), "\n") {
					if v.name == "json" && !json.Valid([]byte(line)) {
						t.Errorf("stderr line %q is not JSON", line)
					}
				}
			})
		}
	}
}
